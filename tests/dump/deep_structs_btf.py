#!/usr/bin/env python3
"""deep_structs_btf.py OUT KIND: "nested" = 30,000 nested anonymous structs
(valid), "self" = a struct that embeds itself.

Used by tests/dump/check_errors.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
out, kind = sys.argv[1], sys.argv[2]
strs = b"\0int\0m\0outer\0"
INT, M, OUTER = 1, 5, 7
t = struct.pack("<IIII", INT, 1 << 24, 4, 32)                    # [1] int
if kind == "nested":
    t += struct.pack("<IIIIII", 0, 4 << 24 | 1, 4, M, 1, 0)       # [2] struct { int m; }
    for k in range(3, 30002):                                      # struct { [k-1] m; }
        t += struct.pack("<IIIIII", 0, 4 << 24 | 1, 4, M, k - 1, 0)
    t += struct.pack("<IIIIII", OUTER, 4 << 24 | 1, 4, M, 30001, 0)
else:
    t += struct.pack("<IIIIII", OUTER, 4 << 24 | 1, 4, M, 2, 0)   # [2] struct outer { outer m; }
write_btf(out, t, strs)
