# Dedup benchmark driver (bench/bench_dedup.sh): libbtf vs libbpf's btf__dedup
$(B)/bench/dedup_bench: bench/dedup_bench.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
BENCH_DEPS += $(B)/bench/dedup_bench
