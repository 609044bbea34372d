#!/usr/bin/env python3
"""array_spelling.py CLANG_DUMP PAHOLE_DUMP: the arrays of the two styles
spelled as each style spells them (index type, nesting).

Used by tests/btfgen/check_base_arrays.sh."""
import re, sys
def types(path):
    return {int(m.group(1)): m.group(2) for m in
            (re.match(r"\[(\d+)\] (.*)", l) for l in open(path)) if m}
def arrays(ts):
    return [re.search(r"type_id=(\d+) index_type_id=(\d+) nr_elems=(\d+)", t).groups()
            for t in ts.values() if t.startswith("ARRAY")]
bad = []
clang, pahole = types(sys.argv[1]), types(sys.argv[2])
ca, pa = arrays(clang), arrays(pahole)
if not any(clang[int(e)].startswith("ARRAY") for e, _, _ in ca):
    bad.append("clang style: no ARRAY of ARRAY (long grid[4][8])")
if any(pahole[int(e)].startswith("ARRAY") for e, _, _ in pa):
    bad.append("pahole style: an ARRAY of ARRAY")
if not {"32", "30", "4"} <= {n for _, _, n in pa}:
    bad.append("pahole style: grid[4][8], name[2][3][5], q[2][2] not flattened to 32, 30, 4: %s"
               % sorted({n for _, _, n in pa}))
if any(not pahole[int(i)].startswith("INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED")
       for _, i, _ in pa):
    bad.append("pahole style: an index type that is not the signed int")
funcs = [t for t in pahole.values() if t.startswith("FUNC '")]
if not funcs or any("linkage=static" not in t for t in funcs):
    bad.append("pahole style: a FUNC that is not static: %s" % funcs)
if not any("linkage=global" in t for t in clang.values() if t.startswith("FUNC '")):
    bad.append("clang style: no global FUNC")
def datasec_size(ts, path):
    ids = [i for i, t in ts.items() if t.startswith("DATASEC '.data..percpu'")]
    if not ids:
        return None, None
    lines = open(path).read().split("\n")
    at = next(n for n, l in enumerate(lines) if l.startswith("[%d] " % ids[0]))
    ends = [int(m.group(1)) + int(m.group(2)) for l in lines[at + 1:]
            for m in [re.search(r"offset=(\d+) size=(\d+)", l)] if m and l.startswith("\t")]
    return int(re.search(r"size=(\d+)", ts[ids[0]]).group(1)), max(ends, default=0)
psz, pend = datasec_size(pahole, sys.argv[2])
csz, _ = datasec_size(clang, sys.argv[1])
if psz is None or psz != pend or csz != pend + 16:
    bad.append("DATASEC .data..percpu: pahole style %s (its last variable ends at %s), "
               "clang style %s (the section's 16 bytes more)" % (psz, pend, csz))
if not any(t.startswith("STRUCT 'inner'") for t in pahole.values()):
    bad.append("pahole style: the block-scoped struct inner is missing")
if any(t.startswith("STRUCT 'inner'") for t in clang.values()):
    bad.append("clang style: the block-scoped struct inner is present")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
