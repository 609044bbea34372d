#!/bin/bash
# btfcheck --min-kernel and --target-kernel: the oldest kernel for the BTF
# of tests/verify/kinds.bpf.c (every kind libbpf sanitizes, and a bitfield),
# of corpus objects and of raw blobs with the layouts older kernels refused; and libbpf's sanitization for older kernels against
# libbpf itself: libbpf_btf with LIBBPF_BTF_TARGET makes BPF_BTF_LOAD refuse
# what that kernel would not take (its feature probes included), and the
# BTF libbpf then submits must be byte-identical to btfcheck's object mode
# for the same --target-kernel, with the same verdict.
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: libbpf's reference load needs root (BPF_BTF_LOAD)"
	exit 77
fi
REF=$B/tests/verify/libbpf_btf BC=$B/btfcheck

k=$T/kinds.bpf.o
bpf_cc -g -O2 "${BPF_INC[@]}" -c tests/verify/kinds.bpf.c -o "$k" ||
	{ echo "FAIL: clang-16 cannot build kinds.bpf.c"; exit 1; }

"$BC" --min-kernel --json "$k" >"$T/out" 2>/dev/null || bad "kinds.bpf.o rejected: $(cat "$T/out")"
python3 tests/verify/min_kernel_kinds.py "$T/out" || fail=1
"$BC" --min-kernel "$B/corpus/maps_tc.bpf.o" >"$T/err" 2>/dev/null
grep -q "min-kernel: 5.6 (FUNC linkage global, type \[[0-9]*\]); with libbpf's sanitization: 4.18 (BTF)" "$T/err" ||
	bad "maps_tc min-kernel: $(cat "$T/err")"
# the running kernel loads its own BTF: it is not older than what that needs
v=$("$BC" --min-kernel --json /sys/kernel/btf/vmlinux 2>/dev/null | sed 's/.*"min_kernel":{"version":"\([0-9.]*\)".*/\1/')
IFS=. read -r a b _ <<<"$(uname -r)"
IFS=. read -r c d <<<"$v"
[ -n "$c" ] && [ $((a * 256 + b)) -ge $((c * 256 + d)) ] || bad "vmlinux needs $v, running $(uname -r)"

# layouts (not kinds) that older kernels refused, one raw blob each; every
# blob is valid here (exit 0), the version is the release that first took it
python3 tests/verify/min_kernel_layouts.py "$T"
mk() { # blob, want (version, why, why_type_id, with_libbpf), btfcheck options
	local out
	out=$("$BC" --min-kernel --json "${@:6}" "$T/$1.btf" 2>/dev/null) || { bad "$1: not valid: $out"; return; }
	python3 tests/verify/min_kernel_want.py "$out" "$1" "$2" "$3" "$4" "$5" || fail=1
}
mk enum1 5.4 "ENUM of size 1, 2 or 8" 2 5.4
mk enum8 5.4 "ENUM of size 1, 2 or 8" 2 5.4
mk enum4 4.18 BTF 0 4.18
mk datasec0 5.12 "DATASEC without entries (vlen 0)" 2 5.12
mk types65535 4.18 BTF 0 4.18
mk types65536 5.4 "more than 65535 types" 65536 5.4
mk str64k 4.18 BTF 0 4.18
mk str64k1 5.4 "string section over 64 KiB" 0 5.4
mk split_ptr 5.11 "split BTF: module BTF" 0 5.11 --base "$T/enum4.btf"
mk split_float 5.13 FLOAT 4 5.13 --base "$T/enum4.btf"
"$BC" --min-kernel --json --base "$T/enum4.btf" "$T/split_float.btf" 2>/dev/null |
	grep -q '"libbpf_sanitizes":\[\]' || bad "split BTF: libbpf sanitizes nothing of it"

"$BC" --json --target-kernel 5.16 "$k" >"$T/out" 2>/dev/null
grep -q '"fixups":\["datasec_size","sanitize"\],"sanitized":\["type_tag","enum64"\],"valid":true' "$T/out" ||
	bad "--target-kernel 5.16: $(cat "$T/out")"
"$BC" --json --target-kernel 6.1 "$k" >"$T/out" 2>/dev/null
grep -q '"fixups":\["datasec_size"\],"sanitized":\[\],"valid":true' "$T/out" || bad "--target-kernel 6.1: $(cat "$T/out")"
"$BC" --target-kernel 5 "$k" 2>/dev/null; [ $? = 2 ] || bad "--target-kernel 5 is not a usage error"

n=0
for f in "$k" "$B/corpus/maps_tc.bpf.o" "$B/corpus/ringbuf_kfunc.bpf.o" "$B/corpus/core_task.bpf.o"; do
	for v in 5.1 5.5 5.12 5.16 5.17; do
		ref=$(LIBBPF_BTF_TARGET=$v "$REF" "$f" | tr '\n' '|')
		"$BC" --target-kernel "$v" "$f" >/dev/null 2>&1; rc=$?
		[ "$ref" = "btf ok|bytes same|" ] && [ $rc = 0 ] || bad "$f for $v: libbpf: $ref btfcheck exit $rc"
		n=$((n + 1))
	done
done
echo "sanitized like libbpf in $n object/kernel pairs"
exit $fail
