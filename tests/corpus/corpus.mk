# The BPF corpus: realistic clang-16 programs (tests/corpus/*.bpf.c), built
# into $(B)/corpus/NAME.bpf.o exactly as clang emits them (-g: DWARF, .BTF,
# .BTF.ext), plus the two-object program linked with `bpftool gen object`
# ($(B)/corpus/link.o from link_a + link_b), the loader/runner that compares
# objects on the kernel (corpus_run), and the skeleton user program of the
# linked object (link_skel). Other tests reuse $(CORPUS_OBJS).
CORPUS_DIR   := $(B)/corpus
CORPUS_SRCS  := $(sort $(wildcard tests/corpus/*.bpf.c))
CORPUS_OBJS  := $(patsubst tests/corpus/%.bpf.c,$(CORPUS_DIR)/%.bpf.o,$(CORPUS_SRCS))
CORPUS_HDRS  := $(wildcard tests/corpus/*.h)
CORPUS_CFLAGS := -g -O2 -target bpf -Wall -Werror -I/usr/include/$(shell gcc -print-multiarch 2>/dev/null) -Itests/corpus

$(CORPUS_DIR)/%.bpf.o: tests/corpus/%.bpf.c $(CORPUS_HDRS)
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(BPF_CLANG) $(CORPUS_CFLAGS) -c -o $@ $<

$(CORPUS_DIR)/link.o: $(CORPUS_DIR)/link_a.bpf.o $(CORPUS_DIR)/link_b.bpf.o
	$(call msg,BPFLINK,$@)
	$(Q)bpftool gen object $@ $^

$(CORPUS_DIR)/link.skel.h: $(CORPUS_DIR)/link.o
	$(call msg,SKEL,$@)
	$(Q)bpftool gen skeleton $< name corpus_link > $@.tmp && mv $@.tmp $@

# (bpftool's generated skeleton casts a const away: not our code to fix)
$(CORPUS_DIR)/link_skel: tests/corpus/link_skel.c $(CORPUS_DIR)/link.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Wno-cast-qual -I$(CORPUS_DIR) -o $@ $< -lbpf -lelf -lz

$(CORPUS_DIR)/corpus_run: tests/corpus/corpus_run.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $< -lbpf -lelf -lz

CORPUS_ALL := $(CORPUS_OBJS) $(CORPUS_DIR)/link.o $(CORPUS_DIR)/link_skel $(CORPUS_DIR)/corpus_run
CHECK_DEPS += $(CORPUS_ALL)
BENCH_DEPS += $(CORPUS_OBJS)
corpus: $(CORPUS_ALL)
.PHONY: corpus
