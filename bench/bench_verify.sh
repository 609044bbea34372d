#!/bin/bash
# btfcheck's verifier vs the kernel's BPF_BTF_LOAD (log level 0 and 1) and
# vs libbpf's btf__new, on /sys/kernel/btf/vmlinux and the largest BTF
# btfgen produced in this build, same bytes, alternating, 21 runs each.
B=${B:-build}
files=(/sys/kernel/btf/vmlinux)
big=$(ls -S "$B"/bench/*.btf "$B"/tests/*/*.btf 2>/dev/null | head -n 1)
[ -n "$big" ] && files+=("$big")
if [ "$(id -u)" != 0 ]; then
	echo "(not root: the kernel rows need BPF_BTF_LOAD)" >&2
fi
exec "$B/bench/verify_bench" -n 21 "${files[@]}"
