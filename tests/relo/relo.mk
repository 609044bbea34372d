# tests/relo: CO-RE relocations resolved by btfcheck --target-btf and by the
# minimal BTF, compared with libbpf itself (relo_oracle, linked with the
# system's libbpf) on objects built here (cases.bpf.c: every relocation
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
$(RELO_DIR)/relo_oracle: tests/relo/relo_oracle.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $< -lbpf -lelf -lz
RELO_ALL := $(RELO_DIR)/cases.bpf.o $(RELO_DIR)/externs.bpf.o $(RELO_DIR)/relo_oracle
CHECK_DEPS += $(RELO_ALL)
relo: $(RELO_ALL)
.PHONY: relo
