#!/usr/bin/env python3
"""Random multi-unit C program generator for btfgen's reuse on/off
differential tests (run_one.sh compares the two conversions).
usage: gen.py SEED OUTDIR  -> writes uNN.c files and a 'cc' file with one
compiler word per unit (run_one.sh lists them). Environment: STRICT,
STRICT2 (more units, mixed compilers, more declared-only names), NOFWD
(no declarations)."""
import random, sys, os

seed = int(sys.argv[1]); out = sys.argv[2]
R = random.Random(seed)
os.makedirs(out, exist_ok=True)

BASE = ["int", "char", "long", "unsigned short", "unsigned int", "float", "double",
        "_Bool", "long long", "unsigned char", "signed char", "unsigned long",
        "__int128", "long double", "_Complex double", "_Atomic int", "unsigned __int128"]

nstruct = R.randint(1, 7)
nunion = R.randint(0, 3)
nenum = R.randint(0, 3)
ntd = R.randint(0, 4)
# global order of named types: (kind, name)
types = [("struct", "s%d" % i) for i in range(nstruct)] + \
        [("union", "u%d" % i) for i in range(nunion)] + \
        [("enum", "e%d" % i) for i in range(nenum)] + \
        [("typedef", "t%d" % i) for i in range(ntd)]
R.shuffle(types)
idx = {n: i for i, (k, n) in enumerate(types)}
kind = {n: k for k, n in types}

def ref(n):
    k = kind[n]
    return n if k == "typedef" else "%s %s" % (k, n)

class Body:
    def __init__(self):
        self.text = ""; self.byval = set(); self.flex = False

def rand_qual():
    r = R.random()
    return "const " if r < 0.15 else "volatile " if r < 0.22 else "const volatile " if r < 0.25 else ""

def ptr_target(i, b):
    """a pointer-able type text (any named type or base)"""
    r = R.random()
    if r < 0.75 and types:
        n = R.choice(types)[1]
        if kind[n] == "typedef" and idx[n] >= i:
            return "void"
        return rand_qual() + ref(n)
    if r < 0.85:
        return "void"
    return rand_qual() + R.choice(BASE)

def byval_named(i, b, allow_kinds=("struct", "union", "enum", "typedef")):
    cands = [n for (k, n) in types[:i] if k in allow_kinds]
    if not cands:
        return None
    n = R.choice(cands)
    b.byval.add(n)
    return ref(n)

def fnptr(i, b, name):
    nargs = R.randint(0, 3)
    args = [ptr_target(i, b) + " *" for _ in range(nargs)] or ["void"]
    ret = R.choice(["int", "void", "long", ptr_target(i, b) + " *"])
    return "%s (*%s)(%s)" % (ret, name, ", ".join(args))

def member(i, b, mname, depth):
    r = R.random()
    if r < 0.18:
        return "%s%s %s;" % (rand_qual(), R.choice(BASE), mname)
    if r < 0.28:
        t = R.choice(["unsigned int", "int", "unsigned char", "long"])
        w = R.randint(1, 7)
        s = "%s %s : %d;" % (t, mname, w)
        if R.random() < 0.2:
            s += " %s : 0;" % t
        if R.random() < 0.3:
            s += " %s %s_b : %d;" % (t, mname, R.randint(1, 7))
        return s
    if r < 0.36:
        dims = "".join("[%d]" % R.randint(1, 4) for _ in range(R.randint(1, 3)))
        return "%s %s%s;" % (R.choice(BASE), mname, dims)
    if r < 0.6:
        stars = "*" if R.random() < 0.85 else "**"
        q = " const" if R.random() < 0.1 else " restrict" if R.random() < 0.1 else ""
        return "%s %s%s %s;" % (ptr_target(i, b), stars, q, mname)
    if r < 0.68:
        return fnptr(i, b, mname) + ";"
    if r < 0.78 and depth < 2:
        # anonymous or named-member nested aggregate
        ak = R.choice(["struct", "union"])
        inner = " ".join(member(i, b, "%s_%d" % (mname, j), depth + 1)
                         for j in range(R.randint(1, 3)))
        if R.random() < 0.5:
            return "%s { %s };" % (ak, inner)
        return "%s { %s } %s;" % (ak, inner, mname)
    if r < 0.82 and depth < 1:
        # nested named struct definition (file scope in C)
        nm = "%s_n%d" % (types[i][1], R.randint(0, 1))
        if nm in b.nested:
            return "int %s;" % mname
        b.nested.add(nm)
        inner = " ".join(member(i, b, "%s_%d" % (mname, j), depth + 1)
                         for j in range(R.randint(1, 2)))
        return "struct %s { %s } %s;" % (nm, inner, mname)
    t = byval_named(i, b)
    if t is None:
        return "int %s;" % mname
    if R.random() < 0.2:
        return "%s %s[%d];" % (t, mname, R.randint(1, 3))
    return "%s%s %s;" % (rand_qual(), t, mname)

