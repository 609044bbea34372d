#!/usr/bin/env python3
"""min_kernel_layouts.py DIR: one raw blob per layout (not kind) that older
kernels refused; each is valid on this kernel.

Used by tests/verify/check_min_kernel.sh."""
import struct
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from btfraw import raw_btf, write_btf  # noqa: E402
d = sys.argv[1]
def blob(name, types, strs):
    write_btf('%s/%s.btf' % (d, name), types, strs)
INT = struct.pack('<IIII', 1, 0x01000000, 4, 32)                # [1] int
def enum(size):                                                 # [2] enum e { A = 1 }
    return struct.pack('<IIIII', 5, 0x06000001, size, 7, 1)
S = b'\0int\0e\0A\0.rodata\0'
blob('enum1', INT + enum(1), S)
blob('enum8', INT + enum(8), S)
blob('enum4', INT + enum(4), S)
blob('datasec0', INT + struct.pack('<III', 9, 0x0f000000, 4), S)  # DATASEC .rodata, vlen 0
blob('types65535', INT + struct.pack('<III', 0, 0x02000000, 1) * 65534, S)
blob('types65536', INT + struct.pack('<III', 0, 0x02000000, 1) * 65535, S)
blob('str64k', INT, S + b'x' * (65536 - len(S) - 1) + b'\0')    # 65536 bytes: still fine
blob('str64k1', INT, S + b'x' * (65537 - len(S) - 1) + b'\0')   # one more: 5.4
# split BTF over the 'enum4' blob ([1] int, [2] enum: ids go on at 3): a
# pointer to int (module BTF: 5.11), and a FLOAT after it (5.13, type [4];
# libbpf loads no split BTF, so its sanitization changes nothing)
blob('split_ptr', struct.pack('<III', 0, 0x02000000, 1), b'\0')
blob('split_float', struct.pack('<III', 0, 0x02000000, 1) + struct.pack('<III', 1, 0x10000000, 8), b'\0')
