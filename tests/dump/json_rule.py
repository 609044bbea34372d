#!/usr/bin/env python3
"""json_rule.py FILE EXPR: FILE must be valid UTF-8 JSON, and the Python
expression EXPR over it (as d) must hold.

Used by tests/dump/check_json_bytes.sh."""
import json, sys
raw = open(sys.argv[1], "rb").read()
try:
    d = json.loads(raw.decode("utf-8"))
except Exception as e:
    print("invalid JSON:", e)
    sys.exit(1)
if not eval(sys.argv[2]):
    print("JSON parses, but not as the rule says:", repr(d)[:400])
    sys.exit(1)
