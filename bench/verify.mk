# Verifier benchmark driver (bench/bench_verify.sh): lbtf_verify vs BPF_BTF_LOAD and btf__new
$(B)/bench/verify_bench: bench/verify_bench.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
BENCH_DEPS += $(B)/bench/verify_bench
