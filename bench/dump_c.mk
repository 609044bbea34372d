# The floor of a vmlinux.h (bench/bench_dump_c.sh): map the BTF, walk its
# records once, write as many bytes as the header; static like btfdump
$(B)/bench/dump_c_floor: bench/dump_c_floor.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(btfdump_LDFLAGS) -o $@ $<
BENCH_DEPS += $(B)/bench/dump_c_floor
