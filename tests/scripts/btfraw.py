"""Raw BTF blobs for tests: the one place that writes a BTF header.

raw_btf(types, strs) -> bytes: a little-endian raw BTF (magic 0xeb9f,
version 1, 24-byte header) with the type section `types` and the string
section `strs` (both bytes, already encoded) right after it.
write_btf(path, types, strs): the same, written to path.
"""
import struct

HDR_FMT = "<HBBIIIII"  # magic, version, flags, hdr_len, type_off/len, str_off/len


def raw_btf(types, strs):
    hdr = struct.pack(HDR_FMT, 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(strs))
    return hdr + types + strs


def write_btf(path, types, strs):
    with open(path, "wb") as f:
        f.write(raw_btf(types, strs))
