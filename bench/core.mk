# CO-RE benchmark peer (bench/bench_core.sh): libbpf's open + CO-RE relocation
$(B)/bench/core_libbpf: bench/core_libbpf.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lbpf -lelf -lz
BENCH_DEPS += $(B)/bench/core_libbpf