def make_body(i):
    k, n = types[i]
    b = Body(); b.nested = set()
    if k in ("struct", "union"):
        ms = [member(i, b, "m%d" % j, 0) for j in range(R.randint(1, 5))]
        if k == "struct" and R.random() < 0.12:
            ms.append("%s tail[];" % R.choice(BASE)); b.flex = True
        if R.random() < 0.1:
            ms[0] = ms[0][:-1] + " __attribute__((aligned(16)));" if ":" not in ms[0] and "{" not in ms[0] else ms[0]
        att = " __attribute__((packed))" if R.random() < 0.1 else ""
        b.text = "%s%s %s { %s };" % (k, att, n, " ".join(ms))
    elif k == "enum":
        vals = []
        v = R.randint(-3, 3)
        for j in range(R.randint(1, 4)):
            if R.random() < 0.4:
                v = R.choice([0, 1, 2, 7, -1, 255, 65536, 0x7fffffff, -2147483648, 0x100000000, -0x100000001])
            vals.append("%s_%d = %d" % (n.upper(), j, v) if (R.random() < 0.6 or v == 2**31) else "%s_%d" % (n.upper(), j))
            v += 1
        b.text = "enum %s { %s };" % (n, ", ".join(vals))
    else:
        r = R.random()
        if r < 0.3:
            t = rand_qual() + R.choice(BASE)
            b.text = "typedef %s %s;" % (t, n)
        elif r < 0.55:
            b.text = "typedef %s *%s;" % (ptr_target(i, b), n)
        elif r < 0.75:
            t = byval_named(i, b)
            if t is None:
                t = "int"
            b.text = "typedef %s%s %s;" % (rand_qual(), t, n)
        elif r < 0.85:
            b.text = "typedef " + fnptr(i, b, n) + ";"
        elif r < 0.93:
            ak = R.choice(["struct", "union"])
            inner = " ".join(member(i, b, "a%d" % j, 1) for j in range(R.randint(1, 3)))
            b.text = "typedef %s { %s } %s;" % (ak, inner, n)
        else:
            b.text = "typedef %s %s[%d][%d];" % (R.choice(BASE), n, R.randint(1, 3), R.randint(1, 3))
    return b

# variants of each named type
variants = {}
for i, (k, n) in enumerate(types):
    nv = R.choice([1, 1, 2, 2, 3])
    variants[n] = [make_body(i) for _ in range(nv)]

nunits = R.randint(2, 30) if R.random() < 0.93 else R.randint(40, 60)
pdecl = R.choice([0.0, 0.15, 0.3])
pabsent = R.choice([0.05, 0.2, 0.4])
pglobal = R.choice([0.3, 0.6, 0.9])
ALLCC = ["gcc0", "gcc2", "clang0", "clang2", "gccd4", "gccu", "gcctu", "clangtu", "gccse", "gccuc"]
if os.environ.get("STRICT2"):
    ALLCC = R.choice([["gcc0", "gcc2", "gccd4", "gccu", "gcctu"], ["clang0", "clang2", "clangtu"]])
    if os.environ.get("NOFWD"):
        ALLCC = ALLCC + ["gccse", "gccuc"]
