# Verifier tests: the differential kernel test driver (run by check_kernel_diff.sh)
VERIFY_DIFF := $(B)/tests/verify/diff_kernel
$(VERIFY_DIFF): tests/verify/diff_kernel.c tests/verify/blobgen.h $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/verify $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
CHECK_DEPS += $(VERIFY_DIFF)
# libbpf's own answer for a BPF object's BTF (run by check_object_mode.sh)
LIBBPF_BTF := $(B)/tests/verify/libbpf_btf
$(LIBBPF_BTF): tests/verify/libbpf_btf.c $(LIBA_INTERNAL) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA_INTERNAL) $(LDLIBS)
CHECK_DEPS += $(LIBBPF_BTF)
# the words of an errno value: a white-box test of libbtf/io/errno_words.c
WHITEBOX_TESTS += $(B)/tests/verify/test_errno_words
$(B)/tests/verify/test_errno_words: $(LIBA_INTERNAL)
# btfcheck linked with glibc, dynamically ($(B)/tests/btfgen/btfcheck-dynamic):
# check_btfcheck_libc.sh's reference for what $(B)/btfcheck (musl) prints
$(eval $(call dynamic_prog_rule,btfcheck))
# what lbtf_verify keeps between calls changes no answer (util/keep.h's
# count of held bytes: white-box)
WHITEBOX_TESTS += $(B)/tests/verify/test_verify_kept
$(B)/tests/verify/test_verify_kept: $(LIBA_INTERNAL)
# (it compiles btfcheck's heap into itself)
$(B)/tests/verify/test_btfcheck_heap: btfcheck/musl/heap.c btfcheck/musl/heap.h
