#!/bin/bash
# bpf/btf-chain.sh must fail when btfgen or btfcheck fails: run it with
# stand-ins (scripts that exit 1, or 2 saying "not implemented") in a build
# directory of its own, and expect exit 1, no output object, and the failing
# step named. Then the real tools must give an object. No root needed.
. "$(dirname "$0")/../lib.sh"
CLANG_OBJ=$B/bpf/bpf_flow.clang.o
[ -f "$CLANG_OBJ" ] || { echo "FAIL: $CLANG_OBJ missing (make $B/bpf/bpf_flow.o)"; exit 1; }
fails=0
check() {
	local what=$1
	shift
	if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}

# chain_with NAME BTFGEN BTFCHECK: a build dir whose tools are the given files
chain_with() {
	local d=$T/$1
	mkdir -p "$d"
	ln -sf "$(realpath "$2")" "$d/btfgen"
	ln -sf "$(realpath "$3")" "$d/btfcheck"
	bash bpf/btf-chain.sh "$d" "$CLANG_OBJ" "$d/out.o" >"$d/log" 2>&1
	echo $? >"$d/rc"
}
printf '#!/bin/sh\necho "btfgen stand-in: failing on purpose" >&2\nexit 1\n' >"$T/fail.sh"
printf '#!/bin/sh\necho "not implemented" >&2\nexit 2\n' >"$T/notimpl.sh"
chmod +x "$T/fail.sh" "$T/notimpl.sh"

# failing_case NAME BTFGEN BTFCHECK STEP: the chain must fail at STEP
failing_case() {
	chain_with "$1" "$2" "$3"
	check "$1: the chain exits 1" test "$(cat "$T/$1/rc")" = 1
	check "$1: no object written" test ! -e "$T/$1/out.o" -a ! -e "$T/$1/out.o.tmp"
	check "$1: the failure names $4" grep -q "FAILED: $4" "$T/$1/log"
	check "$1: no INTERIM fallback" bash -c "! grep -q INTERIM '$T/$1/log'"
}
failing_case btfgen-fails "$T/fail.sh" "$B/btfcheck" btfgen
failing_case btfgen-not-implemented "$T/notimpl.sh" "$B/btfcheck" btfgen
failing_case btfcheck-fails "$B/btfgen" "$T/fail.sh" btfcheck

chain_with real "$B/btfgen" "$B/btfcheck"
check "real tools: the chain succeeds" test "$(cat "$T/real/rc")" = 0
check "real tools: one BTF-CHAIN line, verified by btfcheck" \
	test "$(grep -c 'BTF-CHAIN .*from btfgen .*verified by btfcheck' "$T/real/log")" = 1
check "real tools: the object has a .BTF and a .BTF.ext" bash -c \
	"llvm-objdump -h '$T/real/out.o' | grep -q ' \.BTF ' && llvm-objdump -h '$T/real/out.o' | grep -q ' \.BTF\.ext '"
sed 's/^/     /' "$T/real/log"
echo "$fails failure(s)"
[ "$fails" = 0 ]
