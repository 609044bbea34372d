#!/bin/bash
# One exit status for a write error on standard output, on every program and
# every path that prints (issue 28 item 8): a full disk (/dev/full) and a
# closed stdout both give exit 5 (cli/cli.h: I/O or system error) and one
# line "PROG: write error on standard output: ...", for --help, --version,
# btfgen-pahole's --version/--numeric_version/--supported_btf_features/--help,
# btfcheck --json, btfdump file/-j/format c/ext and btfgen -o -.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -w /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }
small_object_btf
n=0
# expect5 WORDS...: the command, run with stdout full and with stdout closed
expect5() {
	local how rc
	for how in full closed; do
		n=$((n + 1))
		if [ $how = full ]; then
			"$@" >/dev/full 2>"$T/err"; rc=$?
		else
			"$@" >&- 2>"$T/err"; rc=$?
		fi
		[ $rc -eq 5 ] && grep -q "write error on standard output" "$T/err" ||
			bad "$* (stdout $how): exit $rc, stderr '$(head -c 300 "$T/err")' (want 5 and the write error)"
	done
}
for p in btfgen btfcheck btfdump btfgen-pahole; do
	expect5 "$B/$p" --help
	expect5 "$B/$p" --version
done
expect5 "$B/btfgen-pahole" --numeric_version
expect5 "$B/btfgen-pahole" --supported_btf_features
expect5 "$B/btfgen" -J --version
expect5 "$B/btfcheck" --json "$T/t.btf"
expect5 "$B/btfcheck" --json "$T/t.btf" "$T/t.o"
expect5 "$B/btfdump" file "$T/t.btf"
expect5 "$B/btfdump" -j file "$T/t.btf"
expect5 "$B/btfdump" -c "$T/t.btf"
expect5 "$B/btfgen" -o - "$T/t.o"
# a worse status still wins (3 > 5 > 4 > 1): a file that is not BTF gives 4
# alone, 5 with a failed write
"$B/btfcheck" --json "$T/t.btf" /dev/null >/dev/full 2>/dev/null; rc=$?
[ $rc -eq 5 ] || bad "btfcheck --json, a non-BTF file and stdout full: exit $rc (want 5)"
[ $fail -eq 0 ] && echo "PASS: $n stdout write errors, each exit 5 with a message"
exit $fail
