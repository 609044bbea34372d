#!/bin/bash
# What a layout section costs (issue 32): the kernel's vmlinux BTF as it is
# (24-byte header) and the same types and strings with a layout section
# (32-byte header; types, layout of the 20 kinds, strings, as libbpf 1.8
# and pahole master write it), each parsed (bench/btf_parse: lbtf_open),
# dumped (btfdump file F, raw, to /dev/null) and verified (btfcheck
# --target-kernel 7.1, the rules that accept the section, for both). Fresh
# processes, RUNS alternating pairs (the first of each pair alternates),
# wall and CPU (user+sys of the child); the row gives the medians of the
# paired ratios with/without (1.00x: no cost) and the median times, and,
# with valgrind installed, the instructions each executes (callgrind,
# independent of the machine's load).
B=${B:-build}
RUNS=${RUNS:-21}
V=${BENCH_VMLINUX_BTF:-/sys/kernel/btf/vmlinux}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -r "$V" ] || { echo "bench_layout: no $V" >&2; exit 1; }
cp "$V" "$T/plain.btf" || exit 1
python3 bench/add_layout.py "$T/plain.btf" "$T/layout.btf" || { echo "bench_layout: cannot add a layout" >&2; exit 1; }
# the same job on both: the same dump, the same verdict
"$B/btfdump" file "$T/plain.btf" >"$T/plain.raw" && "$B/btfdump" file "$T/layout.btf" >"$T/layout.raw" &&
	cmp -s "$T/plain.raw" "$T/layout.raw" || { echo "bench_layout: the two dumps differ" >&2; exit 1; }
for f in plain layout; do
	"$B/btfcheck" --quiet --target-kernel 7.1 "$T/$f.btf" >/dev/null ||
		{ echo "bench_layout: btfcheck refuses $f.btf" >&2; exit 1; }
done
python3 bench/layout_pairs.py "$B" "$RUNS" "$T" "$(stat -c %s "$V")"
