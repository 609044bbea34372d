#!/usr/bin/env python3
"""verify_object_pairs.py B RUNS NPEERS PEER... OBJ...: btfcheck's object mode
against each peer's open + BTF load (NAME=PATH), the corpus in one command
and one command per object, with a static hello world as the floor row;
fresh processes, alternating, medians of paired ratios.

Used by bench/bench_verify.sh."""
import os, statistics, subprocess, sys, time
b, runs, npeers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
peers = [p.split("=", 1) for p in sys.argv[4:4 + npeers]]
objs = sys.argv[4 + npeers:]

def run(argv):
    t = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("bench_verify: %s failed (exit %d)" % (argv, code))
    return time.perf_counter_ns() - t, (ru.ru_utime + ru.ru_stime) * 1e9, code

def pairs(ours, theirs, rw, rc, oc, tc):
    """one alternating pair per call: ratios appended per pair; both
    commands must give the same verdict (exit 0: all load, 1: one refused),
    or they did not do the same job"""
    order = [("ours", ours), ("theirs", theirs)]
    if len(rw) % 2:
        order.reverse()
    res = {name: run(argv) for name, argv in order}
    if ours[0].endswith("/btfcheck") and res["ours"][2] != res["theirs"][2]:
        sys.exit("bench_verify: %s exits %d, %s exits %d" %
                 (ours, res["ours"][2], theirs, res["theirs"][2]))
    rw.append(res["ours"][0] / res["theirs"][0])
    if res["theirs"][1]:
        rc.append(res["ours"][1] / res["theirs"][1])
    oc.append(res["ours"][1]); tc.append(res["theirs"][1])

med = statistics.median
for name, peer in peers:
    rows = [("corpus, one command each: btfcheck OBJ... / peer OBJ...",
             lambda: [([b + "/btfcheck"] + objs, [peer] + objs)]),
            ("per object, one command each: btfcheck OBJ / peer OBJ",
             lambda: [([b + "/btfcheck", o], [peer, o]) for o in objs]),
            ("floor of the per-object row: static hello world / peer OBJ",
             lambda: [([b + "/bench/hello"], [peer, o]) for o in objs])]
    print("object mode vs %s's open + BTF load (%s), %d corpus objects, %d alternating rounds "
          "(medians of paired ratios), load average %s:" %
          (name, os.path.basename(peer), len(objs), runs,
           " ".join(open("/proc/loadavg").read().split()[:3])))
    for title, cmds in rows:
        rw, rc, oc, tc = [], [], [], []
        for i in range(runs):
            for ours, theirs in cmds():
                pairs(ours, theirs, rw, rc, oc, tc)
        print("  %s: wall %.2fx, CPU %.2fx (CPU %.2f / %.2f ms)" %
              (title, med(rw), med(rc) if rc else float("nan"), med(oc) / 1e6, med(tc) / 1e6))
