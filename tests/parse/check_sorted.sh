#!/bin/bash
# Sorted BTF (issue 32): a kernel's BTF permuted into name order by libbpf
# master's btf__permute is seen as sorted by libbtf, whose name lookups in
# it then binary-search (libbpf 1c96b72c, ad9c7634): every named type is
# found where libbpf finds it and where a linear scan of the unsorted BTF
# finds it, in less time (tests/parse/sorted_ref.c; the figures are
# printed). Needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache and
# /sys/kernel/btf/vmlinux (else SKIP).
. "$(dirname "$0")/../lib.sh"
V=/sys/kernel/btf/vmlinux
need_libbpf18 btf__permute
[ -r "$V" ] || { echo "SKIP: no $V"; exit 77; }
build_libbpf18_prog tests/parse/sorted_ref.c "$T/ref" libbtf
"$T/ref" "$V" || fail=1
[ $fail = 0 ] && echo "PASS: sorted BTF found by binary search, as libbpf 1.8"
exit $fail
