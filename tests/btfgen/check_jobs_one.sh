#!/bin/bash
# -j1 takes one CPU: each step of the conversion in turn on one thread (the
# library's, with the stack conversion needs, while the caller waits), the
# unit listing, the groups, a group converted again, the release and dedup's
# side work included: strace sees btfgen -j1 make exactly one thread, and
# the pahole command line (one job without -j, as pahole) the same, where
# -j2 makes several (what the count can tell apart). The outputs of -j1 and
# -j2 are the same bytes. The input is btfdump (gcc -g, ~150 units: several
# groups of the conversion); the output goes to a pipe (standard output), so
# that no thread writes a file beside the check of the output
# (lbtfi_encode_write_raw).
. "$(dirname "$0")/../lib.sh"
need_tools strace
in=$B/btfdump
[ -x "$B/btfgen" ] && [ -e "$B/btfgen-pahole" ] && [ -x "$in" ] || { echo "FAIL: $B/btfgen or $in missing (build first)"; exit 1; }

# threads NAME CMD...: CMD's output in $T/NAME.btf, the threads it made in
# $T/NAME.threads (LeakSanitizer, in a SAN=1 build, cannot work under ptrace)
threads() {
	local name=$1
	shift
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=clone,clone3 -o "$T/$name.st" "$@" 2>"$T/$name.err" | cat >"$T/$name.btf"
	[ "${PIPESTATUS[0]}" = 0 ] || { bad "$name: $* failed: $(head -c 300 "$T/$name.err")"; return; }
	grep -Ec '^[0-9]+ +clone3?\(.*CLONE_THREAD' "$T/$name.st" >"$T/$name.threads"
}

threads j1 "$B/btfgen" -j1 -o - "$in"
threads j2 "$B/btfgen" -j2 -o - "$in"
threads pahole "$B/btfgen-pahole" -J --btf_encode_detached=/dev/stdout "$in"
threads pahole_j2 "$B/btfgen-pahole" -J -j2 --btf_encode_detached=/dev/stdout "$in"
check "btfgen -j1 makes one thread ($(cat "$T/j1.threads"))" [ "$(cat "$T/j1.threads")" = 1 ]
check "btfgen -j2 makes several ($(cat "$T/j2.threads"))" [ "$(cat "$T/j2.threads")" -ge 3 ]
check "btfgen-pahole without -j makes one thread ($(cat "$T/pahole.threads"))" \
	[ "$(cat "$T/pahole.threads")" = 1 ]
check "btfgen-pahole -j2 makes several ($(cat "$T/pahole_j2.threads"))" \
	[ "$(cat "$T/pahole_j2.threads")" -ge 3 ]
check "-j1 and -j2 give the same bytes" cmp -s "$T/j1.btf" "$T/j2.btf"
check "the same from the pahole command line" cmp -s "$T/pahole.btf" "$T/pahole_j2.btf"
check "the output is BTF ($(stat -c %s "$T/j1.btf") bytes)" [ "$(head -c 2 "$T/j1.btf" | od -An -tx1 | tr -d ' ')" = 9feb ]
exit $fail
