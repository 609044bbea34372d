# btfgen tests: helper programs (built by the generic tests/% rule) and the
# script tests tests/btfgen/check_*.sh that use them.
BTFGEN_TEST_TOOLS := $(B)/tests/btfgen/btfsig $(B)/tests/btfgen/btfload
CHECK_DEPS += $(BTFGEN_TEST_TOOLS)
BENCH_DEPS += $(B)/tests/btfgen/btfsig $(B)/tests/btfgen/btfload
