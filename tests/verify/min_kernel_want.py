#!/usr/bin/env python3
"""min_kernel_want.py JSON NAME VERSION WHY WHY_TYPE_ID WITH_LIBBPF: the
min_kernel object of btfcheck's JSON is the one wanted.

Used by tests/verify/check_min_kernel.sh."""
import json, sys
m = json.loads(sys.argv[1])["min_kernel"]
got = (m["version"], m["why"], str(m["why_type_id"]), m["with_libbpf"])
if got != tuple(sys.argv[3:7]):
    print("FAIL: %s: min_kernel %r, want %r" % (sys.argv[2], got, tuple(sys.argv[3:7]))); sys.exit(1)
