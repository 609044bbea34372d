#!/bin/bash
# btfdump on bad input: the exit status of the shared table (cli/cli.h:
# 2 usage, 4 bad input, 5 I/O), exactly one line on stderr naming the
# file and the problem, nothing on stdout (no partial output that could be
# taken for a result), in raw and JSON modes. Also: a write error on stdout
# is reported and fails.
. "$(dirname "$0")/../lib.sh"
dump=$B/btfdump
swap=$B/tests/dump/btf_swap
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$dump" ] && [ -x "$swap" ] || { echo "FAIL: $dump or $swap not built"; exit 1; }
need_tools "$BPF_CLANG"

fails=0 checks=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_err EXIT LABEL WHAT-MUST-BE-NAMED PROBLEM-REGEX btfdump-args...
expect_err() {
	local code=$1 label=$2 name=$3 problem=$4 mode rc
	shift 4
	for mode in "" -j; do
		checks=$((checks + 1))
		$dump $mode "$@" >"$T/out" 2>"$T/err"
		rc=$?
		if [ $rc -ne "$code" ]; then
			bad "$label $mode: exit $rc, expected $code"
		elif [ -s "$T/out" ]; then
			bad "$label $mode: printed $(wc -c <"$T/out") bytes on stdout"
		elif [ "$(wc -l <"$T/err")" -ne 1 ]; then
			bad "$label $mode: stderr is not one line:"; sed 's/^/    /' "$T/err"
		elif ! grep -qF -- "$name" "$T/err"; then
			bad "$label $mode: message does not name $name: $(cat "$T/err")"
		elif ! grep -qiE -- "$problem" "$T/err"; then
			bad "$label $mode: message does not say /$problem/: $(cat "$T/err")"
		else
			[ -z "$mode" ] && echo "ok   $label: $(cat "$T/err")"
		fi
	done
}

# patch FILE OFFSET HEXBYTES: overwrite bytes in place
patch() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# le64 N: 16 hex digits, little endian
le64() { printf '%016x' "$1" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i }'; }

obj=$T/kinds.o
bpf_cc -g -O2 -c "$here/kinds.bpf.c" -o "$obj" 2>/dev/null || { bad "clang-16 failed"; exit 1; }
$swap --native "$obj" "$T/k.btf" || { bad "btf_swap failed"; exit 1; }
size=$(stat -c %s "$T/k.btf")

expect_err 5 "missing file" "$T/nope" "no such file" file "$T/nope"
expect_err 4 "directory" "$T" "directory" file "$T"
: >"$T/empty"
expect_err 4 "empty file" "$T/empty" "empty" file "$T/empty"
printf "just some text, clearly not BTF at all\n" >"$T/text"
expect_err 4 "text file" "$T/text" "not BTF|magic" "$T/text"
# raw BTF cut short: inside the header, inside the types, inside the strings
for cut in 1 2 8 23 24 60 $((size / 2)) $((size - 1)); do
	head -c $cut "$T/k.btf" >"$T/cut$cut"
	expect_err 4 "raw BTF cut at $cut of $size bytes" "$T/cut$cut" \
		"too small|truncated|exceeds|not BTF|header" file "$T/cut$cut"
