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
python3 - "$B" "$RUNS" "$OBJ" "$V" "$N" "$T" "$OBJS" "$BPFTOOL" <<'PY'
import os, statistics, subprocess, sys, time
b, runs, obj, v, n, t, objs, bpftool = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
objs = objs.split()
med = statistics.median

def run(argv):
    """wall ms, CPU ms of one fresh process"""
    s = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = (time.perf_counter_ns() - s) / 1e6
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit("bench_core: %s failed" % argv)
    return wall, (ru.ru_utime + ru.ru_stime) * 1e3

def pair(a, c):
    """a and c alternating, RUNS pairs; each side a list of commands whose
    times add up to one sample"""
    ra, rc = [], []
    for i in range(runs):
        for cmds, out in ((a, ra), (c, rc)) if i % 2 == 0 else ((c, rc), (a, ra)):
            w = [run(x) for x in cmds]
            out.append((sum(x[0] for x in w), sum(x[1] for x in w)))
    return (med(x[0] for x in ra), med(x[1] for x in ra), med(x[0] for x in rc),
            med(x[1] for x in rc), med(x[0] / y[0] for x, y in zip(ra, rc)),
            med(x[1] / max(y[1], 1e-3) for x, y in zip(ra, rc)))

def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])

def row(what, a, c, extra=lambda: ""):
    l0 = load()
    wa, ca, wc, cc, rw, rcpu = pair(a, c)
    print("| %s | %.1f ms (CPU %.1f) | %.1f ms (CPU %.1f) | wall %.2fx, CPU %.2fx%s | "
          "medians of %d alternating pairs; load %s -> %s |"
          % (what, wa, ca, wc, cc, rw, rcpu, extra(), runs, l0, load()), flush=True)

check = lambda x: [b + "/btfcheck", "--quiet", "--target-btf", x, obj]
row("btfcheck --target-btf vs libbpf 1.8 open+relocate: %s (%s relocations), running vmlinux"
    % (os.path.basename(obj), n), [check(v)], [[t + "/core_libbpf", obj, v, n]])
targets = [t + "/t%d.btf" % i for i in range(1, 6)]
many = [b + "/btfcheck", "--quiet"] + sum((["--target-btf", x] for x in targets), []) + [obj]
row("btfcheck: 5 vmlinux targets in one command vs 5 commands of one", [many],
    [check(x) for x in targets])
mine, theirs = t + "/min.btf", t + "/bpftool.btf"
row("btfgen --min-core vs bpftool v7.8 gen min_core_btf: %d objects, running vmlinux" % len(objs),
    [[b + "/btfgen", "--min-core", "--target-btf", v, "-o", mine] + objs],
    [[bpftool, "gen", "min_core_btf", v, theirs] + objs],
    lambda: ", bytes %d/%d" % (os.path.getsize(mine), os.path.getsize(theirs)))
PY
