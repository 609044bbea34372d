#!/usr/bin/env python3
"""bad_blobs.py DIR: raw BTF blobs that the tools must refuse, each naming
the file and what is wrong.

Used by tests/cli/check_errors_name_file.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
d = sys.argv[1]
blob = write_btf
strs = b"\0int\0s\0m\0"
# [1] int, [2] PTR -> 0x7fffffff, [3] struct s { [2] m; }: a bad base
blob(d + "/badbase.btf", struct.pack("<IIII", 1, 1 << 24, 4, 32) + struct.pack("<III", 0, 2 << 24, 0x7fffffff)
     + struct.pack("<IIIIII", 5, 4 << 24 | 1, 8, 7, 2, 0), strs)
# [1] struct s { s m; }: a cycle the C dump cannot print
blob(d + "/cycle.btf", struct.pack("<IIIIII", 5, 4 << 24 | 1, 4, 7, 1, 0), strs)
