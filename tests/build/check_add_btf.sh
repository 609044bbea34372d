#!/bin/bash
# Appending split BTF (issue 32; libbpf ddb0c14f): lbtf_builder_add_btf
# against libbpf 1.8's btf__add_btf (tests/build/add_btf_ref.c): two
# modules split over one base and a base-less BTF appended to a split BTF
# over that base give the same type ids and the same types and strings
# bytes; split BTF over another base is EOPNOTSUPP in both. Needs libbpf
# >= 1.8 from scripts/build-libbpf.sh's cache (else SKIP).
. "$(dirname "$0")/../lib.sh"
need_libbpf18 btf__add_btf
build_libbpf18_prog tests/build/add_btf_ref.c "$T/ref" libbtf
"$T/ref" || fail=1
[ $fail = 0 ] && echo "PASS: split BTF appended as libbpf 1.8's btf__add_btf"
exit $fail
