#!/bin/bash
# Dedup byte for byte as libbpf 1.8's btf__dedup (issue 32): tests/build/
# dedup_libbpf18_ref.c dedups the same raw BTF with both libraries and
# compares the types and strings they write, on
#  - the scenarios of the kernel selftests' dedup tests (and split BTF,
#    recursive typedefs, typedefs with base definitions);
#  - the running kernel's BTF three times over (/sys/kernel/btf/vmlinux);
#  - the raw (undeduplicated) BTF btfgen makes of the Debian vmlinux that
#    bench/ caches (bench/bench_dedup.sh's input; else that part skipped).
# Needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache (else SKIP).
. "$(dirname "$0")/../lib.sh"
need_libbpf18
build_libbpf18_prog tests/build/dedup_libbpf18_ref.c "$T/ref" libbtf
"$T/ref" || fail=1
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$T/ref" /sys/kernel/btf/vmlinux 3 || fail=1
else
	echo "no /sys/kernel/btf/vmlinux: the kernel's BTF part skipped"
fi
vml=$(ls "${CACHE:-/var/cache/btf-bench}"/vmlinux-* 2>/dev/null | head -1)
if [ -z "$vml" ]; then
	echo "no cached vmlinux (bench/lib.sh fetch_vmlinux): the raw vmlinux part skipped"
elif "$B/btfgen" -j2 --features default,-dedup -o "$T/raw.btf" "$vml"; then
	"$T/ref" "$T/raw.btf" || fail=1
else
	bad "btfgen could not make the raw BTF of $vml"
fi
[ $fail = 0 ] && echo "PASS: dedup as libbpf 1.8 ($LIBBPF18)"
exit $fail
