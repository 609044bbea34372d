#!/usr/bin/env python3
"""line_info_vs_source.py JSON RAW OBJ: every line_info record of btfdump's
JSON ext output names the source line the raw output and the file show.

Used by tests/dump/check_ext.sh."""
import json, sys
doc = json.load(open(sys.argv[1]))
raw = open(sys.argv[2]).read().split("\n")
n = checked = 0
for sec in doc["line_info"]:
    for r in sec["records"]:
        n += 1
        if r["line"] == 0:
            continue
        with open(r["file"], errors="replace") as f:
            lines = f.read().split("\n")
        want = lines[r["line"] - 1] if r["line"] <= len(lines) else None
        if want != r["src"]:
            print("FAIL: %s: %s:%d is %r on disk, the dump says %r" %
                  (sys.argv[3], r["file"], r["line"], want, r["src"]))
            sys.exit(1)
        checked += 1
raw_n = sum(1 for i, l in enumerate(raw) if l.startswith("\tinsn_off=") and
            any(h.startswith("line_info:") for h in raw[:i]) and
            not any(h.startswith("core_relo:") for h in raw[:i]))
if raw_n != n or checked == 0:
    print("FAIL: %s: %d line_info records in JSON (%d with a line), %d in raw text" % (sys.argv[3], n, checked, raw_n))
    sys.exit(1)
