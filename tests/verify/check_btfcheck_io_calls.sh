#!/bin/bash
# btfcheck takes each input in with the fewest system calls (libbtf/io/read.c):
# a regular file read into its buffer (the inputs before the last, under
# 32 KiB) in one read(), sized from fstat, with no second read() to find
# the end; opened with O_CLOEXEC by openat, with no fcntl() after it (musl's
# open() adds one). A pipe (standard input) is still read to its end. The
# verdicts are those of the same files given one by one.
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck
[ -x "$BC" ] && [ -e "$B/corpus/maps_tc.bpf.o" ] || { echo "FAIL: $BC or $B/corpus missing (build first)"; exit 1; }
need_tools strace
objs=("$B/corpus/maps_tc.bpf.o" "$B/corpus/link_b.bpf.o" "$B/corpus/tailcall_xdp.bpf.o" "$B/corpus/ringbuf_kfunc.bpf.o")
# (LeakSanitizer, in a SAN=1 build, cannot work under ptrace)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -e trace=open,openat,read,fcntl -o "$T/st" "$BC" "${objs[@]}" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || bad "btfcheck ${objs[*]}: exit $rc: $(head -c 300 "$T/err")"
# per input file: the reads and fcntls on its descriptor, until the next open
awk -v objs="${objs[*]}" '
	BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) want[o[i]] = 1 }
	/^open(at)?\(/ {
		cur = ""; fd = ""
		if (match($0, /"[^"]*"/)) cur = substr($0, RSTART + 1, RLENGTH - 2)
		if (!(cur in want)) { cur = ""; next }
		fd = $NF; order[++k] = cur; reads[cur] = 0; fcntls[cur] = 0; next
	}
	cur != "" && index($0, "read(" fd ",") == 1 { reads[cur]++; next }
	cur != "" && index($0, "fcntl(" fd ",") == 1 { fcntls[cur]++; next }
	END { for (i = 1; i <= k; i++) print order[i], reads[order[i]], fcntls[order[i]] }
' "$T/st" >"$T/calls"
[ "$(wc -l <"$T/calls")" -eq ${#objs[@]} ] || bad "strace saw $(wc -l <"$T/calls") of ${#objs[@]} inputs opened: $(cat "$T/calls")"
last=${objs[${#objs[@]} - 1]}
while read -r f r c; do
	# the last input is mapped (no read at all), the others read once
	want=1
	[ "$f" = "$last" ] && want=0
	[ "$r" -eq $want ] || bad "$f: $r read() calls, want $want"
	[ "$c" -eq 0 ] || bad "$f: $c fcntl() calls after its open"
done <"$T/calls"
# the same verdicts as one command each
: >"$T/one"
for o in "${objs[@]}"; do "$BC" "$o" >>"$T/one" 2>/dev/null; done
cmp -s "$T/one" "$T/out" || bad "verdicts differ from one command per input: $(diff "$T/one" "$T/out" | head -5)"
# a pipe has no size to go by: read to its end, in as many reads as it takes
# (the kernel's BTF, a few MB, when this kernel has one)
if [ -r /sys/kernel/btf/vmlinux ]; then
	want=$("$BC" /sys/kernel/btf/vmlinux 2>&1; echo "rc=$?")
	got=$(cat /sys/kernel/btf/vmlinux | "$BC" - 2>&1; echo "rc=$?")
	[ "${got/#-: /}" = "${want/#\/sys\/kernel\/btf\/vmlinux: /}" ] || bad "a pipe: '$got', the file: '$want'"
fi
[ $fail = 0 ] && echo "ok: ${#objs[@]} inputs, each read in one read() (the last mapped), no fcntl after open; a pipe read to its end"
exit $fail
