#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Change one field of an ELF section header in place (ELF32/64, either
byte order), for tests that feed tools mutated copies of real objects.

    elf_mutate.py FILE SECTION FIELD VALUE

SECTION is a section name or #index; FIELD one of name type flags addr
offset size link info addralign entsize; VALUE an integer (0x.. allowed)
or phoff (the ELF header's e_phoff).
"""
import struct
import sys

FIELDS64 = ('name', 'type', 'flags', 'addr', 'offset', 'size', 'link', 'info',
            'addralign', 'entsize')
FMT64 = 'IIQQQQIIQQ'
FMT32 = 'IIIIIIIIII'
FIELDS32 = ('name', 'type', 'flags', 'addr', 'offset', 'size', 'link', 'info',
            'addralign', 'entsize')


def main():
    path, sec, field, value = sys.argv[1:5]
    with open(path, 'rb') as f:
        data = bytearray(f.read())
    if data[:4] != b'\x7fELF':
        sys.exit(f'{path}: not an ELF file')
    is64 = data[4] == 2
    end = '<' if data[5] == 1 else '>'
    if is64:
        phoff, shoff = struct.unpack_from(end + 'QQ', data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(end + 'HHH', data, 0x3a)
        fmt, fields = end + FMT64, FIELDS64
    else:
        phoff, shoff = struct.unpack_from(end + 'II', data, 0x1c)
        shentsize, shnum, shstrndx = struct.unpack_from(end + 'HHH', data, 0x2e)
        fmt, fields = end + FMT32, FIELDS32
    hdrs = [list(struct.unpack_from(fmt, data, shoff + i * shentsize)) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]

    def name(h):
        o = stroff + h[0]
        return data[o:data.index(0, o)].decode()

    if sec.startswith('#'):
        idx = int(sec[1:])
    else:
        idx = next((i for i, h in enumerate(hdrs) if name(h) == sec), None)
        if idx is None:
            sys.exit(f'{path}: no section {sec}')
    val = phoff if value == 'phoff' else int(value, 0)
    hdrs[idx][fields.index(field)] = val
    struct.pack_into(fmt, data, shoff + idx * shentsize, *hdrs[idx])
    with open(path, 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
