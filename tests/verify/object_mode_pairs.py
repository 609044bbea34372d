#!/usr/bin/env python3
"""object_mode_pairs.py PAIRS: btfcheck's object-mode verdicts against
libbpf's reference load, one tab-separated line per case.

Used by tests/verify/check_object_mode.sh."""
import json, re, sys
bad = n = kinds = 0
seen = set()
for line in open(sys.argv[1]):
    f, ref, rec = line.rstrip("\n").split("\t")
    n += 1
    try:
        ref = ref.rstrip("|").split("|")
        bc = json.loads(rec)
        assert bc["mode"] == "object", bc
        w = ref[0].split(" ", 3)
        seen.add(w[0] + (" " + w[1] if w[0] == "open" else ""))
        if w[0] == "open":
            assert bc["libbpf_open"] is False and bc["errno"] == int(w[1]), (w, bc)
        elif w[0] == "nobtf":
            assert bc["libbpf_open"] is True and bc["btf"] is False and bc["valid"] is True, bc
            assert w[1] == "0", ("libbpf did not load it", w)
            assert ref[1] == "bytes none", ref
        elif w[0] == "btf" and w[1] == "ok":
            assert bc["libbpf_open"] and bc["valid"] is True, bc
        elif w[0] == "btf" and w[1] == "rejected":
            assert bc["libbpf_open"] and bc["valid"] is False, bc
            assert bc["errno"] == int(w[2]), (w, bc)
            assert bc["reason"] == w[3], (w[3], bc["reason"])
        else:
            raise AssertionError("reference says %r" % ref)
        if w[0] == "btf":
            assert ref[1] == "bytes same", ref
        assert not re.fullmatch(r"E[0-9]+", bc["errno_name"]), ("errno by number", bc)
    except (AssertionError, KeyError, ValueError, IndexError) as e:
        print("FAIL: %s: %s" % (f, str(e)[:400]))
        bad = 1
print("compared %d objects with libbpf" % n)
# the objects without .BTF cover all three of libbpf's answers
for want in ("nobtf", "open 2", "open 3"):
    if want not in seen:
        print("FAIL: no case gave libbpf's %r" % want)
        bad = 1
sys.exit(bad)
