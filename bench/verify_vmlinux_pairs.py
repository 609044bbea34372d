#!/usr/bin/env python3
"""verify_vmlinux_pairs.py B RUNS FILE: btfcheck on the vmlinux BTF FILE (levels 0
and 1) against the kernel's BPF_BTF_LOAD of it, with the floor row (a walk
of every type, bench/btf_walk); fresh processes, alternating, medians of
paired ratios, CPU beside wall.

Used by bench/bench_verify.sh."""
import os, statistics, subprocess, sys, time
b, runs, f = sys.argv[1], int(sys.argv[2]), sys.argv[3]
med = statistics.median

def run(argv):
    """wall ns, CPU ns, and the number the command prints (btf_load: the syscall's ns)"""
    t = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter_ns() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1) or not out.strip():
        sys.exit("bench_verify: %s failed" % argv)
    word = out.split()[0]
    return wall, (ru.ru_utime + ru.ru_stime) * 1e9, int(word) if word.isdigit() else 0

print("fresh processes, %d alternating rounds, %s (%d bytes), load average %s" %
      (runs, f, os.path.getsize(f), " ".join(open("/proc/loadavg").read().split()[:3])))
cmds = {"check0": [b + "/btfcheck", "--quiet", f], "check1": [b + "/btfcheck", "--log-level", "1", f],
        "walk": [b + "/bench/btf_walk", f],
        "kernel0": [b + "/bench/btf_load", f, "0"], "kernel1": [b + "/bench/btf_load", f, "1"]}
res = {k: [] for k in cmds}
for i in range(runs):
    order = list(cmds) if i % 2 == 0 else list(reversed(cmds))
    for k in order:
        res[k].append(run(cmds[k]))

def ratio(a, b, col):
    return med([x[col] / y[col] for x, y in zip(res[a], res[b])])

for level in (0, 1):
    c, k = "check%d" % level, "kernel%d" % level
    print("  level %d: btfcheck %.1f ms wall, %.1f ms CPU; kernel command %.1f ms CPU, its syscall "
          "%.1f ms (medians); btfcheck/kernel command: wall %.2fx, CPU %.2fx; btfcheck "
          "command/syscall alone %.2fx" %
          (level, med(x[0] for x in res[c]) / 1e6, med(x[1] for x in res[c]) / 1e6,
           med(x[1] for x in res[k]) / 1e6, med(x[2] for x in res[k]) / 1e6,
           ratio(c, k, 0), ratio(c, k, 1), med([x[0] / y[2] for x, y in zip(res[c], res[k])])))

def spread(k):
    """10th percentile, median, 90th percentile of a command's CPU, ms"""
    v = sorted(x[1] / 1e6 for x in res[k])
    return v[len(v) // 10], med(v), v[len(v) * 9 // 10]

# the kernel's command moves with the machine (28-46 ms across sessions):
# its spread and the load at the end say how steady this run was
print("  CPU spread (10th percentile / median / 90th): btfcheck level 0 %.1f / %.1f / %.1f ms, "
      "kernel command level 0 %.1f / %.1f / %.1f ms; load average at the end %s" %
      (spread("check0") + spread("kernel0") + (" ".join(open("/proc/loadavg").read().split()[:3]),)))
print("  floor (btf_walk: map, walk the types, read the strings): %.1f ms CPU; floor/kernel "
      "command level 0: wall %.2fx, CPU %.2fx; btfcheck level 0 is %.1fx the floor (CPU)" %
      (med(x[1] for x in res["walk"]) / 1e6, ratio("walk", "kernel0", 0), ratio("walk", "kernel0", 1),
       ratio("check0", "walk", 1)))
