#!/bin/bash
# Typedef dedup as libbpf 1.8's btf__dedup (issue 32): recursive typedef
# definitions (Go's `type Foo func() Foo`; libbpf 37027144, the kernel
# selftests' "dedup: recursive typedef" and "dedup: typedef") and split
# BTF whose typedefs the base defines (5b0f3729): tests/build/
# dedup_typedef_ref.c dedups each case with both libraries and compares
# the types and strings byte for byte. Needs libbpf >= 1.8 from
# scripts/build-libbpf.sh's cache (else SKIP).
. "$(dirname "$0")/../lib.sh"
CACHE=${LIBBPF_CACHE:-/var/cache/btf-bench}
lib=$(for d in "$CACHE"/libbpf-*/; do
	nm "$d/lib/libbpf.a" 2>/dev/null | grep -q ' T btf__new_empty_opts$' && echo "$d"; done | head -n 1)
[ -n "$lib" ] || { echo "SKIP: no libbpf >= 1.8 in $CACHE (scripts/build-libbpf.sh LIBBPF_GIT master)"; exit 77; }
[ -f "$B/libbtf.a" ] || { echo "FAIL: $B/libbtf.a not built"; exit 1; }
san=()
[ "${SAN:-}" = 1 ] && san=("-fsanitize=address,undefined") # libbtf.a of the SAN=1 build
gcc "${san[@]}" -O1 -Wall -Ilibbtf/include -I"$lib/include" tests/build/dedup_typedef_ref.c -o "$T/ref" \
	"$B/libbtf.a" "$lib/lib/libbpf.a" -ldw -lelf -lcjson -lz -lpthread ||
	{ echo "FAIL: cannot build tests/build/dedup_typedef_ref.c against $lib"; exit 1; }
"$T/ref" || fail=1
[ $fail = 0 ] && echo "PASS: typedef dedup as libbpf 1.8 ($lib)"
exit $fail
