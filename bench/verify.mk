# Verifier benchmark driver (bench/bench_verify.sh): lbtf_verify vs BPF_BTF_LOAD and btf__new
$(B)/bench/verify_bench: bench/verify_bench.c $(LIBA) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)
BENCH_DEPS += $(B)/bench/verify_bench
# The kernel's load as a command (bench/bench_verify.sh's fresh-process rows)
$(B)/bench/btf_load: bench/btf_load.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lbpf -lelf -lz
BENCH_DEPS += $(B)/bench/btf_load
$(B)/bench/libbpf_btf_load: bench/libbpf_btf_load.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lbpf -lelf -lz
BENCH_DEPS += $(B)/bench/libbpf_btf_load
# The floors of a one-command-per-object row: a program doing nothing linked
# like btfcheck (with musl when btfcheck is), the same with static glibc,
# and a process that only exits (no libc: the kernel's exec and exit)
ifneq ($(filter btfcheck,$(MUSL_PROGS)),)
$(B)/bench/hello: $(B)/obj/musl/bench/hello.o
	@mkdir -p $(@D)
	$(call MUSL_LINK,$<)
else
$(B)/bench/hello: bench/hello.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(btfcheck_LDFLAGS) -o $@ $<
endif
$(B)/bench/hello-glibc: bench/hello.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(if $(filter 1,$(SAN)),,-static) -o $@ $<
$(B)/bench/exit_only: bench/exit_only.c
	@mkdir -p $(@D)
	$(CC) -O2 -static -nostdlib -fno-stack-protector -o $@ $<
BENCH_DEPS += $(B)/bench/hello $(B)/bench/hello-glibc $(B)/bench/exit_only
# The floor of `btfcheck FILE` on raw BTF: map it, walk the types, read the strings
$(B)/bench/btf_walk: bench/btf_walk.c $(LIBA_INTERNAL) $(LIB_PUB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(btfcheck_LDFLAGS) -o $@ $< $(LIBA_INTERNAL) $(btfcheck_LDLIBS)
BENCH_DEPS += $(B)/bench/btf_walk
