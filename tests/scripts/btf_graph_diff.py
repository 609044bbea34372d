#!/usr/bin/env python3
"""Compare two BTF type graphs by canonical form, not by id.

    btf_graph_diff.py A.json B.json [--show N]
    btf_graph_diff.py --repeats BASE.json SPLIT.json... [--show N]

A.json and B.json are `bpftool -j btf dump file X` (or `btfdump -j file X`)
outputs; split BTF dumped over one base (`--base`) compares as split BTF:
a reference to a base type is equal to the same id's on the other side. Two types are equal when they are bisimilar: the same kind, name,
size, encoding, members (names, offsets, bitfield sizes), counts, linkage
and values, and their referenced types are equal in turn, cycles included.
The classes come from partition refinement over both graphs at once: each
round a type's class is its own fields plus the classes of what it refers
to, until the number of classes stops growing.

Prints one line per kind: how many types of A have no equal in B, how many
of B none in A, and how many classes hold a different number of types on
each side (duplicates one encoder keeps and the other merges); then up to N
examples of each. Exit 0 when every type of A has exactly one equal in B and
the other way round, 1 otherwise, 2 on unreadable input.

With --repeats, each SPLIT.json is split BTF dumped over BASE (`--base`):
it lists the split types that have an equal type in the base (a module
that repeats what its base already describes) and exits 1 if there are
any. The base is refined once with all the splits.
"""
import collections
import json
import sys


def local_fields(t):
    """The type's own fields (no references), and the ids it refers to, in order"""
    k = t["kind"]
    own = [k, t.get("name", "(anon)")]
    refs = []
    for key in ("size", "encoding", "bits_offset", "nr_bits", "nr_elems", "linkage",
                "fwd_kind", "component_idx", "vlen"):
        if key in t:
            own.append((key, t[key]))
    if "type_id" in t:
        refs.append(t["type_id"])
    if "ret_type_id" in t:
        refs.append(t["ret_type_id"])
    if "index_type_id" in t:
        refs.append(t["index_type_id"])
    for m in t.get("members", ()):
        own.append(("m", m.get("name"), m.get("bits_offset"), m.get("bitfield_size")))
        refs.append(m["type_id"])
    for p in t.get("params", ()):
        own.append(("p", p.get("name")))
        refs.append(p["type_id"])
    for v in t.get("values", ()):
        own.append(("v", v.get("name"), v.get("val")))
    for v in t.get("vars", ()):
        own.append(("var", v.get("offset"), v.get("size")))
        refs.append(v["type_id"])
    return tuple(own), refs


def load(path, tag, nbase=0):
    """The types of path as nodes (tag, id); ids up to nbase are the base's ("A")"""
    try:
        with open(path) as f:
            types = json.load(f)["types"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit("btf_graph_diff: %s: %s" % (path, e))
    nodes = {}
    for t in types:
        own, refs = local_fields(t)
        nodes[(tag, t["id"])] = (own, [None if not r else ("A", r) if r <= nbase else (tag, r)
                                       for r in refs], t)
    return nodes


def ref_class(cls, ref):
    """void, a type of the graph, or one of the base (by its id)"""
    if not ref:
        return 0
    return cls[ref] if ref in cls else hash(("base", ref[1]))


def refine(nodes):
    cls = {n: hash(v[0]) for n, v in nodes.items()}
    count = len(set(cls.values()))
    while True:
        nxt = {n: hash((v[0], tuple(ref_class(cls, r) for r in v[1])))
               for n, v in nodes.items()}
        c = len(set(nxt.values()))
        cls = nxt
        if c == count:
            return cls
        count = c


def describe(node):
    t = node[2]
    return "[%d] %s '%s'" % (t["id"], t["kind"], t.get("name", "(anon)"))


def repeats(base_path, split_paths, show):
    nodes = load(base_path, "A")
    nbase = len(nodes)
    for i, path in enumerate(split_paths):
        nodes.update(load(path, "S%d" % i, nbase))
    cls = refine(nodes)
    in_base = {c for n, c in cls.items() if n[0] == "A"}
    bad = 0
    for i, path in enumerate(split_paths):
        mine = [n for n in cls if n[0] == "S%d" % i]
        rep = sorted(n for n in mine if cls[n] in in_base)
        for n in rep[:show]:
            print("    repeated: %s" % describe(nodes[n]))
        print("%s: split types: %d, repeating a base type: %d" % (path, len(mine), len(rep)))
        bad += len(rep)
    return 1 if bad else 0


def main():
    args = sys.argv[1:]
    show = 5
    if "--show" in args:
        i = args.index("--show")
        show = int(args[i + 1])
        del args[i:i + 2]
    if args[:1] == ["--repeats"] and len(args) >= 3:
        return repeats(args[1], args[2:], show)
    if len(args) != 2:
        sys.exit("usage: btf_graph_diff.py A.json B.json | --repeats BASE.json SPLIT.json... [--show N]")
    nodes = load(args[0], "A")
    nodes.update(load(args[1], "B"))
    cls = refine(nodes)
    members = collections.defaultdict(lambda: ([], []))
    for n, c in cls.items():
        members[c][0 if n[0] == "A" else 1].append(n)
    only_a, only_b, uneven = collections.Counter(), collections.Counter(), collections.Counter()
    ex = collections.defaultdict(list)
    for a, b in members.values():
        kind = nodes[(a or b)[0]][2]["kind"]
        if not b:
            only_a[kind] += len(a)
            ex["A", kind].append(describe(nodes[a[0]]))
        elif not a:
            only_b[kind] += len(b)
            ex["B", kind].append(describe(nodes[b[0]]))
        elif len(a) != len(b):
            uneven[kind] += 1
            ex["=", kind].append("%s x%d vs %s x%d" % (describe(nodes[a[0]]), len(a),
                                                     describe(nodes[b[0]]), len(b)))
    kinds = sorted(set(only_a) | set(only_b) | set(uneven))
    for k in kinds:
        print("%-10s only in A: %6d  only in B: %6d  classes of unequal count: %d"
              % (k, only_a[k], only_b[k], uneven[k]))
        for side in ("A", "B", "="):
            for e in ex[side, k][:show]:
                print("    %s %s" % (side, e))
    total = sum(only_a.values()) + sum(only_b.values()) + sum(uneven.values())
    print("types only in A: %d, only in B: %d, classes of unequal count: %d"
          % (sum(only_a.values()), sum(only_b.values()), sum(uneven.values())))
    return 0 if total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
