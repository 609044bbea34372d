#!/bin/bash
# Typedef dedup as libbpf 1.8's btf__dedup (issue 32): recursive typedef
# definitions (Go's `type Foo func() Foo`; libbpf 37027144, the kernel
# selftests' "dedup: recursive typedef" and "dedup: typedef") and split
# BTF whose typedefs the base defines (5b0f3729): tests/build/
# dedup_typedef_ref.c dedups each case with both libraries and compares
# the types and strings byte for byte. Needs libbpf >= 1.8 from
# scripts/build-libbpf.sh's cache (else SKIP).
. "$(dirname "$0")/../lib.sh"
need_libbpf18
build_libbpf18_prog tests/build/dedup_typedef_ref.c "$T/ref" libbtf
"$T/ref" || fail=1
[ $fail = 0 ] && echo "PASS: typedef dedup as libbpf 1.8 ($LIBBPF18)"
exit $fail
