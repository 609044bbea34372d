#!/usr/bin/env python3
"""Mutated copies of a BTF blob with a layout section (host byte order,
little endian), for tests/parse/check_layout.sh: each is one rule of the
layout section or of the wide info fields, bent one way.

    btf_layout_mut.py IN OUTDIR    writes OUTDIR/<name>.btf, one per case
"""
import struct
import sys

HDR = struct.Struct("<HBBIIIIIII")  # magic .. layout_len: 32 bytes


def split(blob):
    (magic, ver, flags, hdr_len, type_off, type_len, str_off, str_len,
     layout_off, layout_len) = HDR.unpack_from(blob)
    body = blob[hdr_len:]
    return {
        "magic": magic, "ver": ver, "flags": flags, "hdr_len": hdr_len,
        "types": bytearray(body[type_off:type_off + type_len]),
        "layout": bytearray(body[layout_off:layout_off + layout_len]),
        "strs": bytearray(body[str_off:str_off + str_len]),
    }


def join(p, layout_off=None, layout_len=None, str_off=None, hdr_len=32):
    """types, layout, strings in that order (libbpf's), offsets overridable"""
    t, lay, s = p["types"], p["layout"], p["strs"]
    lo = len(t) if layout_off is None else layout_off
    ll = len(lay) if layout_len is None else layout_len
    so = len(t) + len(lay) if str_off is None else str_off
    hdr = HDR.pack(p["magic"], p["ver"], p["flags"], hdr_len, 0, len(t), so,
                   len(s), lo, ll)[:hdr_len]
    hdr += bytes(max(0, hdr_len - len(hdr)))
    return hdr + bytes(t) + bytes(lay) + bytes(s)


def add_str(p, name):
    off = len(p["strs"])
    p["strs"] += name.encode() + b"\0"
    return off


def add_type(p, kind, vlen, rest, name="newkind"):
    info = (kind << 24) | vlen
    p["types"] += struct.pack("<III", add_str(p, name), info, 0) + rest


def set_layout(p, kind, info_sz, elem_sz, flags=0):
    lay = p["layout"]
    while len(lay) < 4 * (kind + 1):
        lay += bytes(4)
    struct.pack_into("<BBH", lay, 4 * kind, info_sz, elem_sz, flags)


def cases(blob):
    out = {}

    def case(name, fn):
        p = split(blob)
        out[name] = fn(p)

    # kinds past the encoder's 20, sized by their layout entries
    def unknown(kind, info_sz, elem_sz, vlen):
        def fn(p):
            set_layout(p, kind, info_sz, elem_sz, flags=0x1234)
            rest = info_sz + elem_sz * vlen
            add_type(p, kind, vlen, bytes(rest + -rest % 4))  # whole words
            add_type(p, 1, 0, struct.pack("<I", 32), name="after_int")  # INT after it
            return join(p)
        return fn
    case("unknown20", unknown(20, 4, 8, 3))
    case("unknown37", unknown(37, 0, 0, 0))      # 5-bit kind: 37 & 0x1f is UNION
    case("unknown127", unknown(127, 8, 4, 5))
    case("unknown_wide_vlen", unknown(21, 0, 4, 0x10001))
    # kind 0 is sized by its layout entry too (libbpf: no switch case for it)
    case("kind0", unknown(0, 0, 0, 0))
    # unknown kinds the layout cannot size
    def past_layout(p):
        add_type(p, 40, 0, b"")
        return join(p)
    case("bad_past_layout", past_layout)
    case("bad_info_sz", unknown(22, 2, 0, 0))
    case("bad_elem_sz", unknown(23, 0, 6, 1))
    # the section's own bounds
    case("bad_layout_off_unaligned", lambda p: join(p, layout_off=len(p["types"]) + 2))
    case("bad_layout_len_partial", lambda p: join(p, layout_len=len(p["layout"]) - 2))
    case("bad_layout_in_types", lambda p: join(p, layout_off=len(p["types"]) - 4))
    case("bad_layout_past_strs", lambda p: join(p, layout_len=len(p["layout"]) + 4))
    # an empty layout section, wherever its offset points: none
    case("empty_layout", lambda p: join(p, layout_off=1, layout_len=0))
    # a header of 28 bytes: layout_off only, no layout_len: no section
    def hdr28(p):
        p["layout"] = bytearray()
        return join(p, hdr_len=28)
    case("hdr28", hdr28)
    # a 24-byte header and a kind the library knows: no layout needed
    def hdr24(p):
        p["layout"] = bytearray()
        return join(p, hdr_len=24)
    case("hdr24", hdr24)
    # an unknown kind and no layout section at all
    def hdr24_unknown(p):
        p["layout"] = bytearray()
        add_type(p, 25, 0, b"")
        return join(p, hdr_len=24)
    case("bad_hdr24_unknown", hdr24_unknown)
    return out


def to_big_endian(blob):
    """the header's fields, every word of the types, the layout's flags"""
    hdr_len = struct.unpack_from("<I", blob, 4)[0]
    n = min(hdr_len, 32)
    f = list(HDR.unpack_from(blob[:n] + bytes(32 - n)))
    out = bytearray(blob)
    out[:n] = struct.pack(">HBBIIIIIII", *f)[:n]
    t0, tl, lo, ll = hdr_len + f[4], f[5], hdr_len + f[8], f[9]
    for i in range(t0, t0 + tl - 3, 4):
        out[i:i + 4] = out[i:i + 4][::-1]
    if n == 32:
        for i in range(lo + 2, lo + ll - 1, 4):
            out[i:i + 2] = out[i:i + 2][::-1]
    return bytes(out)


def main():
    blob = open(sys.argv[1], "rb").read()
    all_cases = cases(blob)
    # the same in big endian: libbpf swaps known kinds only
    all_cases.update({"be_" + k: to_big_endian(v) for k, v in list(all_cases.items())})
    for name, data in all_cases.items():
        with open("%s/%s.btf" % (sys.argv[2], name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
