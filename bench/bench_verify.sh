#!/bin/bash
# btfcheck's verifier vs the kernel's BPF_BTF_LOAD (log level 0 and 1) and
# vs libbpf's btf__new, on /sys/kernel/btf/vmlinux and on the largest BTF
# btfgen produces here (the Debian vmlinux with DWARF cached by
# bench_btfgen.sh, if present), same bytes, alternating, 21 runs each.
B=${B:-build}
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
files=(/sys/kernel/btf/vmlinux)
dbg=$(ls -S "$CACHE"/vmlinux-* 2>/dev/null | head -n 1)
if [ -n "$dbg" ] && [ -x "$B/btfgen" ] && "$B/btfgen" -o "$T/btfgen-vmlinux.btf" "$dbg" >/dev/null 2>&1; then
	files+=("$T/btfgen-vmlinux.btf")
else
	echo "bench_verify: no btfgen output of a DWARF vmlinux (cache $CACHE), kernel's own BTF only" >&2
fi
[ "$(id -u)" = 0 ] || echo "bench_verify: not root, kernel rows need BPF_BTF_LOAD" >&2
exec "$B/bench/verify_bench" -n 21 "${files[@]}"
