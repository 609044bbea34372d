#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The adversarial campaign of issue 13 as a test: a structure-aware mutator
over a seed corpus, each mutant run through btfgen, btfdump and btfcheck,
with the toolchain's promises as the oracle.

    campaign.py BUILD_DIR SEED_DIR WORK_DIR SECONDS SEED [KINDS]

Seeds (SEED_DIR): *.btf raw BTF (also used as --base), *.o/*.so ELF with
DWARF, *.btf.o ELF objects with a .BTF section; split.btf with its base
base.btf. Mutations: BTF header fields, type record words (type ids, info,
sizes), string offsets; ELF section header fields; DWARF abbreviation
attribute and form codes and .debug_info bytes. Oracle for every run: no
sanitizer report, no signal, no hang (20 s), an exit status of the
documented table, on failure nothing on stdout and every stderr line naming
one of the files on the command line, the inputs unchanged; and BTF that
btfgen writes is accepted by btfcheck. Findings are kept in WORK_DIR/found/.
Prints one line of counts; exit 1 if anything was found.

KINDS (comma-separated, default btf,base,split,elf,inplace) picks what is
mutated; "bpfobj" mutates the BPF objects among the seeds (*.bpf.o) at the
level libbpf reads them (tests/fuzz/bpfobj.py: .BTF.ext headers and
records, CO-RE access strings, symbols, section flags) with libbpf's own
open as the oracle (BUILD_DIR/tests/fuzz/libbpf_open; and its load, as
root): btfcheck says OK => libbpf opens it; btfgen --in-place exits 0 =>
libbpf opens (as root: loads) the output if it opened (loaded) the input.
"""
import hashlib
import os
import random
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bpfobj  # noqa: E402

B, SEEDS, WORK, SECONDS, SEED = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
KINDS = sys.argv[6].split(',') if len(sys.argv) > 6 else ['btf', 'base', 'split', 'elf', 'inplace']
ROOT = os.geteuid() == 0
rng = random.Random(SEED)
EXITS = {'btfgen': {0, 4, 5}, 'btfdump': {0, 4, 5}, 'btfcheck': {0, 1, 4, 5}}
SAN = ('ERROR: AddressSanitizer', 'ERROR: LeakSanitizer', 'runtime error:', 'SUMMARY: UndefinedBehaviorSanitizer')
BOUNDS = [0, 1, 2, 3, 4, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff]
stats = {'runs': 0, 'mutants': 0, 'found': 0, 'libbpf_refused': 0}
found = os.path.join(WORK, 'found')


def u32(v):
    return v & 0xffffffff


def pick32(old, limit):
    r = rng.random()
    if r < 0.4:
        return rng.choice(BOUNDS)
    if r < 0.7:
        return u32(old + rng.choice([-2, -1, 1, 2, limit, -limit]))
    if r < 0.85:
        return u32(old ^ (1 << rng.randrange(32)))
    return rng.randrange(limit + 2)


def mutate_btf(data):
    d = bytearray(data)
    if len(d) < 24:
        return d
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<IIIII', d, 4)
    ntypes = max(1, type_len // 12)
    what = rng.random()
    if what < 0.15:  # a header field
        i = rng.randrange(5)
        struct.pack_into('<I', d, 4 + 4 * i, pick32(struct.unpack_from('<I', d, 4 + 4 * i)[0], len(d)))
    elif what < 0.25:  # version / flags
        d[rng.choice([2, 3])] = rng.choice([0, 1, 2, 0xff])
    elif what < 0.9 and type_len >= 4:  # a word of the type section
        for _ in range(rng.choice([1, 1, 2, 3])):
            off = 24 + type_off + 4 * rng.randrange(type_len // 4)
            if off + 4 > len(d):
                break
            old = struct.unpack_from('<I', d, off)[0]
            r = rng.random()
            if r < 0.3:  # as a type id
                new = rng.choice([0, ntypes, ntypes + 1, ntypes + 2, 0x7fffffff, old + 1, max(old - 1, 0)])
            elif r < 0.5:  # as a string offset
                new = rng.choice([str_len, str_len - 1, str_len + 1, 0, old + 1, 0xffffffff])
            elif r < 0.7:  # as an info word: kind, vlen, kflag
                new = (old & ~(0x1f << 24)) | (rng.randrange(32) << 24) if rng.random() < 0.5 else \
                    (old & ~0xffff) | rng.choice([0, 1, 2, 0xffff]) if rng.random() < 0.7 else old ^ (1 << 31)
            else:
                new = pick32(old, 1 << 16)
            struct.pack_into('<I', d, off, u32(new))
    elif str_len:  # the string section
        off = 24 + str_off + rng.randrange(str_len)
        if off < len(d):
            d[off] = rng.choice([0, ord('.'), ord('-'), 0xff, ord('a')])
    return d


def elf_sections(d):
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        return None
    shoff = struct.unpack_from('<Q', d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    if shentsize != 64 or shoff + shnum * 64 > len(d):
        return None
    secs = []
    for i in range(shnum):
        h = struct.unpack_from('<IIQQQQIIQQ', d, shoff + 64 * i)
        secs.append((shoff + 64 * i, h))
    stroff = secs[shstrndx][1][4] if shstrndx < shnum else 0

    def name(h):
        o = stroff + h[0]
        e = d.find(b'\0', o)
        return d[o:e].decode('latin1') if 0 <= o < len(d) and e >= 0 else ''
    return [(pos, h, name(h)) for pos, h in secs]


def mutate_elf(data):
    d = bytearray(data)
    secs = elf_sections(d)
    if not secs:
        return d
    what = rng.random()
    dwarf = [s for s in secs if s[2] in ('.debug_abbrev', '.debug_info', '.debug_str', '.debug_line')]
    if what < 0.35 or not dwarf:  # a section header field
        pos, h, _ = rng.choice(secs[1:])
        field = rng.choice([1, 2, 4, 5, 6, 7, 8, 9])  # type flags offset size link info addralign entsize
        fmt_off = [0, 4, 8, 16, 24, 32, 40, 44, 48, 56][field]
        wide = field in (2, 4, 5, 8, 9)
        old = h[field]
        if field == 8:
            new = rng.choice([0, 1, 3, 6, 1 << 20, 1 << 32, 1 << 40, 1 << 63])
        elif field in (4, 5):
            new = rng.choice([0, 1, 8, 64, len(d), len(d) - 1, old + 1, old * 2, 1 << 31, 1 << 62])
        else:
            new = pick32(old, 64)
        if wide:
            struct.pack_into('<Q', d, pos + fmt_off, new & (2**64 - 1))
        else:
            struct.pack_into('<I', d, pos + fmt_off, u32(new))
    else:  # DWARF bytes: abbreviation codes and forms, entries
        _, h, name = rng.choice(dwarf)
        off, size = h[4], h[5]
        if size and off + size <= len(d):
            for _ in range(rng.choice([1, 1, 2, 4])):
                p = off + rng.randrange(size)
                if name == '.debug_abbrev':
                    d[p] = rng.choice([0, 1, 0x0b, 0x13, 0x1a, 0x1e, 0x21, 0x25, 0x2c, 0x49, 0x7f, 0x80, d[p] ^ 1])
                else:
                    d[p] = rng.choice([0, 0xff, d[p] ^ (1 << rng.randrange(8)), (d[p] + 1) & 0xff])
    return d


def digest(path):
    try:
        with open(path, 'rb') as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def record(kind, mutant, args, why, out, err):
    stats['found'] += 1
    os.makedirs(found, exist_ok=True)
    n = stats['found']
    keep = os.path.join(found, '%03d-%s' % (n, os.path.basename(mutant)))
    shutil.copy(mutant + '.orig', keep)
    with open(keep + '.txt', 'w') as f:
        f.write('%s\n%s\n%s\n--- stdout\n%s\n--- stderr\n%s\n' % (kind, ' '.join(args), why,
                out[:2000].decode('latin1'), err[:4000].decode('latin1')))
    print('FOUND %s: %s: %s' % (kind, ' '.join(args), why), flush=True)


def run(tool, args, files, mutant, outputs=()):
    """files: those on the command line (an error names one); all but
    outputs must be unchanged"""
    argv = [os.path.join(B, tool)] + args
    before = {f: digest(f) for f in files if f not in outputs}
    stats['runs'] += 1
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20,
                           env=dict(os.environ, ASAN_OPTIONS='detect_leaks=1:abort_on_error=0'))
    except subprocess.TimeoutExpired:
        record('hang', mutant, argv, 'no answer in 20 s', b'', b'')
        return None
    rc, out, err = p.returncode, p.stdout, p.stderr
    text = err.decode('latin1')
    stats['last_err'] = text
    why = None
    if any(s in text for s in SAN):
        why = 'sanitizer report'
    elif rc < 0 or rc not in EXITS[tool]:
        why = 'exit status %d' % rc
    elif rc >= 2 and out:
        why = 'stdout not empty on failure (exit %d)' % rc
    elif rc >= 2:
        lines = [l for l in text.split('\n') if l]
        if not lines:
            why = 'no error message (exit %d)' % rc
        for l in lines:
            if not any(f in l for f in files):
                why = 'error line names no input: ' + l
                break
    for f, h in before.items():
        if digest(f) != h:
            why = 'input %s changed' % f
    if why:
        record(tool, mutant, argv, why, out, err)
    return rc


def libbpf(path):
    """libbpf's verdict: 'load ok', 'open ok' (not root), 'open ERRNO',
    'load ERRNO', or 'crash' (libbpf itself fell over: no verdict)"""
    args = [os.path.join(B, 'tests/fuzz/libbpf_open')] + (['--load'] if ROOT else []) + [path]
    try:
        # (libbpf's own leaks on failure paths are not ours: SAN=1 builds)
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20,
                           env=dict(os.environ, ASAN_OPTIONS='detect_leaks=0'))
    except subprocess.TimeoutExpired:
        return 'crash'
    out = p.stdout.decode('latin1').strip()
    return out if p.returncode == 0 and out else 'crash'


def opens(verdict):
    return verdict in ('open ok', 'load ok') or verdict.startswith('load ')


def bpf_case(m, seed_name):
    """the object invariants for one mutant m"""
    before = libbpf(m)
    if not opens(before):
        stats['libbpf_refused'] += 1
    rc = run('btfcheck', [m], [m], m)
    if rc == 0 and not opens(before) and before != 'crash':
        record('btfcheck', m, ['btfcheck', m], 'btfcheck says OK, libbpf refuses it: ' + before, b'', b'')
    cp = m + '.inplace.o'
    shutil.copy(m, cp)
    shutil.copy(m, cp + '.orig')
    rc = run('btfgen', ['--in-place', cp], [cp], cp, outputs=(cp,))
    if rc not in (0, None) and digest(cp) != digest(m):
        record('btfgen', m, ['btfgen --in-place', cp], 'refused (exit %d) but changed the file' % rc, b'', b'')
    if rc == 0:
        after = libbpf(cp)
        if opens(before) and not opens(after) or before == 'load ok' and after != 'load ok':
            record('btfgen', m, ['btfgen --in-place', cp], 'libbpf: %s before, %s after (seed %s)' % (
                before, after, seed_name), b'', b'')
        if run('btfcheck', [cp], [cp], cp) == 0 and not opens(after) and after != 'crash':
            record('btfcheck', m, ['btfcheck', cp], 'btfcheck says OK, libbpf refuses it: ' + after, b'', b'')
    for f in (cp, cp + '.orig'):
        if os.path.exists(f):
            os.unlink(f)


def campaign():
    os.makedirs(WORK, exist_ok=True)
    seeds = sorted(os.listdir(SEEDS))
    btfs = [s for s in seeds if s.endswith('.btf') and s != 'split.btf']
    elfs = [s for s in seeds if s.endswith('.o') or s.endswith('.so')]
    dwarf_elfs = [s for s in elfs if not s.endswith('.btf.o')]
    dwarf_obj = os.path.join(SEEDS, dwarf_elfs[0])
    split = os.path.join(SEEDS, 'split.btf')
    bpf_objs = [s for s in seeds if s.endswith('.bpf.o')]
    end = time.time() + SECONDS
    counts = {}
    while time.time() < end:
        kind = rng.choice(KINDS)
        counts[kind] = counts.get(kind, 0) + 1
        stats['mutants'] += 1
        tag = '%05d' % stats['mutants']
        if kind in ('btf', 'base'):
            seed = os.path.join(SEEDS, rng.choice(btfs))
            m = os.path.join(WORK, tag + '.btf')
            data = mutate_btf(open(seed, 'rb').read())
        elif kind == 'split':
            seed = split
            m = os.path.join(WORK, tag + '.split.btf')
            data = mutate_btf(open(seed, 'rb').read())
        elif kind == 'bpfobj':
            seed = os.path.join(SEEDS, rng.choice(bpf_objs))
            m = os.path.join(WORK, tag + '-' + os.path.basename(seed))
            data, what = bpfobj.mutate(open(seed, 'rb').read(), rng)
            counts['bpfobj: ' + what.split()[0]] = counts.get('bpfobj: ' + what.split()[0], 0) + 1
        else:
            seed = os.path.join(SEEDS, rng.choice(elfs if kind == 'elf' else dwarf_elfs))
            m = os.path.join(WORK, tag + '-' + os.path.basename(seed))
            data = mutate_elf(open(seed, 'rb').read())
        with open(m, 'wb') as f:
            f.write(data)
        shutil.copy(m, m + '.orig')
        out = os.path.join(WORK, tag + '.out.btf')
        base = os.path.join(SEEDS, 'base.btf')
        if kind == 'btf':
            run('btfcheck', [m], [m], m)
            run('btfdump', ['file', m], [m], m)
            run('btfdump', ['file', m, 'format', 'c'], [m], m)
            run('btfdump', ['file', m, 'format', 'c', '--sort'], [m], m)
        elif kind == 'base':
            # (btfgen checks a base for what it relies on, not with the
            # verifier: btfcheck refusing that base itself is no finding)
            if run('btfgen', ['--base', m, '-o', out, dwarf_obj], [m, dwarf_obj, out], m, outputs=(out,)) == 0:
                if run('btfcheck', ['--base', m, out], [m, out], m) not in (0, None) and \
                        ': bad base BTF' not in stats.get('last_err', ''):
                    record('btfgen', m, ['btfgen --base', m, dwarf_obj], 'split output rejected by btfcheck', b'', b'')
            run('btfdump', ['file', split, '--base', m, 'format', 'c'], [m, split], m)
            run('btfcheck', ['--base', m, split], [m, split], m)
        elif kind == 'split':
            run('btfdump', ['file', m, '--base', base], [m, base], m)
            run('btfdump', ['file', m, '--base', base, 'format', 'c'], [m, base], m)
            run('btfcheck', ['--base', base, m], [m, base], m)
        elif kind == 'bpfobj':
            bpf_case(m, os.path.basename(seed))
        elif kind == 'elf':
            if run('btfgen', ['-o', out, m], [m, out], m, outputs=(out,)) == 0:
                if run('btfcheck', [out], [out], m) != 0:
                    record('btfgen', m, ['btfgen -o', out, m], 'output rejected by btfcheck', b'', b'')
            run('btfdump', ['file', m], [m], m)
            run('btfcheck', [m], [m], m)
        else:  # --in-place: refused leaves the file as it was, done gives BTF btfcheck accepts
            rc = run('btfgen', ['--in-place', m], [m], m, outputs=(m,))
            if rc not in (0, None) and digest(m) != digest(m + '.orig'):
                record('btfgen', m, ['btfgen --in-place', m], 'refused (exit %d) but changed the file' % rc, b'', b'')
            if rc == 0 and run('btfcheck', [m], [m], m) != 0:
                record('btfgen', m, ['btfgen --in-place', m], '.BTF written in place rejected by btfcheck', b'', b'')
            leftovers = [f for f in os.listdir(WORK) if f.startswith('.') or '.tmp' in f]
            if leftovers:
                record('btfgen', m, ['btfgen --in-place', m], 'temporary files left: %s' % leftovers, b'', b'')
                for f in leftovers:
                    os.unlink(os.path.join(WORK, f))
        for f in (m, m + '.orig', out):
            if os.path.exists(f):
                os.unlink(f)
    print('campaign: seed %d, %.0f s: %d mutants (%s), %d tool runs, %d findings%s' % (
        SEED, SECONDS, stats['mutants'], ', '.join('%s %d' % kv for kv in sorted(counts.items())),
        stats['runs'], stats['found'],
        '; libbpf refused %d of them (%s)' % (stats['libbpf_refused'], 'open and load' if ROOT else 'open')
        if 'bpfobj' in KINDS else ''))
    return 1 if stats['found'] else 0


if __name__ == '__main__':
    sys.exit(campaign())
