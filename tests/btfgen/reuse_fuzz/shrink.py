#!/usr/bin/env python3
"""shrink.py SRCDIR OUTDIR [PATTERN]: minimise a differing program (units,
compilers, lines, members) by delta debugging. Predicate: run_one.sh exits 1
and its result matches PATTERN (default 'DIFF'; MOREON/LESSON: reuse gives
more/fewer types)."""
import sys, os, subprocess, shutil, glob, re

src, out = sys.argv[1], sys.argv[2]
pat = sys.argv[3] if len(sys.argv) > 3 else "DIFF"
cc = open(os.path.join(src, "cc")).read().split()
units = []
for f in sorted(glob.glob(os.path.join(src, "u*.c"))):
    units.append([l for l in open(f).read().split("\n") if l.strip()])
tries = 0

def test(us, ccs):
    global tries
    tries += 1
    d = out + ".try"
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for i, u in enumerate(us):
        open(os.path.join(d, "u%02d.c" % i), "w").write("\n".join(u) + "\n")
    open(os.path.join(d, "cc"), "w").write("\n".join(ccs) + "\n")
    rc = subprocess.call([os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_one.sh"), d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if rc != 1:
        return False
    res = open(os.path.join(d, "result")).read()
    if pat == "MOREON":
        m = re.search(r"count (\d+) off vs (\d+) on", res)
        return m is not None and int(m.group(2)) > int(m.group(1))
    if pat == "LESSON":
        m = re.search(r"count (\d+) off vs (\d+) on", res)
        return m is not None and int(m.group(2)) < int(m.group(1))
    return re.search(pat, res) is not None

def save(us, ccs):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for i, u in enumerate(us):
        open(os.path.join(out, "u%02d.c" % i), "w").write("\n".join(u) + "\n")
    open(os.path.join(out, "cc"), "w").write("\n".join(ccs) + "\n")

assert test(units, cc), "original does not reproduce"

def split_members(line):
    """'kind name { a; b; };' -> (head, [members], tail) at top level, or None"""
    o = line.find("{")
    if o < 0:
        return None
    depth = 0; mem = []; cur = ""; i = o + 1
    while i < len(line):
        ch = line[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                if cur.strip():
                    mem.append(cur.strip())
                return line[:o + 1], mem, line[i:]
            depth -= 1
        cur += ch
        if ch == ";" and depth == 0:
            mem.append(cur.strip()); cur = ""
        i += 1
    return None

changed = True
while changed:
    changed = False
    # drop units
    i = 0
    while len(units) > 1 and i < len(units):
        nu = units[:i] + units[i + 1:]; nc = cc[:i] + cc[i + 1:]
        if test(nu, nc):
            units, cc = nu, nc; changed = True; save(units, cc)
        else:
            i += 1
    # compilers: prefer gcc0
    for i in range(len(cc)):
        if cc[i] != "gcc0":
            nc = cc[:]; nc[i] = "gcc0"
            if test(units, nc):
                cc = nc; changed = True; save(units, cc)
    # drop lines
    for ui in range(len(units)):
        j = 0
        while j < len(units[ui]):
            nu = [u[:] for u in units]; del nu[ui][j]
            if test(nu, cc):
                units = nu; changed = True; save(units, cc)
            else:
                j += 1
    # drop members
    for ui in range(len(units)):
        for j in range(len(units[ui])):
            k = 0
            while True:
                sp = split_members(units[ui][j])
                if not sp or k >= len(sp[1]):
                    break
                head, mem, tail = sp
                if len(mem) <= 1 and not head.startswith("enum"):
                    pass
                nm = mem[:k] + mem[k + 1:]
                if head.strip().startswith("enum"):
                    line = head + " " + ", ".join(m.rstrip(",") for m in nm) + " " + tail
                else:
                    line = head + " " + " ".join(nm) + " " + tail
                nu = [u[:] for u in units]; nu[ui][j] = line
                if nm and test(nu, cc):
                    units = nu; changed = True; save(units, cc)
                else:
                    k += 1
save(units, cc)
print("tries", tries, "units", len(units))
for i, u in enumerate(units):
    print("--- u%02d.c (%s)" % (i, cc[i]))
    print("\n".join(u))
