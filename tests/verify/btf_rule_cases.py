#!/usr/bin/env python3
"""Raw BTF blobs for tests/verify/check_target_rules.sh: the header, section
and info-field rules that differ between btfcheck's rule sets, each blob
with the verdict kernel/bpf/btf.c gives it under each set:

  6.18  the default (Linux 6.15-6.18: 24-byte header, two sections,
        info bits 16-23 and 29-30 must be zero)
  7.1   626e88c070ee "btf: Support kernel parsing of BTF with layout info"
        (btf_parse_hdr copies 32 bytes, btf_check_sec_info sorts three
        sections, btf_parse_str_sec lets the strings come before the
        layout, btf_parse_layout_sec)
  7.2   f7a6b9eaff3e "bpf: Extend BTF UAPI vlen, kinds to use unused bits"
        (BTF_INFO_MASK gone: 24-bit vlen, 7-bit kind)

The cases follow the kernel selftests' raw BTF tests of these features
(tools/testing/selftests/bpf/prog_tests/btf.c: a header field bent one way,
the verdict and the log's last line). Writes OUTDIR/NAME.btf and prints one
line per case and rule set: NAME RULES EXPECTED, EXPECTED being "OK" or
"rejected: LAST LOG LINE (ERRNO)" as btfcheck prints it.

    btf_rule_cases.py OUTDIR
"""
import struct
import sys

# info_sz, elem_sz of kinds 0..19 (what libbpf 1.8 writes; the kernel reads
# the section's bounds, not its entries)
LAYOUT = [(0, 0), (4, 0), (0, 0), (12, 0), (0, 12), (0, 12), (0, 8), (0, 0),
          (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 8), (4, 0), (0, 12),
          (0, 0), (4, 0), (0, 0), (0, 12)]
LAYOUT_BYTES = b"".join(struct.pack("<BBH", i, e, 0) for i, e in LAYOUT)

STRS = b"\0int\0\0\0\0"  # 8 bytes: what follows stays aligned
INT = struct.pack("<IIII", 1, 1 << 24, 4, 32)  # [1] INT 'int' size 4, 32 bits


def func_proto(nargs):
    """FUNC_PROTO returning int with nargs anonymous int args"""
    return struct.pack("<III", 0, (13 << 24) | nargs, 1) + struct.pack("<II", 0, 1) * nargs


def wide_struct(n):
    """[2] TYPEDEF 'int' of [1], [3] STRUCT of n members of type [2]"""
    td = struct.pack("<III", 1, 8 << 24, 1)
    st = struct.pack("<III", 0, (4 << 24) | n, 4 * n)
    return INT + td + st + b"".join(struct.pack("<III", 0, 2, 32 * i) for i in range(n))


def blob(types=INT, strs=STRS, layout=LAYOUT_BYTES, order="tls", hdr_len=32,
         tail=b"", **over):
    """sections in ORDER (t types, l layout, s strings), a header of
    HDR_LEN bytes (TAIL past the 32 known), offsets overridable"""
    secs = {"t": types, "l": layout, "s": strs}
    off, body = {}, b""
    for k in order:
        off[k] = len(body)
        body += secs[k]
    f = {"type_off": off.get("t", 0), "type_len": len(types),
         "str_off": off.get("s", 0), "str_len": len(strs),
         "layout_off": off.get("l", 0), "layout_len": len(layout) if "l" in order else 0}
    f.update(over)
    hdr = struct.pack("<HBBIIIIIII", 0xEB9F, 1, 0, hdr_len, f["type_off"], f["type_len"],
                      f["str_off"], f["str_len"], f["layout_off"], f["layout_len"])
    hdr = (hdr + tail)[:hdr_len]
    return hdr + bytes(hdr_len - len(hdr)) + body


OK = "OK"


def rej(msg, errno="EINVAL"):
    return "rejected: %s (%s)" % (msg, errno)


