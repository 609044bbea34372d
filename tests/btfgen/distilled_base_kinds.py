#!/usr/bin/env python3
"""distilled_base_kinds.py DISTILLED_DUMP BASE_DUMP: the distilled base has
only the kinds it may have, no members, and the base's sizes.

Used by tests/btfgen/check_pahole_distilled.sh."""
import re, sys
def types(path):
    out = []
    for line in open(path):
        m = re.match(r"\[(\d+)\] (\w+) '([^']*)'(.*)", line)
        if m:
            out.append((m.group(2), m.group(3), m.group(4)))
    return out
dist, base = types(sys.argv[1]), types(sys.argv[2])
size = lambda rest: re.search(r"size=(\d+)", rest).group(1) if "size=" in rest else None
vlen = lambda rest: re.search(r"vlen=(\d+)", rest).group(1) if "vlen=" in rest else "0"
names = {(k, n): size(r) for k, n, r in base}
ok = True
for kind, name, rest in dist:
    if kind not in ("INT", "FLOAT", "FWD", "STRUCT", "UNION", "ENUM"):
        print("FAIL: .BTF.base has a %s" % kind); ok = False
    if kind in ("STRUCT", "UNION", "ENUM"):
        if not name or vlen(rest) != "0":
            print("FAIL: .BTF.base %s '%s' is anonymous or has members" % (kind, name)); ok = False
        want = names.get((kind, name)) or names.get(("ENUM64", name))
        if want != size(rest):
            print("FAIL: .BTF.base %s '%s' size %s, the base's %s" % (kind, name, size(rest), want))
            ok = False
got = {(k, n) for k, n, _ in dist}
for need in [("STRUCT", "device"), ("STRUCT", "list_head"), ("UNION", "key"), ("ENUM", "state")]:
    if need not in got:
        print("FAIL: .BTF.base lacks %s %s" % need); ok = False
if ("STRUCT", "") in got or any(k == "TYPEDEF" for k, _ in got):
    print("FAIL: .BTF.base holds anonymous or reference types"); ok = False
sys.exit(0 if ok else 1)
