# shellcheck shell=bash
# What the shell tests share, sourced first: `. "$(dirname "$0")/../lib.sh"`.
# $B the build directory, $T a private temporary directory removed on exit
# (a test that needs more cleanup sets its own EXIT trap and removes $T in
# it), fail/bad() to record a failure and go on (the test exits with $fail).
# shellcheck disable=SC2034 # B, T and fail are read by the sourcing test
set -u
B=${B:-build}
T=$(mktemp -d) || { echo "FAIL: mktemp"; exit 1; }
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# A small object ($T/t.o: gcc -g, one struct) and its BTF ($T/t.btf, by
# btfgen), for tests that need some valid input; SKIP without gcc.
small_object_btf() {
	command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
	gcc -g -c -o "$T/t.o" -x c - <<<'struct s { int a; } v;' &&
		"$B/btfgen" -o "$T/t.btf" "$T/t.o" || { echo "FAIL: btfgen on a small object"; exit 1; }
}
