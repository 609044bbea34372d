#!/usr/bin/env python3
# btf_patch.py OUTDIR OBJ...: for each ELF BPF object and each flaw below
# that it has something to break, OUTDIR/NAME.KIND.o is a copy with that one
# flaw patched into its .BTF bytes (same size, nothing else moved); the
# paths written are printed, one a line:
#   type_id   a STRUCT member's type id past the last type
#   name      a named STRUCT's name starts with a digit
#   member    a STRUCT member's offset past the end of the struct
#   datasec   a DATASEC entry (not .ksyms/.kconfig) larger than its section
# Named structs only: libbpf itself trusts the anonymous map definitions.
import os
import struct
import sys

KIND_STRUCT, KIND_DATASEC = 4, 15
EXTRA = {1: 4, 3: 12, 14: 4, 17: 4}
VLEN = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}


def btf_section(data):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    sh = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stroff = sh[shstrndx][4]
    for s in sh:
        name = data[stroff + s[0]:data.index(b'\0', stroff + s[0])]
        if name == b'.BTF':
            return s[4], s[5]
    sys.exit('no .BTF')


def types(data, base):
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<IIIII', data, base + 4)
    off, end, tid = base + hdr_len + type_off, base + hdr_len + type_off + type_len, 1
    strs = base + hdr_len + str_off
    while off < end:
        name_off, info, size = struct.unpack_from('<III', data, off)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        yield tid, off, kind, vlen, name_off, size, info, strs
        off += 12 + EXTRA.get(kind, 0) + VLEN.get(kind, 0) * vlen
        tid += 1


def patch(data, what):
    base, _ = btf_section(data)
    ts = list(types(data, base))
    nr = len(ts)
    # type_id: the last named struct (libbpf 1.1 itself crashes on a map key
    # or value struct with a bad member type: not a verdict to compare)
    for tid, off, kind, vlen, name_off, size, info, strs in (ts[::-1] if what == 'type_id' else ts):
        if kind == KIND_STRUCT and vlen and name_off and what == 'type_id':
            struct.pack_into('<I', data, off + 12 + 4, nr + 100)
            return True
        if kind == KIND_STRUCT and name_off and what == 'name':
            data[strs + name_off] = ord('1')
            return True
        if kind == KIND_STRUCT and vlen and name_off and not info >> 31 and what == 'member':
            struct.pack_into('<I', data, off + 12 + 12 * (vlen - 1) + 8, size * 8 + 64)
            return True
        if kind == KIND_DATASEC and vlen and what == 'datasec':
            name = data[strs + name_off:data.index(b'\0', strs + name_off)]
            if name in (b'.ksyms', b'.kconfig'):
                continue
            struct.pack_into('<I', data, off + 12 + 8, 0x100000)
            return True
    return False


def main():
    outdir = sys.argv[1]
    for src in sys.argv[2:]:
        for what in ('type_id', 'name', 'member', 'datasec'):
            data = bytearray(open(src, 'rb').read())
            if not patch(data, what):
                continue
            dst = '%s/%s.%s.o' % (outdir, os.path.basename(src)[:-2], what)
            open(dst, 'wb').write(data)
            print(dst)


main()