UNSUPP_HDR = rej("Unsupported btf_header", "E2BIG")
CASES = [
    # libbpf's order: types, layout, strings
    ("layout", blob(), UNSUPP_HDR, OK, OK),
    # a 32-byte header without a layout section: its tail is zero
    ("hdr32_no_layout", blob(order="ts"), OK, OK, OK),
    # strings first: only a header that has a layout may do that
    ("hdr32_strs_first", blob(order="st"), rej("String section is not at the end"), OK, OK),
    ("hdr24_strs_first", blob(order="st", hdr_len=24),
     rej("String section is not at the end"), rej("String section is not at the end"),
     rej("String section is not at the end")),
    ("layout_strs_between", blob(order="tsl"), UNSUPP_HDR, OK, OK),
    # the layout section's own checks, in btf_parse_layout_sec's order
    ("layout_unaligned", blob(strs=b"\0int\0x\0", order="tsl"), UNSUPP_HDR,
     rej("Unaligned layout_off"), rej("Unaligned layout_off")),
    ("layout_too_small", blob(layout=b"\0\0"), UNSUPP_HDR,
     rej("Layout section is too small"), rej("Layout section is too small")),
    ("layout_not_multiple", blob(layout=LAYOUT_BYTES[:6]), UNSUPP_HDR,
     rej("layout_len is not multiple of 4"), rej("layout_len is not multiple of 4")),
    # three sections: no gap, no overlap, all within the blob
    ("layout_overlaps_types", blob(layout_off=len(INT) - 4), UNSUPP_HDR,
     rej("Section overlap found"), rej("Section overlap found")),
    ("layout_past_end", blob(order="tl", str_off=0, str_len=0,
                             layout_len=len(LAYOUT_BYTES) + 4),
     UNSUPP_HDR, rej("Total section length too long"), rej("Total section length too long")),
    ("layout_gap", blob(types=INT, order="tls", layout_off=len(INT) + 4,
                        layout_len=len(LAYOUT_BYTES) - 4),
     UNSUPP_HDR, rej("Unsupported section found"), rej("Unsupported section found")),
    ("layout_offset_wraps", blob(layout_off=0x90000000), UNSUPP_HDR,
     rej("Invalid section offset"), rej("Invalid section offset")),
    # header lengths around the 32 bytes
    ("hdr28", blob(order="ts", hdr_len=28, layout_off=8), UNSUPP_HDR, OK, OK),
    ("hdr40_zero_tail", blob(hdr_len=40), UNSUPP_HDR, OK, OK),
    ("hdr40_tail", blob(hdr_len=40, tail=b"\0\0\0\0\1"), UNSUPP_HDR, UNSUPP_HDR, UNSUPP_HDR),
    # the info field: a vlen past 16 bits, kinds past 5 bits
    ("wide_vlen", blob(types=INT + func_proto(0x10001), order="ts", hdr_len=24),
     rej("[2] Invalid btf_info:d010001"), rej("[2] Invalid btf_info:d010001"), OK),
    ("wide_struct", blob(types=wide_struct(0x10001), order="ts", hdr_len=24),
     rej("[3] Invalid btf_info:4010001"), rej("[3] Invalid btf_info:4010001"), OK),
    ("kind37", blob(types=INT + struct.pack("<III", 0, 37 << 24, 0), order="ts", hdr_len=24),
     rej("[2] Invalid btf_info:25000000"), rej("[2] Invalid btf_info:25000000"),
     rej("[2] Invalid kind:37")),
    ("kind20", blob(types=INT + struct.pack("<III", 0, 20 << 24, 0)),
     UNSUPP_HDR, rej("[2] Invalid kind:20"), rej("[2] Invalid kind:20")),
    ("int_vlen_bit16", blob(types=struct.pack("<IIII", 1, (1 << 24) | 0x10000, 4, 32),
                            order="ts", hdr_len=24),
     rej("[1] Invalid btf_info:1010000"), rej("[1] Invalid btf_info:1010000"),
     rej("[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=(none) vlen != 0")),
]


def main():
    for name, data, *expect in CASES:
        with open("%s/%s.btf" % (sys.argv[1], name), "wb") as f:
            f.write(data)
        for rules, e in zip(("6.18", "7.1", "7.2"), expect):
            print(name, rules, e)


if __name__ == "__main__":
    main()
