#!/bin/bash
# lbtf_builder_dedup vs libbpf's btf__dedup on the same raw (not deduplicated) BTF.
# The peer is libbpf 1.8 (master, from scripts/build-libbpf.sh's cache), with
# Debian's libbpf 1.1 as a second row when its driver is built. One run per
# fresh process (bench/dedup_bench.c), RUNS (default 5) pairs alternating ours
# and the peer; each figure is the median of the pairs' ratios (the medians
# of the figures beside it).
# Two jobs are measured in each run:
#  - "dedup call": btf__dedup vs lbtf_builder_dedup alone, CPU time and the
#    memory the call takes (its peak RSS above the RSS it starts with). Not
#    the same work: libbpf deduplicates the strings inside btf__dedup, libbtf's
#    builder interns them as types are added (in the copy below);
#  - "raw -> deduplicated": the whole job from a raw blob in memory to the
#    deduplicated blob (btf__new + btf__dedup + btf__raw_data; a builder
#    taking the malloc'ed blob over, lbtf_builder_adopt_raw, then
#    lbtf_builder_dedup + lbtf_builder_serialize): the fair comparison. Its memory: the peak RSS
#    of the process minus the RSS just before the run, with the program and
#    the raw input already in memory (the same for both); the whole peak RSS
#    beside it.
# The outputs' types and strings are compared byte for byte once per input
# (the header differs: libbpf 1.8 writes 32 bytes). Inputs:
#  - the Debian vmlinux's raw BTF from btfgen --features default,-dedup
#    (only when the vmlinux cache of bench/ exists);
#  - /sys/kernel/btf/vmlinux 30 times over (3.8M types, always).
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
RUNS=${RUNS:-5}
drv11=$B/bench/dedup_bench
note() { echo "bench_dedup: $*" >&2; }
if [ ! -f "$B/obj/libbtf-internal.a" ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "SKIP: needs $B/obj/libbtf-internal.a (make) and /sys/kernel/btf/vmlinux" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source bench/lib.sh # median

# The driver built against libbpf 1.8 (the first libbpf of the cache with
# btf__new_empty_opts, new in 1.8), or none
lb18=
for d in "${CACHE:-/var/cache/btf-bench}"/libbpf-*/; do
	nm "$d/lib/libbpf.a" 2>/dev/null | grep -q " T btf__new_empty_opts\$" && { lb18=$d; break; }
done
drv18=
if [ -z "$lb18" ]; then
	note "no libbpf 1.8 in ${CACHE:-/var/cache/btf-bench} (scripts/build-libbpf.sh LIBBPF_GIT master): libbpf 1.8 rows skipped"
elif ${CC:-gcc} -O2 -D_GNU_SOURCE -I"$lb18/include" -Ilibbtf/include -Ilibbtf -I"$B/gen" \
	bench/dedup_bench.c -o "$tmp/dedup_bench18" "$B/obj/libbtf-internal.a" \
	"$lb18/lib/libbpf.a" -ldw -lelf -lz -lpthread; then
	drv18=$tmp/dedup_bench18
else
	echo "| dedup | failed | | | cannot build bench/dedup_bench.c against $lb18 |"
	exit 1
fi
[ -x "$drv11" ] || { note "no $drv11 (make bench): libbpf 1.1 rows skipped"; drv11=; }
[ -n "$drv18$drv11" ] || exit 0
drv=${drv18:-$drv11}

# pairs DRV LABEL RAW: RUNS alternating runs of ours and DRV's libbpf, one
# line each into $tmp/ours and $tmp/peer ("wall cpu types peak_kb input_kb
# dedup_wall dedup_cpu dedup_kb": bench/dedup_bench.c)
pairs() {
	local i
	: >"$tmp/ours"; : >"$tmp/peer"
	for ((i = 0; i < RUNS; i++)); do
		"$1" ours "$3" >>"$tmp/ours" && "$1" libbpf "$3" >>"$tmp/peer" ||
			{ echo "| dedup $2 | failed | | | see bench_dedup's output above |"; return 1; }
	done
}

# row LABEL PEER WHAT UNIT SCALE EXPR NOTE: one figure of the pairs, EXPR an
# awk expression over v[1]..v[8], the fields of a run's line
row() {
	local o p r get='function fig(k,  i) { for (i = 1; i <= 8; i++) v[i] = $(i + k); return '"$6"' }'
	o=$(awk "$get { print fig(0) / $5 }" "$tmp/ours" | median)
	p=$(awk "$get { print fig(0) / $5 }" "$tmp/peer" | median)
	r=$(paste -d' ' "$tmp/ours" "$tmp/peer" | awk "$get { print fig(0) / fig(8) }" | median)
	printf '| dedup %s: %s | %.3f %s | %.3f %s | %.2f | %s btf__dedup, median of %d paired ratios (medians of the figures beside it); %s |\n' \
		"$1" "$3" "$o" "$4" "$p" "$4" "$r" "$2" "$RUNS" "$7"
}

bench_one() { # label raw-file
	local label=$1 raw=$2 types same
	if [ -n "$drv18" ]; then
		"$drv18" ours "$raw" "$tmp/out.ours" >/dev/null && "$drv18" libbpf "$raw" "$tmp/out.peer" >/dev/null ||
			{ echo "| dedup $label | failed | | | see bench_dedup's output above |"; return 1; }
		same=identical
		cmp -s "$tmp/out.ours" "$tmp/out.peer" || same=DIFFERENT
		pairs "$drv18" "$label" "$raw" || return 1
		types=$(awk 'NR == 1 { print $3 }' "$tmp/ours")
		row "$label" "libbpf 1.8" "dedup call CPU" s 1 'v[7]' "$types types out; libbpf dedups strings in the call, libbtf in the copy"
		row "$label" "libbpf 1.8" "dedup call memory" MB 1024 'v[8]' "peak RSS during the call above its RSS at the start"
		row "$label" "libbpf 1.8" "raw -> deduplicated CPU" s 1 'v[2]' "the whole job; types and strings $same"
		row "$label" "libbpf 1.8" "raw -> deduplicated wall" s 1 'v[1]' "the whole job"
		row "$label" "libbpf 1.8" "raw -> deduplicated memory" MB 1024 'v[4] - v[5]' "peak RSS minus the RSS with the raw input loaded"
		row "$label" "libbpf 1.8" "peak RSS" MB 1024 'v[4]' "whole process, raw input included for both"
		[ "$same" = identical ] || return 1
	fi
	if [ -n "$drv11" ]; then
		pairs "$drv11" "$label" "$raw" || return 1
		row "$label" "libbpf 1.1 (Debian)" "dedup call CPU" s 1 'v[7]' "second peer"
		row "$label" "libbpf 1.1 (Debian)" "raw -> deduplicated CPU" s 1 'v[2]' "second peer"
		row "$label" "libbpf 1.1 (Debian)" "raw -> deduplicated memory" MB 1024 'v[4] - v[5]' "peak RSS minus the RSS with the raw input loaded"
	fi
}

rc=0
vml=$(ls /var/cache/btf-bench/vmlinux-* 2>/dev/null | head -1)
if [ -n "$vml" ] && [ -x "$B/btfgen" ] &&
	"$B/btfgen" -j2 --features default,-dedup -o "$tmp/raw.btf" "$vml" 2>/dev/null; then
	note "raw BTF of $vml: $(stat -c %s "$tmp/raw.btf") bytes"
	bench_one "raw $(basename "$vml") BTF" "$tmp/raw.btf" || rc=1
	rm -f "$tmp/raw.btf"
else
	note "no raw vmlinux BTF (needs /var/cache/btf-bench/vmlinux-* and btfgen); skipped"
fi
"$drv" copies /sys/kernel/btf/vmlinux 30 "$tmp/x30.btf" || exit 1
bench_one "sysfs vmlinux x30" "$tmp/x30.btf" || rc=1
exit $rc
