# btfgen tests: helper programs (built by the generic tests/% rule) and the
# script tests tests/btfgen/check_*.sh that use them.
BTFGEN_TEST_TOOLS := $(B)/tests/btfgen/btfsig $(B)/tests/btfgen/btfload
CHECK_DEPS += $(BTFGEN_TEST_TOOLS)
BENCH_DEPS += $(B)/tests/btfgen/btfsig $(B)/tests/btfgen/btfload

# btfgen is linked statically (Makefile: STATIC_PROGS), where LD_PRELOAD
# shims cannot reach it: the same objects linked dynamically, for the tests
# that interpose on libc (check_output_safety.sh: a signal raised in fsync)
BTFGEN_DYNAMIC := $(B)/tests/btfgen/btfgen-dynamic
$(BTFGEN_DYNAMIC): $(btfgen_OBJS) $(CLI_OBJS) $(LIBA_INTERNAL)
	@mkdir -p $(@D)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(btfgen_OBJS) $(CLI_OBJS) $(LIBA_INTERNAL) -Wl,--as-needed $(LDLIBS)
CHECK_DEPS += $(BTFGEN_DYNAMIC)
