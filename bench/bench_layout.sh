#!/bin/bash
# What a layout section costs (issue 32): the kernel's vmlinux BTF as it is
# (24-byte header) and the same types and strings with a layout section
# (32-byte header; types, layout of the 20 kinds, strings, as libbpf 1.8
# and pahole master write it), each parsed (bench/btf_parse: lbtf_open),
# dumped (btfdump file F, raw, to /dev/null) and verified (btfcheck
# --target-kernel 7.1, the rules that accept the section, for both). Fresh
# processes, RUNS alternating pairs (the first of each pair alternates),
# wall and CPU (user+sys of the child); the row gives the medians of the
# paired ratios with/without (1.00x: no cost) and the median times, and,
# with valgrind installed, the instructions each executes (callgrind,
# independent of the machine's load).
B=${B:-build}
RUNS=${RUNS:-21}
V=${BENCH_VMLINUX_BTF:-/sys/kernel/btf/vmlinux}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -r "$V" ] || { echo "bench_layout: no $V" >&2; exit 1; }
cp "$V" "$T/plain.btf" || exit 1
python3 - "$T/plain.btf" "$T/layout.btf" <<'PY' || { echo "bench_layout: cannot add a layout" >&2; exit 1; }
import struct, sys
d = open(sys.argv[1], "rb").read()
magic, ver, flags, hl, to, tl, so, sl = struct.unpack_from("<HBBIIIII", d)
types, strs = d[hl + to:hl + to + tl], d[hl + so:hl + so + sl]
# info_sz, elem_sz of kinds 0..19 (ENUM64), flags 0
sizes = [(0, 0), (4, 0), (0, 0), (12, 0), (0, 12), (0, 12), (0, 8), (0, 0), (0, 0), (0, 0),
         (0, 0), (0, 0), (0, 0), (0, 8), (4, 0), (0, 12), (0, 0), (4, 0), (0, 0), (0, 12)]
lay = b"".join(struct.pack("<BBH", i, e, 0) for i, e in sizes)
hdr = struct.pack("<HBBIIIIIII", magic, ver, flags, 32, 0, len(types),
                  len(types) + len(lay), len(strs), len(types), len(lay))
open(sys.argv[2], "wb").write(hdr + types + lay + strs)
PY
# the same job on both: the same dump, the same verdict
"$B/btfdump" file "$T/plain.btf" >"$T/plain.raw" && "$B/btfdump" file "$T/layout.btf" >"$T/layout.raw" &&
	cmp -s "$T/plain.raw" "$T/layout.raw" || { echo "bench_layout: the two dumps differ" >&2; exit 1; }
for f in plain layout; do
	"$B/btfcheck" --quiet --target-kernel 7.1 "$T/$f.btf" >/dev/null ||
		{ echo "bench_layout: btfcheck refuses $f.btf" >&2; exit 1; }
done
python3 - "$B" "$RUNS" "$T" "$(stat -c %s "$V")" <<'PY'
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
PY
