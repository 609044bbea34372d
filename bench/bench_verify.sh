#!/bin/bash
# btfcheck against the kernel's BPF_BTF_LOAD, timed as users run them:
# first row pair, fresh processes, cold buffers, alternating, 21 pairs: the
# `btfcheck FILE` command (level 0, and --log-level 1 with the log to
# /dev/null) vs a command that reads the same bytes and BPF_BTF_LOAD's them
# (bench/btf_load.c, level 0 and 1): medians of the paired ratios, wall and
# CPU (user+sys of the child), and vs the syscall's own time; object mode on
# the corpus vs libbpf's open + BTF load (bench/libbpf_btf_load.c), the whole
# corpus in one command and one command per object. Second, the
# in-process warm loop (bench/verify_bench.c) on /sys/kernel/btf/vmlinux and
# on the largest BTF btfgen produces here (a cached DWARF vmlinux, if any).
B=${B:-build}
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
RUNS=${RUNS:-21}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ "$(id -u)" != 0 ]; then
	echo "bench_verify: needs root (BPF_BTF_LOAD)" >&2
	exit 1
fi
python3 - "$B" "$RUNS" /sys/kernel/btf/vmlinux <<'PY'
import os, statistics, subprocess, sys, time
b, runs, f = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def run(argv):
    t = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE if argv[0].endswith("btf_load") else subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter_ns() - t
    out = p.stdout.read() if p.stdout else b""
    if os.waitstatus_to_exitcode(status) not in (0, 1) or (p.stdout and not out.strip()):
        sys.exit("bench_verify: %s failed" % argv)
    return wall, (ru.ru_utime + ru.ru_stime) * 1e9, int(out) if out.strip() else 0

print("fresh processes, %d alternating pairs, %s (%d bytes)" % (runs, f, os.path.getsize(f)))
for level in (0, 1):
    ours = [b + "/btfcheck", "--quiet", f] if level == 0 else [b + "/btfcheck", "--log-level", "1", f]
    theirs = [b + "/bench/btf_load", f, str(level)]
    rw, rc, rs, ow, kw = [], [], [], [], []
    for i in range(runs):
        pair = [ours, theirs] if i % 2 == 0 else [theirs, ours]
        res = {}
        for argv in pair:
            res[argv is ours] = run(argv)
        (w1, c1, _), (w2, c2, s2) = res[True], res[False]
        rw.append(w1 / w2); rc.append(c1 / c2 if c2 else float("nan")); rs.append(w1 / s2)
        ow.append(w1); kw.append(s2)
    med = statistics.median
    print("  level %d: btfcheck %.1f ms, kernel syscall %.1f ms (medians); btfcheck/kernel "
          "command: wall %.2fx, CPU %.2fx; btfcheck command/syscall alone %.2fx" %
          (level, med(ow) / 1e6, med(kw) / 1e6, med(rw), med(rc), med(rs)))
PY
# object mode vs libbpf's open + BTF load (bench/libbpf_btf_load.c), fresh
# processes, alternating: the corpus in one command each (`btfcheck OBJ...`,
# what a CI gate runs), then one command per object; the last row is the
# floor of the per-object row: a static "hello world" (bench/hello.c, built
# like btfcheck) against the same peer, i.e. starting a process at all.
python3 - "$B" "$RUNS" "$B"/corpus/*.bpf.o "$B/corpus/link.o" <<'PY'
import os, statistics, subprocess, sys, time
b, runs, objs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
peer = b + "/bench/libbpf_btf_load"

def run(argv):
    t = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("bench_verify: %s failed (exit %d)" % (argv, code))
    return time.perf_counter_ns() - t, (ru.ru_utime + ru.ru_stime) * 1e9, code

def pairs(ours, theirs, rw, rc, ow, tw):
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
    ow.append(res["ours"][0]); tw.append(res["theirs"][0])

med = statistics.median
rows = [("corpus, one command each: btfcheck OBJ... / libbpf_btf_load OBJ...",
         lambda: [([b + "/btfcheck"] + objs, [peer] + objs)]),
        ("per object, one command each: btfcheck OBJ / libbpf_btf_load OBJ",
         lambda: [([b + "/btfcheck", o], [peer, o]) for o in objs]),
        ("floor of the per-object row: static hello world / libbpf_btf_load OBJ",
         lambda: [([b + "/bench/hello"], [peer, o]) for o in objs])]
print("object mode, %d corpus objects, %d alternating rounds (medians of paired ratios):" %
      (len(objs), runs))
for title, cmds in rows:
    rw, rc, ow, tw = [], [], [], []
    for i in range(runs):
        for ours, theirs in cmds():
            pairs(ours, theirs, rw, rc, ow, tw)
    print("  %s: wall %.2fx, CPU %.2fx (%.2f / %.2f ms)" %
          (title, med(rw), med(rc) if rc else float("nan"), med(ow) / 1e6, med(tw) / 1e6))
PY
files=(/sys/kernel/btf/vmlinux)
dbg=$(find "$CACHE" -maxdepth 1 -name 'vmlinux-*' -printf '%s %p\n' 2>/dev/null | sort -rn | head -n 1 | cut -d' ' -f2-)
if [ -n "$dbg" ] && [ -x "$B/btfgen" ] && "$B/btfgen" -o "$T/btfgen-vmlinux.btf" "$dbg" >/dev/null 2>&1; then
	files+=("$T/btfgen-vmlinux.btf")
else
	echo "bench_verify: no btfgen output of a DWARF vmlinux (cache $CACHE), kernel's own BTF only" >&2
fi
echo "in-process warm loop (second row):"
exec "$B/bench/verify_bench" -n 21 "${files[@]}"
