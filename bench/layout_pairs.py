#!/usr/bin/env python3
"""layout_pairs.py B RUNS TMP SIZE: parse, dump and verify of a vmlinux BTF
with and without a layout section, fresh processes, alternating, medians
of paired ratios.

Used by bench/bench_layout.sh."""
import os, statistics, subprocess, sys, time
b, runs, t, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])

def run(argv):
    start = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench_layout: %s failed" % argv)
    return time.perf_counter_ns() - start, (ru.ru_utime + ru.ru_stime) * 1e9

jobs = [("parse (lbtf_open)", [b + "/bench/btf_parse"]),
        ("dump (btfdump file, raw)", [b + "/btfdump", "file"]),
        ("verify (btfcheck --target-kernel 7.1)", [b + "/btfcheck", "--quiet", "--target-kernel", "7.1"])]
def instructions(argv):
    """callgrind's instruction count of one run, or None without valgrind"""
    try:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        return None
    for line in p.stderr.splitlines():
        if "Collected" in line or "refs:" in line:
            return int(line.split()[-1].replace(",", ""))
    return None

med = statistics.median
for title, cmd in jobs:
    rw, rc, lw, pw = [], [], [], []
    for i in range(runs):
        order = ["layout", "plain"] if i % 2 == 0 else ["plain", "layout"]
        res = {f: run(cmd + ["%s/%s.btf" % (t, f)]) for f in order}
        (wl, cl), (wp, cp) = res["layout"], res["plain"]
        rw.append(wl / wp)
        if cp:
            rc.append(cl / cp)
        lw.append(wl); pw.append(wp)
    il, ip = (instructions(cmd + ["%s/%s.btf" % (t, f)]) for f in ("layout", "plain"))
    ins = ("; instructions %.4fx (%d vs %d, callgrind)" % (il / ip, il, ip)) if il and ip else ""
    print("| layout section: %s of vmlinux BTF (%d MB), with / without | %.1f ms | %.1f ms "
          "| wall %.2fx, CPU %.2fx%s | %d alternating pairs, fresh processes, medians of paired ratios |" %
          (title, size >> 20, med(lw) / 1e6, med(pw) / 1e6, med(rw),
           med(rc) if rc else float("nan"), ins, runs))