done
# an ELF without .BTF (no -g)
bpf_cc -O2 -c "$here/kinds.bpf.c" -o "$T/nog.o" 2>/dev/null
expect_err 4 "ELF without .BTF" "$T/nog.o" "no \.BTF" file "$T/nog.o"
# an ELF cut inside its header, and before its section headers
head -c 40 "$obj" >"$T/elfhead.o"
expect_err 4 "ELF cut in its header" "$T/elfhead.o" "truncated" file "$T/elfhead.o"
head -c $(( $(stat -c %s "$obj") - 100 )) "$obj" >"$T/elfcut.o"
expect_err 4 "ELF cut before its section headers" "$T/elfcut.o" "truncated" file "$T/elfcut.o"
# .BTF section header patched: data past the end of the file; NOBITS; bad magic
shoff=$(readelf -h "$obj" | awk '/Start of section headers/ { print $5 }')
idx=$(readelf -S -W "$obj" | awk '$2 == ".BTF" { gsub(/[][]/, "", $1); print $1 }')
[ -z "$idx" ] && idx=$(readelf -S -W "$obj" | sed -n 's/^ *\[ *\([0-9]*\)\] \.BTF .*/\1/p')
btfoff=$((0x$(readelf -S -W "$obj" | awk '/ \.BTF / { for (i = 1; i <= NF; i++) if ($i == "PROGBITS") print $(i + 2) }')))
shdr=$((shoff + idx * 64))
cp "$obj" "$T/bigsize.o"; patch "$T/bigsize.o" $((shdr + 32)) "$(le64 $((1 << 30)))"
expect_err 4 ".BTF larger than the file" "$T/bigsize.o" "truncated" file "$T/bigsize.o"
cp "$obj" "$T/nobits.o"; patch "$T/nobits.o" $((shdr + 4)) 08000000
expect_err 4 ".BTF NOBITS" "$T/nobits.o" "NOBITS|no data" file "$T/nobits.o"
cp "$obj" "$T/badmagic.o"; patch "$T/badmagic.o" $btfoff 0000
expect_err 4 ".BTF with a bad magic" "$T/badmagic.o" "not BTF|magic" file "$T/badmagic.o"
cp "$T/k.btf" "$T/badtype.btf"; patch "$T/badtype.btf" 8 ffffff00
expect_err 4 "raw BTF type_off out of range" "$T/badtype.btf" "exceeds|offset|section" file "$T/badtype.btf"
# base problems name the base file
expect_err 5 "missing base" "$T/nobase" "no such file" file "$T/k.btf" --base "$T/nobase"
expect_err 4 "text base" "$T/text" "not BTF|magic" file "$T/k.btf" --base "$T/text"
# usage errors are one line too
expect_err 2 "unknown format" "xyz" "format" file "$T/k.btf" format xyz
expect_err 2 "bad id" "abc" "id" id abc

# format c: the whole header or nothing on stdout, errors naming the file.
# mkbtf NAME KIND: 30,000 nested anonymous structs (valid: the kernel loads
# it, and the dump prints it whole, issue 28); a struct that embeds itself
# (the C dump cannot print it)
mkbtf() {
	python3 tests/dump/deep_structs_btf.py "$1" "$2"
}
mkbtf "$T/nested.btf" nested
mkbtf "$T/selfembed.btf" self
for sort in "" --sort; do
	checks=$((checks + 1))
	# shellcheck disable=SC2086 # no --sort is no argument
	$dump file "$T/nested.btf" format c $sort >"$T/out" 2>"$T/err"; rc=$?
	levels=$(grep -c 'struct {$' "$T/out")
	if [ $rc -ne 0 ] || [ "$levels" -ne 30000 ] || [ -s "$T/err" ]; then
		bad "format c $sort, 30,000 nested anonymous structs: exit $rc, $levels levels, $(head -c 200 "$T/err")"
	else
		echo "ok   format c $sort: 30,000 nested anonymous structs printed"
	fi
done
expect_err 4 "format c, a struct embedding itself" "$T/selfembed.btf" "cycle" \
	file "$T/selfembed.btf" format c
expect_err 2 "format c, unknown --types name" "$T/k.btf" "no type named" \
	file "$T/k.btf" format c --types no_such_type

# a write error is an error, not a silent truncated dump
checks=$((checks + 1))
if [ -w /dev/full ]; then
	$dump file "$T/k.btf" >/dev/full 2>"$T/err"; rc=$?
	if [ $rc -ne 5 ] || ! grep -qi "write" "$T/err"; then
		bad "write error: exit $rc, stderr: $(cat "$T/err")"
	else
		echo "ok   write error: $(cat "$T/err")"
	fi
	checks=$((checks + 1))
	$dump file "$T/k.btf" format c >/dev/full 2>"$T/err"; rc=$?
	if [ $rc -ne 5 ] || ! grep -qi "k.btf: format c: write" "$T/err"; then
		bad "format c write error: exit $rc, stderr: $(cat "$T/err")"
	else
		echo "ok   format c write error: $(cat "$T/err")"
	fi
fi

echo "$checks checks, $fails failed"
[ $fails -eq 0 ]
