# The campaign's oracle: libbpf's own open (and load) of a BPF object
# (tests/fuzz/libbpf_open.c, built by the generic tests/% rule)
LIBBPF_OPEN := $(B)/tests/fuzz/libbpf_open
CHECK_DEPS += $(LIBBPF_OPEN)
