#!/bin/bash
# Every JSON output is valid JSON whatever bytes its strings hold (issue 28
# item 7): control characters as \u00XX (bpftool's \t \n \r \f \b kept),
# each byte outside valid UTF-8 as \u00XX (the code point of its value, as
# Latin-1 reads it), valid UTF-8 as it is. Checked with python3's
# json.loads on the output decoded as strict UTF-8, and the decoded strings
# against the rule: `btfdump -j/-p ext` (source lines, lossless: a
# backslash stays one), `btfdump -j/-p file` (type and member names,
# bpftool's spelling: a backslash is \n as bpftool 7.1 writes it) and
# `btfcheck --json` (a file name).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
need_tools "$BPF_CLANG"
# the source line: \001, a tab, \377 \300 \200 (not UTF-8), é (UTF-8), a
# backslash, a quote, DEL, \002 and \355\240\200 (a UTF-16 surrogate
# encoded, which UTF-8 forbids)
printf 'int counter;\n/* c:\001 t:\t x:\377\300\200 u:\303\251 b:\\ q:" d:\177 s:\002\355\240\200 */ int f(void *ctx) { return counter; }\n' >"$T/w.c"
bpf_cc -g -O2 -c -o "$T/w.o" "$T/w.c" || { echo "FAIL: clang-16"; exit 1; }
# a raw BTF: INT named a\001\377\\"z, STRUCT named s\tX\x80 with a member
# named m\033\303\251
python3 tests/dump/odd_names_btf.py "$T/w.btf"
bytes_name=$(printf 'n\001\377.btf')
cp "$T/w.btf" "$T/$bytes_name"
check() { # check WHAT PYTHON-EXPR-ON-d COMMAND...
	local what=$1 expr=$2
	shift 2
	# the exit status is not the point (btfcheck rejects these names)
	"$@" >"$T/out" 2>"$T/err"
	[ -s "$T/out" ] || { bad "$what: $* printed nothing: $(head -c 300 "$T/err")"; return; }
	python3 tests/dump/json_rule.py "$T/out" "$expr" || bad "$what: $(head -c 400 "$T/out")"
}
src='"/* c:\x01 t:\t x:\xff\xc0\x80 u:\xe9 b:\\ q:\" d:\x7f s:\x02\xed\xa0\x80 */"'
check "btfdump -j ext" "all(r['src'].startswith($src) for s in d['line_info'] for r in s['records'])" \
	"$B/btfdump" -j ext "$T/w.o"
check "btfdump -p ext" "all(r['src'].startswith($src) for s in d['line_info'] for r in s['records'])" \
	"$B/btfdump" -p ext "$T/w.o"
names="[t['name'] for t in d['types']] == ['a\x01\xff\n\"z', 's\tX\x80'] and d['types'][1]['members'][0]['name'] == 'm\x1b\xe9'"
check "btfdump -j file" "$names" "$B/btfdump" -j file "$T/w.btf"
check "btfdump -p file" "$names" "$B/btfdump" -p file "$T/w.btf"
check "btfcheck --json" "d['file'].endswith('/n\x01\xff.btf')" "$B/btfcheck" --json "$T/$bytes_name"
[ $fail -eq 0 ] && echo "PASS: 5 JSON outputs valid whatever the bytes of their strings"
exit $fail
