# SPDX-License-Identifier: BSD-2-Clause
"""BPF object mutations for the campaign (campaign.py) and the libbpf open
tests (tests/verify/check_libbpf_open.sh): in place, at the level libbpf's
bpf_object__open() reads an ELF BPF object (64-bit, little-endian):
.BTF.ext headers and records (func_info, line_info, CO-RE relocations),
CO-RE access strings, symbols and section headers. Every mutation keeps the
file's size and layout: a field is changed, or a section's size shrunk.

    bpfobj.py named OBJ OUTDIR     writes OUTDIR/NAME.o for each named
                                   .BTF.ext mutation that applies; prints
                                   the paths
    bpfobj.py flags OBJ OUT SECTION FLAGS   sets a section's sh_flags
    bpfobj.py symval OBJ OUT SYMBOL VALUE    sets a symbol's st_value
"""
import struct
import sys

SHDR = '<IIQQQQIIQQ'  # name type flags addr offset size link info addralign entsize
SYM = '<IBBHQQ'       # name info other shndx value size
FIELDS = {'name': 0, 'type': 4, 'flags': 8, 'offset': 24, 'size': 32, 'link': 40, 'info': 44}


class Obj:
    def __init__(self, data):
        self.d = bytearray(data)
        d = self.d
        if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
            raise ValueError('not a 64-bit little-endian ELF')
        self.shoff = struct.unpack_from('<Q', d, 0x28)[0]
        shnum, shstrndx = struct.unpack_from('<HH', d, 0x3c)
        if self.shoff + 64 * shnum > len(d) or shstrndx >= shnum:
            raise ValueError('bad section table')
        self.secs = [struct.unpack_from(SHDR, d, self.shoff + 64 * i) for i in range(shnum)]
        self.names = [self.cstr(self.secs[shstrndx][4] + s[0]) for s in self.secs]

    def cstr(self, off):
        e = self.d.find(b'\0', off)
        return self.d[off:e].decode('latin1') if 0 <= off < len(self.d) and e >= 0 else ''

    def sec(self, name):
        """index of the first section of that name, or None"""
        return self.names.index(name) if name in self.names else None

    def shdr_pos(self, i, field):
        return self.shoff + 64 * i + FIELDS[field]

    def set_shdr(self, i, field, value):
        wide = field in ('flags', 'offset', 'size')
        struct.pack_into('<Q' if wide else '<I', self.d, self.shdr_pos(i, field),
                         value & (2**64 - 1 if wide else 0xffffffff))

    def symbols(self):
        """[(file offset of the entry, name, (name, info, other, shndx, value, size))]"""
        out = []
        for s in self.secs:
            if s[1] != 2 or s[9] != 24 or s[4] + s[5] > len(self.d) or s[6] >= len(self.secs):
                continue
            strtab = self.secs[s[6]][4]
            for j in range(1, s[5] // 24):
                pos = s[4] + 24 * j
                e = struct.unpack_from(SYM, self.d, pos)
                out.append((pos, self.cstr(strtab + e[0]), e))
        return out

    def ext(self):
        """(file offset, size) of .BTF.ext's bytes, or None"""
        i = self.sec('.BTF.ext')
        if i is None or self.secs[i][4] + self.secs[i][5] > len(self.d) or self.secs[i][5] < 8:
            return None
        return self.secs[i][4], self.secs[i][5]

    def ext_blocks(self):
        """[(kind, file offset of the record size word, block length)] of .BTF.ext"""
        e = self.ext()
        if not e:
            return []
        base, size = e
        hdr_len = struct.unpack_from('<I', self.d, base + 4)[0]
        out = []
        for k, at in (('func_info', 8), ('line_info', 16), ('core_relo', 24)):
            if at + 8 > min(hdr_len, size):
                break
            off, ln = struct.unpack_from('<II', self.d, base + at)
            if ln and hdr_len + off + ln <= size:
                out.append((k, base + hdr_len + off, ln))
        return out

    def ext_records(self, kind):
        """file offsets of the records of one block, with their record size"""
        for k, pos, ln in self.ext_blocks():
            if k != kind:
                continue
            rec = struct.unpack_from('<I', self.d, pos)[0]
            end, p, recs = pos + ln, pos + 4, []
            while rec and p + 8 <= end:
                n = struct.unpack_from('<I', self.d, p + 4)[0]
                if not n or p + 8 + n * rec > end:
                    break
                recs += [p + 8 + rec * r for r in range(n)]
                p += 8 + n * rec
            return recs, rec
        return [], 0

    def btf_strings(self):
        """(file offset, length) of .BTF's string section, or None"""
        i = self.sec('.BTF')
        if i is None:
            return None
        off = self.secs[i][4]
        hdr_len, _, _, str_off, str_len = struct.unpack_from('<IIIII', self.d, off + 4)
        start = off + hdr_len + str_off
        return (start, str_len) if start + str_len <= len(self.d) else None

    def u32(self, pos, value=None):
        if value is None:
            return struct.unpack_from('<I', self.d, pos)[0]
        struct.pack_into('<I', self.d, pos, value & 0xffffffff)
        return None


def named_ext_mutations(o):
    """{name: function(Obj)} of deterministic .BTF.ext mutations libbpf's
    btf_ext__new() refuses, one per check it makes"""
    e = o.ext()
    if not e:
        return {}
    base, size = e
    hdr_len = o.u32(base + 4)
    blocks = {k: (pos, ln) for k, pos, ln in o.ext_blocks()}
    i = o.sec('.BTF.ext')
    m = {
        'bare_header': lambda o: o.set_shdr(i, 'size', hdr_len),
        'magic': lambda o: o.u32(base, (o.u32(base) & ~0xffff) | 0xeb9e),
        'version': lambda o: o.d.__setitem__(base + 2, 2),
        'flags': lambda o: o.d.__setitem__(base + 3, 1),
        'hdr_len_past_end': lambda o: o.u32(base + 4, size + 4),
        'hdr_len_short': lambda o: o.u32(base + 4, 16),
        'header_cut': lambda o: o.set_shdr(i, 'size', 6),
    }
    for k, at in (('func_info', 8), ('line_info', 16), ('core_relo', 24)):
        if k not in blocks:
            continue
        pos, ln = blocks[k]
        m[k + '_unaligned'] = lambda o, at=at: o.u32(base + at, o.u32(base + at) + 2)
        m[k + '_past_end'] = lambda o, at=at: o.u32(base + at + 4, size)
        m[k + '_no_rec_size'] = lambda o, at=at: o.u32(base + at + 4, 2)
        m[k + '_small_rec'] = lambda o, pos=pos: o.u32(pos, 4)
        m[k + '_odd_rec'] = lambda o, pos=pos: o.u32(pos, o.u32(pos) + 1)
        m[k + '_no_records'] = lambda o, at=at: o.u32(base + at + 4, 4)
        m[k + '_zero_count'] = lambda o, pos=pos: o.u32(pos + 8, 0)
        m[k + '_count_past_end'] = lambda o, pos=pos: o.u32(pos + 8, 0x10000000)
        m[k + '_sec_header_cut'] = lambda o, at=at: o.u32(base + at + 4, 4 + 4)
    return m


def main(argv):
    with open(argv[2], 'rb') as f:
        data = f.read()
    if argv[1] == 'named':
        o = Obj(data)
        for name, fn in sorted(named_ext_mutations(o).items()):
            c = Obj(data)
            fn(c)
            path = '%s/%s.o' % (argv[3], name)
            with open(path, 'wb') as f:
                f.write(c.d)
            print(path)
        return 0
    o = Obj(data)
    if argv[1] == 'flags':
        o.set_shdr(o.sec(argv[4]), 'flags', int(argv[5], 0))
    elif argv[1] == 'symval':
        pos = [p for p, n, _ in o.symbols() if n == argv[4]][0]
        struct.pack_into('<Q', o.d, pos + 8, int(argv[5], 0))
    else:
        return 2
    with open(argv[3], 'wb') as f:
        f.write(o.d)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
