#!/bin/bash
# btfcheck against the kernel's BPF_BTF_LOAD and libbpf, timed as users run
# them: fresh processes, cold buffers, alternating, RUNS (21) rounds,
# medians of the paired ratios, CPU time (user+sys of the child, the steadier
# figure on a shared machine) beside wall time, the load average beside.
#  1. The `btfcheck FILE` command on /sys/kernel/btf/vmlinux (level 0, and
#     --log-level 1 with the log to /dev/null) vs a command that reads the
#     same bytes and BPF_BTF_LOAD's them (bench/btf_load.c, level 0 and 1),
#     and vs the syscall's own time. The floor row: bench/btf_walk.c, linked
#     like btfcheck, maps the file, walks every type once and reads every
#     string once, nothing more: btfcheck is also given as a multiple of it.
#  2. Object mode vs libbpf's open + BTF load (bench/libbpf_btf_load.c):
#     libbpf 1.8 (scripts/build-libbpf.sh's cache, linked statically into
#     the peer) and Debian's libbpf; the corpus in one command, one command
#     per object, and the floor of the latter (a static program doing
#     nothing, bench/hello.c: starting a process at all).
#  3. The in-process warm loop (bench/verify_bench.c) on the kernel's BTF
#     and on the largest BTF btfgen produces here (a cached DWARF vmlinux).
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
print("  floor (btf_walk: map, walk the types, read the strings): %.1f ms CPU; floor/kernel "
      "command level 0: wall %.2fx, CPU %.2fx; btfcheck level 0 is %.1fx the floor (CPU)" %
      (med(x[1] for x in res["walk"]) / 1e6, ratio("walk", "kernel0", 0), ratio("walk", "kernel0", 1),
       ratio("check0", "walk", 1)))
PY
# libbpf 1.8 from scripts/build-libbpf.sh's cache (the first whose libbpf.a
# has btf__new_empty_opts, new in 1.8): the peer of object mode, built here
peers=()
for d in "$CACHE"/libbpf-*/; do
	if nm "$d/lib/libbpf.a" 2>/dev/null | grep -q ' T btf__new_empty_opts$' &&
		gcc -O2 -I"$d/include" -o "$T/libbpf18_btf_load" bench/libbpf_btf_load.c \
			"$d/lib/libbpf.a" -lelf -lz 2>"$T/cc.log"; then
		peers+=("libbpf 1.8=$T/libbpf18_btf_load")
		break
	fi
done
[ ${#peers[@]} -gt 0 ] ||
	echo "bench_verify: no libbpf 1.8 in $CACHE (scripts/build-libbpf.sh LIBBPF_GIT master): Debian's libbpf only" >&2
peers+=("Debian's libbpf $(dpkg-query -W -f '${Version}' libbpf1 2>/dev/null || echo '(version unknown)')=$B/bench/libbpf_btf_load")
# object mode vs each peer, fresh processes, alternating: the corpus in one
# command each (`btfcheck OBJ...`, what a CI gate runs), then one command per
# object; the last row is the floor of the per-object row: a static "hello
# world" against the same peer, i.e. starting a process at all.
python3 - "$B" "$RUNS" "${#peers[@]}" "${peers[@]}" "$B"/corpus/*.bpf.o "$B/corpus/link.o" <<'PY'
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
PY
files=(/sys/kernel/btf/vmlinux)
dbg=$(find "$CACHE" -maxdepth 1 -name 'vmlinux-*' -printf '%s %p\n' 2>/dev/null | sort -rn | head -n 1 | cut -d' ' -f2-)
if [ -n "$dbg" ] && [ -x "$B/btfgen" ] && "$B/btfgen" -o "$T/btfgen-vmlinux.btf" "$dbg" >/dev/null 2>&1; then
	files+=("$T/btfgen-vmlinux.btf")
else
	echo "bench_verify: no btfgen output of a DWARF vmlinux (cache $CACHE), kernel's own BTF only" >&2
fi
echo "in-process warm loop:"
exec "$B/bench/verify_bench" -n 21 "${files[@]}"
