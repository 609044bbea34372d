# Verifier tests: the differential kernel test driver (run by check_kernel_diff.sh)
VERIFY_DIFF := $(B)/tests/verify/diff_kernel
$(VERIFY_DIFF): tests/verify/diff_kernel.c tests/verify/blobgen.h $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/verify $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
CHECK_DEPS += $(VERIFY_DIFF)
