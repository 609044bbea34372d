#!/bin/bash
# lbtf_builder_dedup vs libbpf's btf__dedup on the same raw (not deduplicated) BTF,
# raw blob in memory -> deduplicated blob: wall time, CPU time and peak RSS
# (of the whole process, which holds the raw blob in both cases), median
# of RUNS (default 3) alternating runs. Inputs:
#  - the Debian vmlinux's raw BTF from btfgen --features default,-dedup
#    (3.7M types; only when the vmlinux cache of bench/ exists);
#  - /sys/kernel/btf/vmlinux 30 times over (3.8M types, always).
cd "$(dirname "$0")/.."
B=${B:-build}
RUNS=${RUNS:-3}
drv=$B/bench/dedup_bench
if [ ! -x "$drv" ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "SKIP: needs $drv and /sys/kernel/btf/vmlinux" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source bench/lib.sh # median

bench_one() { # label raw-file
	local label=$1 raw=$2 i who
	for who in ours libbpf; do : >"$tmp/$who"; done
	for ((i = 0; i < RUNS; i++)); do
		for who in ours libbpf; do
			"$drv" $who "$raw" >>"$tmp/$who" || { echo "| $label | failed ($who) | | | |"; return; }
		done
	done
	local types_o types_l
	types_o=$(awk 'NR==1{print $3}' "$tmp/ours")
	types_l=$(awk 'NR==1{print $3}' "$tmp/libbpf")
	local col name unit scale
	for col in 1:wall:s:1 2:CPU:s:1 4:peak_RSS:MB:1024; do
		IFS=: read -r n name unit scale <<<"$col"
		local o l
		o=$(awk -v n="$n" -v s="$scale" '{ print $n / s }' "$tmp/ours" | median)
		l=$(awk -v n="$n" -v s="$scale" '{ print $n / s }' "$tmp/libbpf" | median)
		printf '| dedup %s: %s | %.2f %s | %.2f %s | %.2f | libbpf btf__dedup; %s types out (libbpf %s), median of %d |\n' \
			"$label" "$name" "$o" "$unit" "$l" "$unit" "$(awk -v a="$o" -v b="$l" 'BEGIN { print a / b }')" \
			"$types_o" "$types_l" "$RUNS"
	done
}

vml=$(ls /var/cache/btf-bench/vmlinux-* 2>/dev/null | head -1)
if [ -n "$vml" ] && [ -x "$B/btfgen" ] &&
	"$B/btfgen" -j2 --features default,-dedup -o "$tmp/raw.btf" "$vml" 2>/dev/null; then
	n=$(stat -c %s "$tmp/raw.btf")
	echo "raw BTF of $vml: $n bytes" >&2
	bench_one "raw $(basename "$vml") BTF" "$tmp/raw.btf"
	rm -f "$tmp/raw.btf"
else
	echo "no raw vmlinux BTF (needs /var/cache/btf-bench/vmlinux-* and btfgen); skipped" >&2
fi
"$drv" copies /sys/kernel/btf/vmlinux 30 "$tmp/x30.btf" || exit 1
bench_one "sysfs vmlinux x30" "$tmp/x30.btf"