ccmode = R.choice(["mix", "mix"] + ALLCC) if os.environ.get("STRICT2") else R.choice(["gcc0", "gcc0", "gcc2", "clang0", "mix", "mix"] + ALLCC)
cc = []
# a few unit "templates" so that units repeat (reuse applies)
ntempl = R.randint(1, max(1, nunits // 2))
templates = []
for t in range(ntempl):
    choice = {}
    for i in range(len(types) - 1, -1, -1):
        k, n = types[i]
        r = R.random()
        if r < pabsent and n not in choice:
            choice[n] = None
        elif r < pabsent + pdecl and k != "typedef" and n not in choice:
            choice[n] = "decl"
        elif n not in choice:
            choice[n] = R.randrange(len(variants[n]))
    if os.environ.get("NOFWD"):
        for k, n in types:
            if not isinstance(choice[n], int):
                choice[n] = R.randrange(len(variants[n]))
    if os.environ.get("STRICT2"):
        import re as _re
        for k, n in types:
            leaf = len(variants[n]) == 1 and not [x for x in _re.findall(r"\b[sute]\d+\b", variants[n][0].text) if x != n]
            if not leaf and not isinstance(choice[n], int):
                choice[n] = R.randrange(len(variants[n]))
    if os.environ.get("STRICT"):
        for k, n in types:
            if len(variants[n]) > 1 and not isinstance(choice[n], int):
                choice[n] = R.randrange(len(variants[n]))
    # fix up: by-value dependencies must be complete (high to low index)
    for i in range(len(types) - 1, -1, -1):
        n = types[i][1]
        c = choice[n]
        if isinstance(c, int):
            for d in variants[n][c].byval:
                if not isinstance(choice[d], int):
                    choice[d] = R.randrange(len(variants[d]))
    templates.append(choice)

for u in range(nunits):
    choice = templates[R.randrange(ntempl)]
    lines = []
    # forward declarations of all tags (pointers to anything)
    for k, n in types:
        if k != "typedef":
            lines.append("%s %s;" % (k, n))
    # typedefs that are absent but referenced by pointer: make them void
    for k, n in types:
        if k == "typedef" and choice[n] is None:
            lines.append("typedef struct %s_absent %s;" % (n, n))
    defined = []
    for i, (k, n) in enumerate(types):
        c = choice[n]
        if isinstance(c, int):
            lines.append(variants[n][c].text)
            defined.append(n)
    uses = []
    for k, n in types:
        c = choice[n]
        if isinstance(c, int):
            if R.random() < pglobal:
                fl = variants[n][c].flex
                if k == "typedef" or fl:
                    uses.append("%s *g%d_%s;" % (ref(n), u, n))
                else:
                    uses.append("%s g%d_%s;" % (ref(n), u, n))
            if R.random() < pglobal * 0.5:
                uses.append("int f%d_%s(%s *p) { return p != 0; }" % (u, n, ref(n)))
            if R.random() < 0.1:
                uses.append("static inline int h%d_%s(%s *p, int n) { return p != 0 && n; }" % (u, n, ref(n)))
                uses.append("int k%d_%s(%s *p) { return h%d_%s(p, 3); }" % (u, n, ref(n), u, n))
            if R.random() < 0.05:
                uses.append("int vla%d_%s(int n, %s (*a)[n]) { return a != 0; }" % (u, n, ref(n)))
        elif c == "decl" and R.random() < pglobal:
            uses.append("%s *gp%d_%s;" % (ref(n), u, n))
    if not uses:
        uses.append("int dummy%d;" % u)
    with open(os.path.join(out, "u%02d.c" % u), "w") as f:
        f.write("\n".join(lines + uses) + "\n")
    m = ccmode if ccmode != "mix" else R.choice(ALLCC)
    cc.append(m)
with open(os.path.join(out, "cc"), "w") as f:
    f.write("\n".join(cc) + "\n")
