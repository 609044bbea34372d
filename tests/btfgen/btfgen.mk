# btfgen tests: helper programs (built by the generic tests/% rule) and the
# script tests tests/btfgen/check_*.sh that use them.
BTFGEN_TEST_TOOLS := $(B)/tests/btfgen/btfsig $(B)/tests/btfgen/btfload
CHECK_DEPS += $(BTFGEN_TEST_TOOLS)
BENCH_DEPS += $(B)/tests/btfgen/btfsig $(B)/tests/btfgen/btfload

# btfgen and btfdump are linked statically (Makefile: STATIC_PROGS), where
# LD_PRELOAD shims cannot reach them: the same objects linked dynamically
# as $(B)/tests/btfgen/PROG-dynamic, for the tests that interpose on libc
# (check_output_safety.sh: a signal raised in fsync)
define dynamic_prog_rule
$(B)/tests/btfgen/$(1)-dynamic: $$($(1)_OBJS) $$(CLI_OBJS) $$(LIBA_INTERNAL)
	@mkdir -p $$(@D)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(LDFLAGS) -o $$@ $$($(1)_OBJS) $$(CLI_OBJS) $$(LIBA_INTERNAL) -Wl,--as-needed $$(LDLIBS)
CHECK_DEPS += $(B)/tests/btfgen/$(1)-dynamic
endef
$(foreach p,btfgen btfdump,$(eval $(call dynamic_prog_rule,$(p))))
