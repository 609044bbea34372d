# Verifier benchmark driver (bench/bench_verify.sh): lbtf_verify vs BPF_BTF_LOAD and btf__new
$(B)/bench/verify_bench: bench/verify_bench.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
BENCH_DEPS += $(B)/bench/verify_bench
# The kernel's load as a command (bench/bench_verify.sh's fresh-process rows)
$(B)/bench/btf_load: bench/btf_load.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lbpf -lelf -lz
BENCH_DEPS += $(B)/bench/btf_load
$(B)/bench/libbpf_btf_load: bench/libbpf_btf_load.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lbpf -lelf -lz
BENCH_DEPS += $(B)/bench/libbpf_btf_load
# The floor of a one-command-per-object row: a static program doing nothing
$(B)/bench/hello: bench/hello.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(btfcheck_LDFLAGS) -o $@ $<
BENCH_DEPS += $(B)/bench/hello
# The floor of `btfcheck FILE` on raw BTF: map it, walk the types, read the strings
$(B)/bench/btf_walk: bench/btf_walk.c $(LIBA_INTERNAL) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(btfcheck_LDFLAGS) -o $@ $< $(LIBA_INTERNAL) $(btfcheck_LDLIBS)
BENCH_DEPS += $(B)/bench/btf_walk
