# bpf/: the flow dissector object, its BTF chain, and the flowctl loader.
#   $(B)/bpf/bpf_flow.o   clang -g (DWARF) -> clang BTF removed -> btfgen -> btfcheck
#   $(B)/flowctl          loader/driver (libbpf), from bpf/flowctl*.c
#   $(B)/obj/bpf/libflowctl.a  the loader minus main(), linked into tests/flow
BPF_MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null)
# -mcpu=v3: 32-bit jumps and ALU ops (kernel 5.1+; the program needs 6.1 for
# BPF_FLOW_DISSECTOR_CONTINUE): fewer zero-extensions on the per-packet path
# (about 0.6 ns per packet of the program's own run time, bench/bench_flow.sh).
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -Wall -Werror -I/usr/include/$(BPF_MULTIARCH)
FLOW_OBJ := $(B)/bpf/bpf_flow.o

$(B)/bpf/bpf_flow.clang.o: bpf/bpf_flow.c bpf/flow_config.h bpf/bpf.mk
	@mkdir -p $(@D)
	$(BPF_CLANG) $(BPF_CFLAGS) -c -o $@ $<

# The chain (bpf/btf-chain.sh): clang's BTF out, btfgen's in, btfcheck; any
# failure fails the build (tests/flow/check_btf_chain.sh proves it).
$(FLOW_OBJ): $(B)/bpf/bpf_flow.clang.o $(B)/btfgen $(B)/btfcheck bpf/btf-chain.sh
	@bash bpf/btf-chain.sh $(B) $< $@

FLOWCTL_LIB_SRCS := $(filter-out bpf/flowctl.c,$(wildcard bpf/flowctl_*.c))
FLOWCTL_LIB_OBJS := $(patsubst bpf/%.c,$(B)/obj/bpf/%.o,$(FLOWCTL_LIB_SRCS))
FLOWCTL_LIB := $(B)/obj/bpf/libflowctl.a

$(B)/obj/bpf/%.o: bpf/%.c $(wildcard bpf/*.h) | $(VERSION_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ibpf $(CFLAGS) -c -o $@ $<
$(FLOWCTL_LIB): $(FLOWCTL_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(B)/flowctl: $(B)/obj/bpf/flowctl.o $(FLOWCTL_LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(FLOWCTL_LIB) $(LDLIBS)

# tests/flow/test_*.c use the loader library and the object.
FLOW_UNIT_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/flow/test_*.c))
$(FLOW_UNIT_BINS): $(FLOWCTL_LIB)
$(FLOW_UNIT_BINS): private CPPFLAGS += -Ibpf
$(FLOW_UNIT_BINS): private LDLIBS := $(FLOWCTL_LIB) $(LDLIBS)

CHECK_DEPS += $(FLOW_OBJ) $(B)/flowctl
DEMO_DEPS += $(FLOW_OBJ) $(B)/flowctl
BENCH_DEPS += $(FLOW_OBJ) $(B)/flowctl

# make all builds flowctl and the object; make install installs both, the
# object as <prefix>/lib/flowctl/bpf_flow.o, where the installed flowctl
# looks for it (flow_default_obj), and flowctl's bash completion.
ALL_TARGETS += $(FLOW_OBJ) $(B)/flowctl
install: install-flow
install-flow: $(FLOW_OBJ) $(B)/flowctl
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/flowctl
	install -m 755 $(B)/flowctl $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(FLOW_OBJ) $(DESTDIR)$(PREFIX)/lib/flowctl/
	install -d $(DESTDIR)$(BASH_COMPLETION_DIR)
	install -m 644 completion/btf-tools.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/flowctl
.PHONY: install-flow
