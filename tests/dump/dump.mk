# tests/dump: golden tests of btfdump against bpftool (check_*.sh) need the
# byte-swapping helper btf_swap (built by the generic tests/% rule).
CHECK_DEPS += $(B)/tests/dump/btf_swap
