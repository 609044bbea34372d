# libFuzzer targets: fuzz/fuzz_*.c, each built with clang and all of libbtf's
# sources under ASan+UBSan. `make fuzz` builds them; make check runs each for
# $(FUZZ_SECONDS) seconds (tests/fuzz/check_fuzz.sh) when the runtime exists.
FUZZ_CC      ?= clang
FUZZ_SRCS    := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZERS      := $(patsubst fuzz/%.c,build/fuzz/%,$(FUZZ_SRCS))
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

build/fuzz/%: fuzz/%.c $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -o $@ $< $(LIB_SRCS) $(LDLIBS)
$(FUZZERS): fuzz/fuzz_common.h
