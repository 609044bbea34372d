# tests/relo: CO-RE relocations resolved by btfcheck --target-btf and by the
# minimal BTF, compared with libbpf itself (relo_oracle.c, linked by the
# scripts with libbpf 1.8 built from source) on objects built here (cases.bpf.c: every relocation
# kind) and the corpus, against targets the scripts make from relo_types.h.
RELO_DIR := $(B)/relo
$(RELO_DIR)/cases.bpf.o: tests/relo/cases.bpf.c tests/relo/relo_types.h
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(BPF_CLANG) $(CORPUS_CFLAGS) -Itests/relo -c -o $@ $<
$(RELO_DIR)/externs.bpf.o: tests/relo/externs.bpf.c
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(BPF_CLANG) $(CORPUS_CFLAGS) -c -o $@ $<
$(RELO_DIR)/struct_ops.bpf.o: tests/relo/struct_ops.bpf.c tests/relo/relo_types.h
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(BPF_CLANG) $(CORPUS_CFLAGS) -Itests/relo -c -o $@ $<
RELO_ALL := $(RELO_DIR)/cases.bpf.o $(RELO_DIR)/externs.bpf.o $(RELO_DIR)/struct_ops.bpf.o
# bench_verify.sh's gate row checks every BPF object the build makes
BENCH_DEPS += $(RELO_ALL)
CHECK_DEPS += $(RELO_ALL)
relo: $(RELO_ALL)
.PHONY: relo
