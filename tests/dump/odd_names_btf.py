#!/usr/bin/env python3
"""odd_names_btf.py OUT: a raw BTF whose names hold control bytes, invalid
UTF-8, quotes and backslashes (INT, STRUCT and its member).

Used by tests/dump/check_json_bytes.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
strs = b"\0" + b'a\x01\xff\\"z\0' + b"s\tX\x80\0" + b"m\x1b\xc3\xa9\0"
n1, n2, n3 = 1, 1 + 7, 1 + 7 + 5
types = struct.pack("<IIII", n1, 1 << 24, 4, 32)
types += struct.pack("<III", n2, 4 << 24 | 1, 4) + struct.pack("<III", n3, 1, 0)
write_btf(sys.argv[1], types, strs)
