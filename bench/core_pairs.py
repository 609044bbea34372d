#!/usr/bin/env python3
"""core_pairs.py B RUNS OBJ VMLINUX N TMP OBJS BPFTOOL: btfcheck --target-btf
against libbpf 1.8's open + relocation, N targets in one command against N
commands, and btfgen --min-core against bpftool gen min_core_btf; fresh
processes, alternating, medians of paired ratios.

Used by bench/bench_core.sh."""
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
