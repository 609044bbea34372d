#!/usr/bin/env python3
"""hand_blobs.py DIR: hand-made base, distilled base and split BTF for the
relocation rules (an INT's encoding, a FWD against a struct).

Used by tests/relocate/check_distilled.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
T = sys.argv[1]
def blob(types, strs):
    s = b"\0" + b"".join(x.encode() + b"\0" for x in strs)
    t = b"".join(struct.pack("<%dI" % len(w), *w) for w in types)
    return raw_btf(t, s)
def info(kind, kflag=0): return kind << 24 | kflag << 31
INT, STRUCT, FWD, TYPEDEF = 1, 4, 7, 8
for name, enc, kflag in (("ok", 1, 0), ("plainchar", 0, 0), ("bitfields", 1, 1)):
    # strings: "char" at 1, "opaque" at 6
    open(f"{T}/b_{name}.btf", "wb").write(blob(
        [(1, info(INT), 1, enc << 24 | 8), (6, info(STRUCT, kflag), 4)], ["char", "opaque"]))
open(f"{T}/dist.btf", "wb").write(blob(
    [(1, info(INT), 1, 1 << 24 | 8), (6, info(FWD), 0)], ["char", "opaque"]))
# split over the distilled base (strings after its 13 bytes): "c_t", "o_t"
s = b"c_t\0o_t\0"
t = struct.pack("<6I", 13, info(TYPEDEF), 1, 17, info(TYPEDEF), 2)
open(f"{T}/split.btf", "wb").write(
    raw_btf(t, s))
