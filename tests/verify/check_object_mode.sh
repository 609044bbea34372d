#!/bin/bash
# btfcheck's object mode against libbpf itself: for every corpus object
# ($B/corpus/*.bpf.o, the linked $B/corpus/link.o) and broken copies of each
# (tests/verify/btf_patch.py: a bad member type id, a bad struct name, a
# member past its struct, a DATASEC entry past its section), libbpf's own
# open + load on the running kernel (tests/verify/libbpf_btf.c) and
# `btfcheck --json` must give the same verdict, errno and last log line (or
# the same open failure), and the BTF libbpf loaded must be byte-identical
# to libbtf's lbtf_object_btf(). Then --raw: a rejection libbpf's fixups
# cure carries one hint line, one they do not cure none. All cases in one
# command give the records they give one command each.
B=${B:-build}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: libbpf's reference load needs root (BPF_BTF_LOAD)"
	exit 77
fi
REF=$B/tests/verify/libbpf_btf BC=$B/btfcheck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

objs=("$B"/corpus/*.bpf.o "$B/corpus/link.o")
[ ${#objs[@]} -ge 7 ] || bad "corpus objects missing: ${objs[*]}"
for o in "${objs[@]}"; do
	[ -f "$o" ] || bad "$o missing"
done
mapfile -t broken < <(python3 tests/verify/btf_patch.py "$tmp" "${objs[@]}")
cases=("${objs[@]}" "${broken[@]}")
[ ${#broken[@]} -ge 20 ] || bad "only ${#broken[@]} broken variants: ${broken[*]}"

# one reference line pair and one btfcheck record per case, compared at once
: >"$tmp/pairs"
for f in "${cases[@]}"; do
	"$REF" "$f" >"$tmp/ref" 2>"$tmp/ref.err"; rc=$?
	[ $rc = 0 ] || { bad "$f: libbpf_btf exit $rc $(head -c 300 "$tmp/ref.err")"; continue; }
	"$BC" --json "$f" >"$tmp/bc" 2>/dev/null
	cat "$tmp/bc" >>"$tmp/each"
	printf '%s\t%s\t%s\n' "$f" "$(tr '\n' '|' <"$tmp/ref")" "$(cat "$tmp/bc")" >>"$tmp/pairs"
done
# all cases in one command (of several sizes: the inputs before the last
# are read into one reused buffer, the last is mapped): the same records
"$BC" --json "${cases[@]}" >"$tmp/all" 2>/dev/null
cmp -s "$tmp/each" "$tmp/all" ||
	bad "one command over ${#cases[@]} cases differs from one command each: $(diff "$tmp/each" "$tmp/all" | head -c 600)"
python3 - "$tmp/pairs" <<'PY' || fail=1
import json, sys
bad = n = 0
for line in open(sys.argv[1]):
    f, ref, rec = line.rstrip("\n").split("\t")
    n += 1
    try:
        ref = ref.rstrip("|").split("|")
        bc = json.loads(rec)
        assert bc["mode"] == "object", bc
        w = ref[0].split(" ", 3)
        if w[0] == "open":
            assert bc["libbpf_open"] is False and bc["errno"] == int(w[1]), (w, bc)
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
    except (AssertionError, KeyError, ValueError, IndexError) as e:
        print("FAIL: %s: %s" % (f, str(e)[:400]))
        bad = 1
print("compared %d objects with libbpf" % n)
sys.exit(bad)
PY

# --raw: clang's object as stored (DATASEC size 0) is rejected, with the hint
o=$B/corpus/maps_tc.bpf.o
"$BC" --raw "$o" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || bad "--raw $o: exit $rc, want 1"
[ "$(grep -c "hint: libbpf's fixups before loading (.*datasec_size.*) cure this" "$tmp/err")" = 1 ] ||
	bad "--raw $o: no hint line: $(cat "$tmp/err")"
"$BC" --raw --json "$o" >"$tmp/out" 2>/dev/null
grep -q '"mode":"raw".*"hint":"libbpf' "$tmp/out" || bad "--raw --json: no hint: $(cat "$tmp/out")"
c=$tmp/maps_tc.bpf.name.o
"$BC" --raw "$c" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || bad "--raw $c: exit $rc"
grep -q "hint:" "$tmp/err" && bad "--raw $c: a hint where libbpf's fixups do not help: $(cat "$tmp/err")"
"$BC" "$o" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && grep -q "OK \[BPF object: the BTF libbpf loads; fixups: datasec_size" "$tmp/err" ||
	bad "object mode on $o: exit $rc, $(cat "$tmp/err")"
exit $fail
