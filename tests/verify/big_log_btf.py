#!/usr/bin/env python3
"""big_log_btf.py OUT: 6,000 PTR types and then a bad INT, so that the
verifier log runs to ~150 KB before the rejection.

Used by tests/verify/check_btfcheck.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
n = 6000  # PTR types: ~150 KB of log before the bad INT
types = struct.pack('<III', 1, 0x01000000, 4) + struct.pack('<I', 32)  # [1] int
types += b''.join(struct.pack('<III', 0, 0x02000000, 1) for _ in range(n))
types += struct.pack('<III', 1, 0x01000000, 4) + struct.pack('<I', 0x03000020)  # bad encoding
strs = b'\0int\0'
write_btf(sys.argv[1], types, strs)
