# Dedup benchmark driver (bench/bench_dedup.sh): libbtf vs libbpf's btf__dedup
$(B)/bench/dedup_bench: bench/dedup_bench.c $(LIBA_INTERNAL) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA_INTERNAL) $(LDLIBS)
BENCH_DEPS += $(B)/bench/dedup_bench
