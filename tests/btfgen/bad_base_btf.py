#!/usr/bin/env python3
"""bad_base_btf.py OUT PTR_TARGET [MEMBER_TYPE] [MEMBER_NAME]: a small base BTF
(int, a PTR, struct s { m; }) with the references given, for bad-base tests.

Used by tests/btfgen/check_bad_base.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
out, ptr, mtype, mname = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), int(sys.argv[4], 0)
strs = b"\0int\0s\0m\0"
t = struct.pack("<IIII", 1, 1 << 24, 4, 32)
t += struct.pack("<III", 0, 2 << 24, ptr)
t += struct.pack("<IIIIII", 5, 4 << 24 | 1, 8, mname, mtype, 0)
write_btf(out, t, strs)
