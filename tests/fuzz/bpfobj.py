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
    bpfobj.py syminfo OBJ OUT SYMBOL INFO    sets a symbol's st_info
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


BOUNDS = [0, 1, 2, 3, 4, 7, 8, 16, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff]


def _word(rng, old, limit):
    r = rng.random()
    if r < 0.35:
        return rng.choice(BOUNDS)
    if r < 0.7:
        return old + rng.choice([-8, -4, -1, 1, 4, 8, limit, -limit])
    if r < 0.85:
        return old ^ (1 << rng.randrange(32))
    return rng.randrange(limit + 2)


def _ext_record(o, rng):
    kind = rng.choice(['func_info', 'line_info', 'core_relo'])
    recs, rec = o.ext_records(kind)
    if not recs:
        return None
    pos = rng.choice(recs) + 4 * rng.randrange(max(1, min(rec, 16) // 4))
    o.u32(pos, _word(rng, o.u32(pos), 64))
    return '%s record word at %#x' % (kind, pos)


def _ext_section(o, rng):
    blocks = o.ext_blocks()
    if not blocks:
        return None
    kind, pos, ln = rng.choice(blocks)
    # the first section's header: name offset or record count
    at = pos + 4 + rng.choice([0, 4])
    o.u32(at, _word(rng, o.u32(at), 16))
    return '%s section header word at %#x' % (kind, at)


def _access_string(o, rng):
    recs, rec = o.ext_records('core_relo')
    strs = o.btf_strings()
    if not recs or not strs:
        return None
    pos = rng.choice(recs)
    start, ln = strs
    acc = o.u32(pos + 8)
    if rng.random() < 0.4:  # another string, or none
        o.u32(pos + 8, rng.choice([0, ln, ln - 1, acc + 1, rng.randrange(ln)]))
        return 'CO-RE access_str_off %u -> %u' % (acc, o.u32(pos + 8))
    p = start + acc
    end = o.d.find(b'\0', p)
    if acc >= ln or end < 0 or end == p:
        return None
    i = p + rng.randrange(end - p)
    o.d[i] = ord(rng.choice('0123456789:9:-a'))
    return 'CO-RE access string %r' % bytes(o.d[p:end])


def _symbol(o, rng):
    syms = [s for s in o.symbols() if s[1]]
    if not syms:
        return None
    pos, name, e = rng.choice(syms)
    what = rng.choice(['value', 'value', 'size', 'info', 'other', 'shndx'])
    if what == 'value':
        others = [x[2][4] for x in syms if x[2][3] == e[3]]
        v = rng.choice(others + [e[4] + rng.choice([-8, -1, 1, 8]), 0, e[5], 1 << 20])
        struct.pack_into('<Q', o.d, pos + 8, v & (2**64 - 1))
    elif what == 'size':
        struct.pack_into('<Q', o.d, pos + 16, rng.choice([0, 1, e[5] + 8, max(e[5] - 8, 0), 1 << 32]))
    elif what == 'info':
        bind, typ = e[1] >> 4, e[1] & 15
        if rng.random() < 0.5:
            bind = rng.choice([0, 1, 2])
        else:
            typ = rng.choice([0, 1, 2, 3, 4])
        o.d[pos + 4] = bind << 4 | typ
    elif what == 'other':
        o.d[pos + 5] = rng.choice([0, 1, 2, 3])
    else:
        struct.pack_into('<H', o.d, pos + 6, rng.choice([0, 1, len(o.secs) - 1, len(o.secs), 0xfff1,
                                                        rng.randrange(len(o.secs))]))
    return 'symbol %s %s' % (name, what)


def _section(o, rng):
    i = rng.randrange(1, len(o.secs))
    if rng.random() < 0.7:  # SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR
        o.set_shdr(i, 'flags', o.secs[i][2] ^ rng.choice([1, 2, 4, 2 | 1]))
        return 'section %s flags %#x' % (o.names[i], o.secs[i][2])
    o.set_shdr(i, 'type', rng.choice([1, 8, 9, 3]))  # PROGBITS NOBITS REL STRTAB
    return 'section %s type' % o.names[i]


def mutate(data, rng):
    """One BPF-level mutation of an object: (bytes, what was done)"""
    o = Obj(data)
    for _ in range(8):
        r = rng.random()
        if r < 0.15:
            named = named_ext_mutations(o)
            if not named:
                continue
            name = rng.choice(sorted(named))
            named[name](o)
            return o.d, '.BTF.ext ' + name
        fn = _ext_record if r < 0.4 else _ext_section if r < 0.5 else _access_string if r < 0.7 else \
            _symbol if r < 0.9 else _section
        what = fn(o, rng)
        if what:
            return o.d, what
    return o.d, 'nothing'


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
    elif argv[1] in ('symval', 'syminfo'):
        pos = [p for p, n, _ in o.symbols() if n == argv[4]][0]
        if argv[1] == 'symval':
            struct.pack_into('<Q', o.d, pos + 8, int(argv[5], 0))
        else:
            o.d[pos + 4] = int(argv[5], 0)
    else:
        return 2
    with open(argv[3], 'wb') as f:
        f.write(o.d)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
