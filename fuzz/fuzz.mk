# libFuzzer targets: fuzz/fuzz_*.c, each built with clang and linked with
# libbtf compiled once for them (instrumented for coverage, ASan+UBSan) into
# $(B)/obj/fuzz/. `make fuzz` builds them; make check builds them as
# CHECK_DEPS when clang's libFuzzer runtime is installed and runs each for
# $(FUZZ_SECONDS) seconds (tests/fuzz/check_fuzz.sh).
FUZZ_CC      ?= clang
FUZZ_SRCS    := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZERS      := $(patsubst fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-Wall -Wextra -Wmissing-prototypes -Wcast-qual -Wformat-nonliteral -Werror \
		-Wno-unused-parameter -Wno-missing-field-initializers
FUZZ_LIB_OBJS := $(patsubst libbtf/%.c,$(B)/obj/fuzz/libbtf/%.o,$(LIB_SRCS))
FUZZ_LIBA    := $(B)/fuzz/libbtf-fuzz.a

$(B)/obj/fuzz/libbtf/%.o: libbtf/%.c
	@mkdir -p $(@D)
	$(call msg,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<
$(FUZZ_LIBA): $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)ar rcs $@ $^
$(B)/fuzz/%: fuzz/%.c fuzz/fuzz_common.h $(FUZZ_LIBA)
	@mkdir -p $(@D)
	$(call msg,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIBA) $(LDLIBS)

# Without the runtime the fuzz check skips (saying so) instead of the build failing.
ifneq ($(wildcard $(shell $(FUZZ_CC) -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)),)
CHECK_DEPS += $(FUZZERS)
endif

# `make fuzz` also runs the tool-level campaign (tests/fuzz/campaign.py) for
# CAMPAIGN_SECONDS (default 600; make check runs it for 60) and its BPF
# object campaign, libbpf's open and load as the oracle, for
# CAMPAIGN_BPF_SECONDS (default 600; make check runs it for 20)
CAMPAIGN_SECONDS ?= 600
CAMPAIGN_BPF_SECONDS ?= 600
.PHONY: fuzz-campaign
fuzz-campaign: all $(B)/tests/fuzz/libbpf_open
	@B=$(B) CAMPAIGN_SECONDS=$(CAMPAIGN_SECONDS) bash tests/fuzz/check_campaign.sh
	@B=$(B) CAMPAIGN_BPF_SECONDS=$(CAMPAIGN_BPF_SECONDS) bash tests/fuzz/check_bpf_campaign.sh
fuzz: fuzz-campaign
