#!/bin/bash
# Sorted BTF (issue 32): a kernel's BTF permuted into name order by libbpf
# master's btf__permute is seen as sorted by libbtf, whose name lookups in
# it then binary-search (libbpf 1c96b72c, ad9c7634): every named type is
# found where libbpf finds it and where a linear scan of the unsorted BTF
# finds it, in less time (tests/parse/sorted_ref.c; the figures are
# printed). Needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache and
# /sys/kernel/btf/vmlinux (else SKIP).
. "$(dirname "$0")/../lib.sh"
CACHE=${LIBBPF_CACHE:-/var/cache/btf-bench}
V=/sys/kernel/btf/vmlinux
lib=$(for d in "$CACHE"/libbpf-*/; do
	nm "$d/lib/libbpf.a" 2>/dev/null | grep -q ' T btf__permute$' && echo "$d"; done | head -n 1)
[ -n "$lib" ] || { echo "SKIP: no libbpf >= 1.8 in $CACHE (scripts/build-libbpf.sh LIBBPF_GIT master)"; exit 77; }
[ -r "$V" ] || { echo "SKIP: no $V"; exit 77; }
[ -f "$B/libbtf.a" ] || { echo "FAIL: $B/libbtf.a not built"; exit 1; }
san=()
[ "${SAN:-}" = 1 ] && san=("-fsanitize=address,undefined") # libbtf.a of the SAN=1 build
gcc "${san[@]}" -O2 -Wall -Ilibbtf/include -I"$lib/include" tests/parse/sorted_ref.c -o "$T/ref" \
	"$B/libbtf.a" "$lib/lib/libbpf.a" -ldw -lelf -lcjson -lz -lpthread ||
	{ echo "FAIL: cannot build tests/parse/sorted_ref.c against $lib"; exit 1; }
"$T/ref" "$V" || fail=1
[ $fail = 0 ] && echo "PASS: sorted BTF found by binary search, as libbpf 1.8"
exit $fail
