#!/usr/bin/env python3
"""add_layout.py PLAIN OUT: PLAIN's raw BTF with a layout section added (the
32-byte header), written to OUT.

Used by bench/bench_layout.sh."""
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
