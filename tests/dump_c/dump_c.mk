# C dumper tests: a small driver linked with libbtf, used by check_*.sh here
# and by bench/bench_dump_c.sh until btfdump's command line lands.
$(B)/tests/dump_c/dumpc_driver: tests/dump_c/dumpc_driver.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

CHECK_DEPS += $(B)/tests/dump_c/dumpc_driver
BENCH_DEPS += $(B)/tests/dump_c/dumpc_driver
