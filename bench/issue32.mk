# Issue 32 benches: the layout section's cost (bench/bench_layout.sh), a parse-only command
$(B)/bench/btf_parse: bench/btf_parse.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
BENCH_DEPS += $(B)/bench/btf_parse
# Name lookups, sorted vs not (bench/bench_lookup.sh)
$(B)/bench/lookup_bench: bench/lookup_bench.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
BENCH_DEPS += $(B)/bench/lookup_bench
