# shellcheck shell=bash
# What the shell tests share, sourced first: `. "$(dirname "$0")/../lib.sh"`.
# $B the build directory, $T a private temporary directory removed on exit
# (a test that needs more cleanup sets its own EXIT trap and removes $T in
# it), fail/bad() to record a failure and go on (the test exits with $fail).
# shellcheck disable=SC2034 # B, T, fail, BPF_INC are read by the sourcing test
set -u
B=${B:-build}
# no "." in $T: bpffs names under it cannot contain one
T=$(mktemp -d "${TMPDIR:-/tmp}/btftest-XXXXXXXX") || { echo "FAIL: mktemp"; exit 1; }
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# check DESCRIPTION COMMAND...: "ok: DESCRIPTION", or a failure recorded
check() { if "${@:2}"; then echo "ok: $1"; else bad "$1"; fi; }
skip() { echo "SKIP: $*"; exit 77; }
# need_tools TOOL...: SKIP when one of them is not installed
need_tools() {
	local t
	for t; do command -v "$t" >/dev/null || skip "$t is not installed"; done
}
# need_root WHAT: SKIP with "WHAT needs root" unless run as root
need_root() { [ "$(id -u)" -eq 0 ] || skip "${1:-this test} needs root"; }

# The one place that names the BPF toolchain: $BPF_CLANG (the Makefile's,
# clang-16 by default: clang 14's BTF is lossy for 64-bit enums).
# bpf_cc ARGS... compiles for BPF; $BPF_INC is the multiarch include
# directory that programs including <linux/...> headers need there.
export BPF_CLANG=${BPF_CLANG:-clang-16} # also for the helpers tests run
MULTIARCH=$(gcc -print-multiarch 2>/dev/null)
BPF_INC=(-I"/usr/include/$MULTIARCH")
bpf_cc() { "$BPF_CLANG" -target bpf "$@"; }
# A small object ($T/t.o: gcc -g, one struct) and its BTF ($T/t.btf, by
# btfgen), for tests that need some valid input; SKIP without gcc.
small_object_btf() {
	command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
	gcc -g -c -o "$T/t.o" -x c - <<<'struct s { int a; } v;' &&
		"$B/btfgen" -o "$T/t.btf" "$T/t.o" || { echo "FAIL: btfgen on a small object"; exit 1; }
}

# libbpf >= 1.8 from scripts/build-libbpf.sh's cache (the first whose
# libbpf.a defines $1, default btf__new_empty_opts) in LIBBPF18, or SKIP
need_libbpf18() {
	local cache=${LIBBPF_CACHE:-/var/cache/btf-bench} d
	LIBBPF18=
	for d in "$cache"/libbpf-*/; do
		nm "$d/lib/libbpf.a" 2>/dev/null | grep -q " T ${1:-btf__new_empty_opts}\$" &&
			{ LIBBPF18=$d; return 0; }
	done
	echo "SKIP: no libbpf >= 1.8 in $cache (scripts/build-libbpf.sh LIBBPF_GIT master)"
	exit 77
}
# The test program $1 built as $2 against it; with $3 = libbtf also against
# $B/libbtf.a (and the sanitizer runtimes of a SAN=1 build)
build_libbpf18_prog() {
	local san=() libbtf=()
	if [ "${3:-}" = libbtf ]; then
		[ -f "$B/libbtf.a" ] || { echo "FAIL: $B/libbtf.a not built"; exit 1; }
		[ "${SAN:-}" = 1 ] && san=("-fsanitize=address,undefined")
		libbtf=(-Ilibbtf/include "$B/libbtf.a")
	fi
	gcc "${san[@]}" -O2 -Wall -I"$LIBBPF18/include" "$1" -o "$2" "${libbtf[@]}" \
		"$LIBBPF18/lib/libbpf.a" -ldw -lelf -lz -lpthread ||
		{ echo "FAIL: cannot build $1 against $LIBBPF18"; exit 1; }
}
