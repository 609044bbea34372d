#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Edited copies of a raw BTF (little-endian, the host's order) for the
CO-RE tests' targets:

  btf_edit.py rename IN OUT STRUCT MEMBER NEW
      MEMBER of STRUCT renamed NEW (a string appended): a field a kernel
      renamed or dropped, on a real kernel's BTF
  btf_edit.py enum-gap IN OUT STRUCT MEMBER
      MEMBER of STRUCT (a plain enum) given a fresh copy of its enum with no
      enumerators, appended as the last type, and 4 bytes (0x01000000) left
      between the types and the strings (the header allows a gap): libbpf
      1.1 reads the word after an enum's header as an integer encoding,
      here the gap's, and says "signed"; libbpf 1.8 says unsigned.
"""
import struct
import sys

PER_MEMBER = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}  # STRUCT UNION ENUM PROTO DATASEC ENUM64
EXTRA = {1: 4, 3: 12, 14: 4, 17: 4}  # INT ARRAY VAR DECL_TAG


class Btf:
    def __init__(self, path):
        self.path = path
        self.data = bytearray(open(path, 'rb').read())
        (magic, _v, _f, self.hdr_len, self.type_off, self.type_len, self.str_off,
         self.str_len) = struct.unpack_from('<HBBIIIII', self.data, 0)
        if magic != 0xeb9f:
            sys.exit('%s: not little-endian raw BTF' % path)
        self.types = {}  # id: (offset in data, name_off, kind, vlen)
        pos, tid = self.hdr_len + self.type_off, 1
        self.types_end = pos + self.type_len
        while pos < self.types_end:
            name_off, info, _size = struct.unpack_from('<III', self.data, pos)
            kind, vlen = (info >> 24) & 0x1f, info & 0xffff
            self.types[tid] = (pos, name_off, kind, vlen)
            pos += 12 + EXTRA.get(kind, 0) + vlen * PER_MEMBER.get(kind, 0)
            tid += 1
        self.next_id = tid

    def name(self, off):
        s = self.hdr_len + self.str_off
        return self.data[s + off:self.data.index(b'\0', s + off)].decode()

    def member(self, sname, mname):
        """the offset in data of STRUCT's member MEMBER"""
        for pos, name_off, kind, vlen in self.types.values():
            if kind == 4 and self.name(name_off) == sname:
                for i in range(vlen):
                    m = pos + 12 + 12 * i
                    if self.name(struct.unpack_from('<I', self.data, m)[0]) == mname:
                        return m
        sys.exit('%s: no %s::%s' % (self.path, sname, mname))


def rename(b, out, sname, mname, new):
    m = b.member(sname, mname)
    struct.pack_into('<I', b.data, m, b.str_len)  # the appended string
    b.data += new.encode() + b'\0'
    struct.pack_into('<I', b.data, 20, b.str_len + len(new) + 1)
    open(out, 'wb').write(b.data)


def enum_gap(b, out, sname, mname):
    m = b.member(sname, mname)
    _pos, e_name, ekind, _vlen = b.types[struct.unpack_from('<I', b.data, m + 4)[0]]
    if ekind != 6:
        sys.exit('%s: %s::%s is not a plain enum' % (b.path, sname, mname))
    struct.pack_into('<I', b.data, m + 4, b.next_id)
    new = struct.pack('<IIII', e_name, 6 << 24, 4, 0x01000000)
    data = b.data[:b.types_end] + new + b.data[b.types_end:]
    struct.pack_into('<III', data, 12, b.type_len + 12, b.str_off + 16, b.str_len)
    open(out, 'wb').write(data)


def main():
    ops = {'rename': (rename, 5), 'enum-gap': (enum_gap, 4)}  # arguments after the operation
    if len(sys.argv) < 2 or sys.argv[1] not in ops or len(sys.argv) != 2 + ops[sys.argv[1]][1]:
        sys.exit(__doc__)
    fn = ops[sys.argv[1]][0]
    fn(Btf(sys.argv[2]), *sys.argv[3:])


main()
