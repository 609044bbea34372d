#!/bin/bash
# CO-RE across kernels (issue 31's figures): fresh processes, alternating
# with the peer (ours first on even runs, the peer first on odd ones), RUNS
# pairs; per pair the ratio of wall times and the ratio of CPU times
# (user + sys of the child, from wait4), their medians reported beside the
# median times, with the load average before and after the row:
#  1. `btfcheck --quiet --target-btf TARGET OBJ` against libbpf 1.8's open +
#     CO-RE relocation of OBJ with that btf_custom_path (bench/core_libbpf.c,
#     linked here with libbpf 1.8 built from source: scripts/build-libbpf.sh's
#     cache; it ends as soon as libbpf decided the last relocation), on the
#     running kernel's vmlinux BTF, for the corpus' CO-RE object;
#  2. 5 targets (copies of vmlinux' BTF, each read and searched anew) in one
#     btfcheck command against 5 commands of one target, each sample the sum
#     of the 5 (N targets must cost less than N times one);
#  3. `btfgen --min-core` against the newest bpftool's `gen min_core_btf`
#     (/var/cache/btf-bench/bpftool-newest, scripts/build-bpftool.sh) for the
#     corpus and tests/relo objects on vmlinux: time and output bytes.
# shellcheck source=../tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
RUNS=${RUNS:-15}
if [ "$(id -u)" != 0 ]; then
	echo "bench_core: needs root (libbpf's load probes the kernel)" >&2
	exit 1
fi
BPFTOOL=${BPFTOOL:-${BTF_BENCH_CACHE:-/var/cache/btf-bench}/bpftool-newest/bpftool}
OBJ=$B/corpus/core_task.bpf.o
V=/sys/kernel/btf/vmlinux
for f in "$OBJ" "$B/btfcheck" "$B/btfgen" "$B/relo/cases.bpf.o" "$BPFTOOL"; do
	[ -e "$f" ] || { echo "bench_core: $f missing (make bench; scripts/build-bpftool.sh)" >&2; exit 1; }
done
need_libbpf18 >&2
build_libbpf18_prog bench/core_libbpf.c "$T/core_libbpf" >&2
N=$("$B/btfcheck" --json --target-btf "$V" "$OBJ" | jq 'select(.relocated) | .relocated + .poisoned')
for i in 1 2 3 4 5; do cp "$V" "$T/t$i.btf"; done
OBJS="$B/relo/cases.bpf.o $B/relo/externs.bpf.o $OBJ"
python3 bench/core_pairs.py "$B" "$RUNS" "$OBJ" "$V" "$N" "$T" "$OBJS" "$BPFTOOL"
