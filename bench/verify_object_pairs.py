#!/usr/bin/env python3
"""verify_object_pairs.py B RUNS PEER... -- CORPUS... -- GATE...: btfcheck's
object mode against each peer's open + BTF load (PEER is NAME=PATH, the
first is the main one), fresh processes, alternating, medians of paired
ratios, as table rows (bench/run.sh's "| what | ours | peer | ratio | notes |"):
  - per object: `btfcheck OBJ` / `peer OBJ`, one command each, CORPUS objects;
  - its floors against the main peer: a program doing nothing linked like
    btfcheck ($B/bench/hello), the same with static glibc
    ($B/bench/hello-glibc), and a process that only exits
    ($B/bench/exit_only, no libc);
  - the corpus in one command: `btfcheck CORPUS...` / `peer CORPUS...`;
  - the gate: `btfcheck GATE...` / `peer GATE...`, every BPF object the
    build and its tests make, in one command each (how a CI runs it).
CPU is user+sys of the child (wait4), page faults its minor faults.
Both commands must give the same exit status (0: all load, 1: one refused),
or they did not do the same job. Used by bench/bench_verify.sh."""
import os, statistics, subprocess, sys, time

b, runs = sys.argv[1], int(sys.argv[2])
rest = sys.argv[3:]
i = rest.index("--")
j = rest.index("--", i + 1)
peers = [p.split("=", 1) for p in rest[:i]]
corpus, gate = rest[i + 1:j], rest[j + 1:]
med = statistics.median
load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])

def run(argv):
    """wall ns, CPU ns, minor faults, exit status of one fresh process"""
    t = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter_ns() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("bench_verify: %s failed (exit %d)" % (argv, code))
    return wall, (ru.ru_utime + ru.ru_stime) * 1e9, ru.ru_minflt, code

def measure(pairs_of, same_verdict):
    """RUNS rounds over the (ours, theirs) command pairs pairs_of gives,
    alternating which goes first; per-pair ratios and per-command figures"""
    r = {"wall": [], "cpu": [], "o": [], "t": []}
    for k in range(runs):
        for ours, theirs in pairs_of:
            order = [("o", ours), ("t", theirs)]
            if (k + len(r["wall"])) % 2:
                order.reverse()
            res = {name: run(argv) for name, argv in order}
            if same_verdict and res["o"][3] != res["t"][3]:
                sys.exit("bench_verify: %s exits %d, %s exits %d" %
                         (ours, res["o"][3], theirs, res["t"][3]))
            r["wall"].append(res["o"][0] / res["t"][0])
            if res["t"][1]:
                r["cpu"].append(res["o"][1] / res["t"][1])
            r["o"].append(res["o"]); r["t"].append(res["t"])
    return r

def fig(xs, col, scale):
    return med(x[col] for x in xs) / scale

def row(what, r, notes):
    """one table row; times in ms (medians), ratios medians of the pairs"""
    cpu = med(r["cpu"]) if r["cpu"] else float("nan")
    print("| %s | %.3f ms CPU (%.3f wall) | %.3f ms CPU (%.3f wall) | %.2fx CPU, %.2fx wall | %s |" %
          (what, fig(r["o"], 1, 1e6), fig(r["o"], 0, 1e6), fig(r["t"], 1, 1e6),
           fig(r["t"], 0, 1e6), cpu, med(r["wall"]), notes), flush=True)
    return cpu

def spread(r):
    """the middle half of the paired CPU ratios (how far a pair strays from
    the median on a machine whose speed changes from minute to minute)"""
    if len(r["cpu"]) < 4:
        return "CPU ratios %s" % ", ".join("%.2f" % x for x in r["cpu"])
    q = statistics.quantiles(r["cpu"], n=4)
    return "CPU ratios' middle half %.2f-%.2f" % (q[0], q[2])

def faults(r):
    return "page faults %d / %d" % (fig(r["o"], 2, 1), fig(r["t"], 2, 1))

btfcheck = b + "/btfcheck"
libc = "musl" if b"x86_64-linux-musl" in open(btfcheck, "rb").read() else "glibc"
for n, (name, peer) in enumerate(peers):
    start = load()
    method = "%d alternating rounds, medians of paired ratios, fresh processes" % runs
    per = measure([([btfcheck, o], [peer, o]) for o in corpus], True)
    cpu_per = row("object mode vs %s open + BTF load, per object: `btfcheck OBJ` / `%s OBJ`, "
                  "%d corpus objects, one command each" % (name, os.path.basename(peer), len(corpus)),
                  per, "%s; btfcheck static with %s; %s; load %s" % (method, libc, faults(per), start))
    if n == 0:
        floors = [("a program doing nothing linked like btfcheck (static, %s)" % libc, b + "/bench/hello"),
                  ("the same with static glibc", b + "/bench/hello-glibc"),
                  ("a process that only exits (no libc: exec, first faults, exit)", b + "/bench/exit_only")]
        for what, prog in floors:
            fl = measure([([prog], [peer, o]) for o in corpus], False)
            fcpu = fig(fl["o"], 1, 1)
            row("floor of the per-object row: %s / `%s OBJ`" % (what, os.path.basename(peer)), fl,
                "%s; btfcheck OBJ is %.1fx this floor's CPU; %s" %
                (method, fig(per["o"], 1, 1) / fcpu if fcpu else float("nan"), faults(fl)))
    one = measure([([btfcheck] + corpus, [peer] + corpus)], True)
    row("object mode vs %s, the corpus in one command: `btfcheck OBJ...` / `%s OBJ...`, %d objects"
        % (name, os.path.basename(peer), len(corpus)), one, "%s; %s" % (method, faults(one)))
    g = measure([([btfcheck] + gate, [peer] + gate)], True)
    row("object mode vs %s, the gate: every BPF object the build and its tests make (%d, %d KB) "
        "in one command each" % (name, len(gate), sum(os.path.getsize(o) for o in gate) // 1024),
        g, "%s; %s; %s; load %s -> %s" % (method, spread(g), faults(g), start, load()))
