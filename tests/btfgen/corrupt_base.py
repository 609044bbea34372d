#!/usr/bin/env python3
"""corrupt_base.py DIR: mutated copies of DIR/base.btf (words of its type
section changed at random, fixed seed) for the bad-base tests.

Used by tests/btfgen/check_base_corrupt.sh."""
import random, struct, sys
d = sys.argv[1]
data = bytearray(open(d + "/base.btf", "rb").read())
hl, to, tl, so, sl = struct.unpack_from("<IIIII", data, 4)
t0 = hl + to
words = tl // 4
ntypes = 40  # an upper bound for "near the end" ids
for seed in range(120):
    r = random.Random(seed)
    b = bytearray(data)
    for _ in range(r.choice((1, 1, 2, 3))):
        at = t0 + 4 * r.randrange(words)
        old = struct.unpack_from("<I", b, at)[0]
        how = r.randrange(7)
        if how == 0:
            new = r.randrange(ntypes)                 # an id, maybe past the end
        elif how == 1:
            new = r.choice((0x7fffffff, 0xffffffff, 1 << 20))
        elif how == 2:
            new = r.randrange(sl + 8)                 # a string offset, maybe past
        elif how == 3:
            new = (old & 0x80ffffff) | (r.randrange(32) << 24)  # the kind
        elif how == 4:
            new = (old & 0xffff0000) | r.randrange(0x10000)     # the vlen
        elif how == 5:
            new = old ^ (1 << r.randrange(32))
        else:
            new = r.getrandbits(32)
        struct.pack_into("<I", b, at, new)
    open("%s/b%03d.btf" % (d, seed), "wb").write(b)
