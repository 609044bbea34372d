# Generic test rules (area fragments add their own extras):
#  - tests/<area>/test_*.c : cmocka unit tests, linked with libbtf.a, run by make check
#  - tests/<area>/check_*.sh : script tests, run by make check with $B set
#    (exit 0 pass, 77 skip with a "SKIP: reason" line, else fail)
UNIT_SRCS := $(sort $(wildcard tests/*/test_*.c))
UNIT_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(UNIT_SRCS))
TEST_HELPER_HDRS := $(wildcard tests/*/*.h)

# A unit test links the installed archive (the lbtf_ API only), except the
# white-box tests listed in WHITEBOX_TESTS, which link the internal one.
# (test_builder: also the atomic file writer of libbtf/io)
WHITEBOX_TESTS := $(B)/tests/dump/test_json_writer $(B)/tests/build/test_builder \
		  $(B)/tests/build/test_dedup_settled $(B)/tests/build/test_dedup_side_init \
		  $(B)/tests/dwarf/test_reloc $(B)/tests/dwarf/test_dies $(B)/tests/dwarf/test_read_once \
		  $(B)/tests/object/test_keep $(B)/tests/dwarf/test_abbrevs \
		  $(B)/tests/dwarf/test_sig_plan $(B)/tests/dwarf/test_group_defs \
		  $(B)/tests/dwarf/test_pfuncs_gate $(B)/tests/write/test_readbuf \
		  $(B)/tests/dwarf/test_prune_strings $(B)/tests/dwarf/test_release_pages \
		  $(B)/tests/util/test_side $(B)/tests/util/test_heap_huge
# (its calls of pahole's function table load go through the test's wrapper)
$(B)/tests/dwarf/test_pfuncs_gate: private LDFLAGS += -Wl,--wrap=lbtfi_dw_pfuncs_load
# (its threads are counted by the test's wrapper)
$(B)/tests/build/test_dedup_side_init: private LDFLAGS += -Wl,--wrap=pthread_create
# (its threads are refused and counted by the test's wrappers)
$(B)/tests/util/test_side: private LDFLAGS += -Wl,--wrap=pthread_create -Wl,--wrap=pthread_join
# (its heap releases and dedups go through the test's wrappers)
$(B)/tests/dwarf/test_release_pages: private LDFLAGS += -Wl,--wrap=malloc_trim \
	-Wl,--wrap=lbtfi_builder_dedup_types
TEST_LIB = $(if $(filter $@,$(WHITEBOX_TESTS)),$(LIBA_INTERNAL),$(LIBA))
$(WHITEBOX_TESTS): $(LIBA_INTERNAL)
$(B)/tests/%: tests/%.c $(LIBA) $(LIB_PUB_HDRS) $(TEST_HELPER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/$(firstword $(subst /, ,$*)) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LIB) -lcmocka $(LDLIBS)

CHECK_DEPS  += $(UNIT_BINS)
CHECK_TESTS += $(UNIT_BINS) $(sort $(wildcard tests/*/check_*.sh))
