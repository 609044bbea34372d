#!/bin/bash
# A SIGKILL during `btfgen --in-place`, which no handler sees, leaves
# nothing behind (issue 28 item 11): the output is written into an unnamed
# file (O_TMPFILE) that gets a name only when complete (libbtf/io/atomic.c).
# An object with 64 MiB of data (its rewrite is mostly writing and syncing
# the copy) is converted in place once to time it, then killed with -9 at
# 8 moments spread over that time: each time the directory holds the input
# alone, either as it was or converted (btfdump reads its .BTF), never a
# temporary file. The same for `-o` (the same writer), with the output that
# takes longest here: `btfdump ... format c -o` of the kernel's vmlinux BTF
# (when /sys/kernel/btf/vmlinux is there).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
mkdir "$T/d"
gcc -g -c -o "$T/orig.o" -x c - <<<'char big[64 << 20] = { 1 }; struct s { int a; } v; int f(struct s *p) { return p->a + big[3]; }' ||
	{ echo "FAIL: gcc"; exit 1; }
now_ms() { date +%s%3N; }
cp "$T/orig.o" "$T/d/in.o"
t0=$(now_ms)
"$B/btfgen" --in-place "$T/d/in.o" || { echo "FAIL: btfgen --in-place on the 64 MiB object"; exit 1; }
dur=$(($(now_ms) - t0))
[ "$dur" -gt 0 ] || dur=1
n=0 converted=0
# kill_runs DUR SETUP CHECK COMMAND...: 8 runs of COMMAND killed with -9 at
# moments spread over DUR ms; SETUP before each, CHECK MOMENT after each
kill_runs() {
	local dur=$1 setup=$2 check=$3 k pid
	shift 3
	for k in $(seq 1 8); do
		$setup
		"$@" 2>/dev/null &
		pid=$!
		sleep "$(printf '0.%03d' $((dur * k / 9)))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		n=$((n + 1))
		$check $((dur * k / 9)) "$dur"
	done
}
# only_left NAME MOMENT DUR: the directory holds NAME alone (or nothing)
only_left() {
	local left
	left=$(find "$T/d" -mindepth 1 -printf '%f\n' | grep -vFx "$1" | tr '\n' ' ')
	[ -z "$left" ] || bad "kill -9 at $2 ms of $3 left: $left"
	find "$T/d" -mindepth 1 -not -name "$1" -delete
}
in_setup() { cp "$T/orig.o" "$T/d/in.o"; }
in_check() {
	only_left in.o "$@"
	if "$B/btfdump" file "$T/d/in.o" >/dev/null 2>&1; then
		converted=$((converted + 1))
	elif ! cmp -s "$T/d/in.o" "$T/orig.o"; then
		bad "kill -9 at $1 ms: the input is neither as it was nor converted"
	fi
}
kill_runs "$dur" in_setup in_check "$B/btfgen" --in-place "$T/d/in.o"
rm -f "$T/d/in.o"
vmlinux=/sys/kernel/btf/vmlinux
if [ -r $vmlinux ]; then
	t0=$(now_ms)
	"$B/btfdump" file $vmlinux format c -o "$T/d/v.h" || bad "btfdump format c -o failed"
	hdur=$(($(now_ms) - t0))
	[ "$hdur" -gt 9 ] || hdur=9
	h_setup() { rm -f "$T/d/v.h"; }
	h_check() { only_left v.h "$@"; }
	kill_runs "$hdur" h_setup h_check "$B/btfdump" file $vmlinux format c -o "$T/d/v.h"
fi
[ $fail -eq 0 ] && echo "PASS: $n kills over a ${dur} ms --in-place run and a -o run left nothing behind ($converted had finished)"
exit $fail
