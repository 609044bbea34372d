#!/bin/bash
# CO-RE across kernels (issue 31's figures), fresh processes, alternating,
# medians of RUNS pairs (wall, and CPU: user+sys of the child):
#  1. `btfcheck --quiet --target-btf TARGET OBJ` against libbpf's open +
#     CO-RE relocation of OBJ with that btf_custom_path (bench/core_libbpf.c,
#     which ends as soon as libbpf decided the last relocation), on the
#     running kernel's vmlinux BTF, for the corpus' CO-RE object;
#  2. N targets in one btfcheck command against N commands of one target;
#  3. `btfgen --min-core` against `bpftool gen min_core_btf` for the corpus
#     and tests/relo objects on vmlinux: time and output bytes.
B=${B:-build}
RUNS=${RUNS:-15}
if [ "$(id -u)" != 0 ]; then
	echo "bench_core: needs root (libbpf's load probes the kernel)" >&2
	exit 1
fi
OBJ=$B/corpus/core_task.bpf.o
V=/sys/kernel/btf/vmlinux
for f in "$OBJ" "$B/bench/core_libbpf" "$B/btfcheck" "$B/btfgen" "$B/relo/cases.bpf.o"; do
	[ -e "$f" ] || { echo "bench_core: $f missing (make bench)" >&2; exit 1; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=$("$B/btfcheck" --json --target-btf "$V" "$OBJ" | jq 'select(.relocated) | .relocated + .poisoned')
# targets for row 2: copies of vmlinux' BTF (each read and searched anew)
for i in 1 2 3 4 5; do cp "$V" "$T/t$i.btf"; done
OBJS="$B/relo/cases.bpf.o $B/relo/externs.bpf.o $OBJ"
python3 - "$B" "$RUNS" "$OBJ" "$V" "$N" "$T" "$OBJS" <<'PY'
import os, statistics, subprocess, sys, time
b, runs, obj, v, n, t, objs = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
objs = objs.split()

cpu = {}
def run(argv):
    s = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit("bench_core: %s failed" % argv)
    cpu.setdefault(tuple(argv), []).append((ru.ru_utime + ru.ru_stime) * 1e3)
    return time.perf_counter_ns() - s

def pair(a, c):
    """medians: wall ms of a, of c, of the paired ratios; CPU ratio of the medians"""
    ra, rc = [], []
    for i in range(runs):
        for which in ((a, ra), (c, rc)) if i % 2 == 0 else ((c, rc), (a, ra)):
            which[1].append(run(which[0]))
    med = statistics.median
    return (med(ra) / 1e6, med(rc) / 1e6, med([x / y for x, y in zip(ra, rc)]),
            med(cpu[tuple(a)]) / med(cpu[tuple(c)]))

o, p, r, c = pair([b + "/btfcheck", "--quiet", "--target-btf", v, obj],
                  [b + "/bench/core_libbpf", obj, v, n])
print("1. one object (%s, %s relocations), one vmlinux target: btfcheck %.1f ms, libbpf open+relocate %.1f ms: wall %.2fx, CPU %.2fx"
      % (os.path.basename(obj), n, o, p, r, c))
targets = [t + "/t%d.btf" % i for i in range(1, 6)]
many = [b + "/btfcheck", "--quiet"] + sum((["--target-btf", x] for x in targets), []) + [obj]
ra, r1 = [], []
for i in range(runs):
    ra.append(run(many))
    r1.append(sum(run([b + "/btfcheck", "--quiet", "--target-btf", x, obj]) for x in targets))
med = statistics.median
print("2. 5 targets in one command %.1f ms, 5 commands of one %.1f ms: %.2fx"
      % (med(ra) / 1e6, med(r1) / 1e6, med(ra) / med(r1)))
o, p, r, c = pair([b + "/btfgen", "--min-core", "--target-btf", v, "-o", t + "/min.btf"] + objs,
                  ["bpftool", "gen", "min_core_btf", v, t + "/bpftool.btf"] + objs)
print("3. minimal BTF of vmlinux for %d objects: btfgen --min-core %.1f ms, bpftool gen min_core_btf %.1f ms: wall %.2fx, CPU %.2fx; %d bytes vs %d"
      % (len(objs), o, p, r, c, os.path.getsize(t + "/min.btf"), os.path.getsize(t + "/bpftool.btf")))
PY
