#!/bin/bash
# btfgen's progress line, on a run over a second (the cached Debian vmlinux):
#  - on a terminal by default, erased at the end (\r and erase-line), so
#    no line is left on screen;
#  - never from the pahole command line (a kernel build runs on a
#    terminal: pahole prints nothing there), nor with --no-progress;
#  - --progress off a terminal (a log): the line, ended by a newline.
. "$(dirname "$0")/../lib.sh"
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
vmlinux=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
[ -n "$vmlinux" ] || { echo "SKIP: no cached Debian vmlinux with DWARF (make bench fetches one)"; exit 77; }
command -v script >/dev/null || { echo "SKIP: script (util-linux) not installed"; exit 77; }
# The line shows only once a run has taken a second, and btfgen -j1 converts
# this vmlinux in about one second on a fast machine: every run here shares
# one CPU with a busy loop (taskset), so that it takes about twice as long,
# the silent ones included, well over the second the rule is about. (Not
# valgrind: 3.19 cannot read a clang build's DWARF 5, nor run ASan binaries.)
command -v taskset >/dev/null || { echo "SKIP: taskset (util-linux) not installed"; exit 77; }
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null; rm -rf "$T"' EXIT
SLOW=(taskset -c 0)
# on_tty OUT CMD...: CMD's terminal output (stderr included) in OUT
on_tty() {
	local out=$1
	shift
	script -qfec "$(printf '%q ' "$@")" /dev/null >"$out" 2>&1 || bad "$* failed on a terminal: $(tail -c 300 "$out")"
}
on_tty "$T/tty" "${SLOW[@]}" "$B/btfgen" -j1 -o "$T/v.btf" "$vmlinux"
grep -q 'compile units' "$T/tty" || bad "no progress line on a terminal"
[ "$(tail -c 4 "$T/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
	bad "the progress line is not erased at the end: $(tail -c 60 "$T/tty" | od -An -c | tr -s ' ')"
on_tty "$T/pahole" "${SLOW[@]}" "$B/btfgen-pahole" -J -j1 --btf_encode_detached="$T/p.btf" "$vmlinux"
[ -s "$T/pahole" ] && bad "btfgen-pahole printed on a terminal: $(head -c 200 "$T/pahole")"
on_tty "$T/none" "${SLOW[@]}" "$B/btfgen" -j1 --no-progress -o "$T/n.btf" "$vmlinux"
[ -s "$T/none" ] && bad "--no-progress printed: $(head -c 200 "$T/none")"
"${SLOW[@]}" "$B/btfgen" -j1 --progress -o "$T/l.btf" "$vmlinux" 2>"$T/log" || bad "--progress run failed"
grep -q 'compile units' "$T/log" && [ "$(tail -c 1 "$T/log" | od -An -c | tr -d ' ')" = '\n' ] ||
	bad "--progress off a terminal: no line ended by a newline: $(tail -c 80 "$T/log" | od -An -c | tr -s ' ')"
[ $fail = 0 ] && echo "PASS: progress on a terminal and erased; none as pahole or with --no-progress"
exit $fail
