#!/usr/bin/env python3
"""libbpf_open_agree.py OBJ REF RC JSON ERR: btfcheck's verdict on OBJ agrees
with libbpf's open (its reference line REF and its stderr ERR).

Used by tests/verify/check_libbpf_open.sh."""
import json, sys
o, ref, rc, path, err = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], open(sys.argv[5]).read()
try:
    bc = json.load(open(path))
except ValueError:
    print("FAIL: %s: btfcheck (exit %d) wrote no JSON" % (o, rc)); sys.exit(1)
if ref == "open ok":
    if bc.get("libbpf_open") is False:
        print("FAIL: %s: libbpf opens it, btfcheck says it would not: %s" % (o, bc.get("reason")))
        sys.exit(1)
    sys.exit(0)
code = int(ref.split()[1])
if bc.get("libbpf_open") is not False or bc.get("errno") != code or rc != 1:
    print("FAIL: %s: libbpf refuses it (errno %d: %s), btfcheck (exit %d): %s" % (
        o, code, err.strip().replace("\n", " | "), rc, json.dumps(bc)[:300]))
    sys.exit(1)
# libbpf's warning lines (libbpf: ...) that say why: btfcheck's reason holds the last
why = [l[len("libbpf: "):] for l in err.splitlines() if l.startswith("libbpf: ") and "skipping" not in l]
if why and why[-1].strip() not in bc.get("reason", ""):
    print("FAIL: %s: libbpf says '%s', btfcheck '%s'" % (o, why[-1].strip(), bc.get("reason")))
    sys.exit(1)
