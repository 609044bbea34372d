#!/bin/bash
# btfgen's progress line, shown only once a run has taken a second (the
# cached Debian vmlinux):
#  - on a terminal by default, erased at the end (\r and erase-line), so
#    no line is left on screen;
#  - never from the pahole command line (a kernel build runs on a
#    terminal: pahole prints nothing there), nor with --no-progress;
#  - --progress off a terminal (a log): the line, ended by a newline;
#  - none on a terminal from a run under a second (a small object).
# The silent runs prove something only past that second, and btfgen -j1
# converts this vmlinux in about a second here, less on a faster machine.
# So every run is held (SIGSTOP) for HOLD seconds as soon as it has its
# input open, then let go: its clock had started (btfgen_report_init comes
# before lbtf_encode opens anything), and the input is opened first, before
# the units are listed and the first of its ~50 groups is converted, so the
# groups are appended, and the line is due, past the second whatever the
# machine's speed. A run that ends before it could be held fails the test:
# it would prove nothing. The four runs go at once.
. "$(dirname "$0")/../lib.sh"
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
vmlinux=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
[ -n "$vmlinux" ] || { echo "SKIP: no cached Debian vmlinux with DWARF (make bench fetches one)"; exit 77; }
command -v script >/dev/null || { echo "SKIP: script (util-linux) not installed"; exit 77; }
HOLD=1.2
# (a run held when the test is cut short is let go)
let_go() {
	local p
	for p in "$T"/*.pid; do
		[ -s "$p" ] && kill -CONT "$(<"$p")" 2>/dev/null
	done
	rm -rf "$T"
}
trap let_go EXIT

# state PID: in s, the process's state letter (R, S, T stopped, Z ended...)
# or "gone" (no subshell: hold polls it)
state() {
	read -r s 2>/dev/null <"/proc/$1/stat" || { s=gone; return; }
	s=${s##*) }
	s=${s%% *}
}

# hold NAME: the run whose pid is in $T/NAME.pid stopped for HOLD seconds
# once it has the input open, then let go; $T/NAME.held says "held", or
# why not
hold() {
	local name=$1 pid fd s i
	for ((i = 0; i < 5000; i++)); do
		[ -s "$T/$name.pid" ] && break
		sleep 0.001
	done
	pid=$(<"$T/$name.pid") || { echo "no pid" >"$T/$name.held"; return; }
	# (polled without a pause: the open is caught within microseconds; a
	# run alive that never opens it fails after a minute, not hangs)
	local since=$SECONDS
	while :; do
		state "$pid"
		case $s in Z | X | gone) echo "it ended before it opened its input" >"$T/$name.held"; return ;; esac
		((SECONDS - since < 60)) || { echo "it did not open its input in a minute" >"$T/$name.held"; return; }
		for fd in /proc/"$pid"/fd/*; do
			[ "$fd" -ef "$vmlinux" ] && break 2
		done
	done
	kill -STOP "$pid" 2>/dev/null
	for ((i = 0; i < 1000; i++)); do
		state "$pid"
		[ "$s" = T ] && break
		case $s in Z | X | gone) echo "it ended before it could be held" >"$T/$name.held"; return ;; esac
		sleep 0.001
	done
	[ "$s" = T ] || { echo "it did not stop (state $s)" >"$T/$name.held"; return; }
	sleep "$HOLD"
	kill -CONT "$pid"
	echo held >"$T/$name.held"
}

# on_tty NAME CMD...: CMD on a terminal, all its output in $T/NAME, held;
# the pid to wait for in $T/NAME.job. (script's child is a shell that waits
# for CMD: a child of script's own that stops stops script too; script runs
# it with $SHELL, set to bash: the text is bash's.)
on_tty() {
	local name=$1
	shift
	SHELL=/bin/bash script -qfec "$(printf '%q ' "$@") & echo \$! >$(printf %q "$T/$name.pid"); wait \$!" /dev/null \
		>"$T/$name" 2>&1 &
	echo $! >"$T/$name.job"
	hold "$name" &
}
# to_log NAME CMD...: CMD's stderr in $T/NAME, held
to_log() {
	local name=$1
	shift
	"$@" 2>"$T/$name" &
	echo $! >"$T/$name.pid"
	echo $! >"$T/$name.job"
	hold "$name" &
}

on_tty tty "$B/btfgen" -j1 -o "$T/v.btf" "$vmlinux"
on_tty pahole "$B/btfgen-pahole" -J -j1 --btf_encode_detached="$T/p.btf" "$vmlinux"
on_tty none "$B/btfgen" -j1 --no-progress -o "$T/n.btf" "$vmlinux"
to_log log "$B/btfgen" -j1 --progress -o "$T/l.btf" "$vmlinux"
for name in tty pahole none log; do
	wait "$(<"$T/$name.job")" || bad "run $name failed: $(tail -c 300 "$T/$name")"
done
wait # (the holds)
for name in tty pahole none log; do
	[ "$(cat "$T/$name.held" 2>/dev/null)" = held ] ||
		bad "run $name was not held past the second: $(cat "$T/$name.held" 2>/dev/null)"
done
grep -q 'compile units' "$T/tty" || bad "no progress line on a terminal"
[ "$(tail -c 4 "$T/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
	bad "the progress line is not erased at the end: $(tail -c 60 "$T/tty" | od -An -c | tr -s ' ')"
[ -s "$T/pahole" ] && bad "btfgen-pahole printed on a terminal: $(head -c 200 "$T/pahole")"
[ -s "$T/none" ] && bad "--no-progress printed: $(head -c 200 "$T/none")"
grep -q 'compile units' "$T/log" && [ "$(tail -c 1 "$T/log" | od -An -c | tr -d ' ')" = '\n' ] ||
	bad "--progress off a terminal: no line ended by a newline: $(tail -c 80 "$T/log" | od -An -c | tr -s ' ')"
# None before the second: a small object's run, unheld, on a terminal. Its
# wall time measured here bounds the run's own clock: under a second, the
# line was not due. (A run over a second, on a machine loaded that much,
# is tried again; three of them fail the test: nothing was checked.)
gcc -g -c -o "$T/t.o" -x c - <<<'struct s { int a; } v;' || bad "gcc could not make a small object"
took=
for try in 1 2 3; do
	start=$EPOCHREALTIME
	SHELL=/bin/bash script -qfec "$(printf '%q ' "$B/btfgen" -j1 -o "$T/t.btf" "$T/t.o")" /dev/null >"$T/quick" 2>&1 ||
		{ bad "btfgen on a small object failed: $(tail -c 300 "$T/quick")"; break; }
	took=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print (b - a < 1) ? "under" : "over" }')
	[ "$took" = under ] && break
done
[ "$took" = under ] || bad "no run of a small object under a second in $try tries"
[ "$took" = under ] && [ -s "$T/quick" ] && bad "a line before the second: $(head -c 200 "$T/quick")"
[ $fail = 0 ] && echo "PASS: progress on a terminal and erased; none as pahole, with --no-progress or before a second"
exit $fail
