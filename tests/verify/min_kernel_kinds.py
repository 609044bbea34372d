#!/usr/bin/env python3
"""min_kernel_kinds.py JSON: btfcheck --min-kernel --json on kinds.bpf.o says
what the test expects (version, why, libbpf's view).

Used by tests/verify/check_min_kernel.sh."""
import json, sys
m = json.loads(open(sys.argv[1]).read())["min_kernel"]
want = {"version": "6.0", "why": "ENUM64", "with_libbpf": "5.0",
        "with_libbpf_why": "STRUCT/UNION kind_flag (bitfield member offsets)",
        "libbpf_sanitizes": ["func", "datasec", "global_func", "float", "decl_tag", "type_tag", "enum64"]}
for key, v in want.items():
    if m[key] != v:
        print("FAIL: min_kernel %s: %r, want %r" % (key, m[key], v)); sys.exit(1)
