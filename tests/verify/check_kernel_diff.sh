#!/bin/bash
# Differential test of lbtf_verify() against the running kernel's
# BPF_BTF_LOAD: >= 20,000 generated blobs from a fixed seed, plus the real
# vmlinux BTF, the project's BPF objects and btfgen's BTF of a project
# binary, mutated. Verdict, errno, log text and true size must agree.
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the differential kernel test needs root (BPF_BTF_LOAD)"
	exit 77
fi
objs=()
for f in "$B"/bpf/*.o; do
	[ -f "$f" ] && objs+=("$f")
done
if [ -x "$B/btfgen" ] && "$B/btfgen" -o "$T/btfcheck.btf" "$B/btfcheck" >/dev/null 2>&1; then
	objs+=("$T/btfcheck.btf")
fi
"$B/tests/verify/diff_kernel" -s 0x5eed0b7f -n 20000 -m 40 "${objs[@]}"
