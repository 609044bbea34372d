#!/bin/bash
# btfcheck takes each input in with the fewest system calls (libbtf/io/read.c):
# a regular file under 32 KiB read into its buffer (the last input under
# 16 KiB: a mapping of its own costs more than reading a few KiB) in one
# read(), sized from fstat, with no second read() to find the end; a
# larger one (bpf_flow.o, mostly DWARF) mapped, not read (populated, under
# 256 KiB); opened with O_CLOEXEC by openat, with no fcntl() after it (musl's
# open() adds one) and no stat() of the path beside the fstat. A pipe
# (standard input) is still read to its end. The verdicts are those of the
# same files given one by one.
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck
[ -x "$BC" ] && [ -e "$B/corpus/maps_tc.bpf.o" ] && [ -e "$B/bpf/bpf_flow.o" ] || { echo "FAIL: $BC or $B/corpus missing (build first)"; exit 1; }
need_tools strace
objs=("$B/corpus/maps_tc.bpf.o" "$B/bpf/bpf_flow.o" "$B/corpus/link_b.bpf.o" "$B/corpus/tailcall_xdp.bpf.o" "$B/corpus/ringbuf_kfunc.bpf.o")
# (LeakSanitizer, in a SAN=1 build, cannot work under ptrace)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -e trace=open,openat,read,fcntl,%stat -o "$T/st" "$BC" "${objs[@]}" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || bad "btfcheck ${objs[*]}: exit $rc: $(head -c 300 "$T/err")"
# per input file: the reads and fcntls on its descriptor, until the next open
awk -v objs="${objs[*]}" '
	BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) want[o[i]] = 1 }
	# a stat-family call naming an input by its path (fstat names none)
	/^[a-z0-9]*stat[a-z0-9]*\(/ && match($0, /"[^"]*"/) && (substr($0, RSTART + 1, RLENGTH - 2) in want) {
		stats[substr($0, RSTART + 1, RLENGTH - 2)]++; next
	}
	/^open(at)?\(/ {
		cur = ""; fd = ""
		if (match($0, /"[^"]*"/)) cur = substr($0, RSTART + 1, RLENGTH - 2)
		if (!(cur in want)) { cur = ""; next }
		fd = $NF; order[++k] = cur; reads[cur] = 0; fcntls[cur] = 0; next
	}
	cur != "" && index($0, "read(" fd ",") == 1 { reads[cur]++; next }
	cur != "" && index($0, "fcntl(" fd ",") == 1 { fcntls[cur]++; next }
	END { for (i = 1; i <= k; i++) print order[i], reads[order[i]], fcntls[order[i]], stats[order[i]] + 0 }
' "$T/st" >"$T/calls"
[ "$(wc -l <"$T/calls")" -eq ${#objs[@]} ] || bad "strace saw $(wc -l <"$T/calls") of ${#objs[@]} inputs opened: $(cat "$T/calls")"
last=${objs[${#objs[@]} - 1]}
while read -r f r c s; do
	# those of 32 KiB and more are mapped (no read at all), the last one
	# from 16 KiB; the others read once
	want=1
	size=$(stat -c %s "$f")
	[ "$size" -ge 32768 ] || { [ "$f" = "$last" ] && [ "$size" -ge 16384 ]; } && want=0
	[ "$r" -eq $want ] || bad "$f: $r read() calls, want $want"
	[ "$c" -eq 0 ] || bad "$f: $c fcntl() calls after its open"
	[ "$s" -eq 0 ] || bad "$f: $s stat() calls naming it (the fstat of the read says its size)"
done <"$T/calls"
# a last input from 16 KiB is mapped: maps_tc.bpf.o (20 KB) alone (the
# reads on its descriptor from its open to its close)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -e trace=openat,read,close -o "$T/st1" "$BC" "${objs[0]}" >/dev/null 2>&1
reads=$(awk -v f="\"${objs[0]}\"" '
	index($0, f) && /^open(at)?\(/ { fd = $NF; next }
	fd != "" && index($0, "close(" fd ")") == 1 { print n + 0; exit }
	fd != "" && index($0, "read(" fd ",") == 1 { n++ }' "$T/st1")
[ "$(stat -c %s "${objs[0]}")" -ge 16384 ] && [ -n "$reads" ] ||
	bad "${objs[0]}: not opened and closed, or under 16 KiB: $(head -c 200 "$T/st1")"
[ "${reads:-0}" -eq 0 ] || bad "${objs[0]} alone: $reads read() calls, want it mapped (16 KiB and more)"
# a mapped input under 256 KiB is populated as it is mapped (its pages in
# one call, not a fault a window); a larger one (here bpf_flow.o with
# 300 KB more at its end, where no section lies) is not
head -c 300000 /dev/zero | cat "$B/bpf/bpf_flow.o" - >"$T/large.o"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -e trace=mmap -o "$T/st2" "$BC" "$B/bpf/bpf_flow.o" "$T/large.o" >"$T/out2" 2>&1 ||
	bad "btfcheck bpf_flow.o large.o: $(head -c 300 "$T/out2")"
small=$(stat -c %s "$B/bpf/bpf_flow.o")
[ "$small" -ge 32768 ] && [ "$small" -lt 262144 ] || bad "bpf_flow.o is $small bytes: not between 32 and 256 KiB"
grep -q "^mmap(NULL, $small, PROT_READ, MAP_PRIVATE|MAP_POPULATE, " "$T/st2" ||
	bad "bpf_flow.o ($small bytes) not mapped with MAP_POPULATE: $(grep "$small" "$T/st2")"
large=$(stat -c %s "$T/large.o")
grep -q "^mmap(NULL, $large, PROT_READ, MAP_PRIVATE, " "$T/st2" ||
	bad "large.o ($large bytes) not mapped, or populated: $(grep "$large" "$T/st2")"
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
[ $fail = 0 ] && echo "ok: ${#objs[@]} inputs, each read in one read() (the last, small, too; a large one mapped, populated under 256 KiB), no fcntl after open, no stat by path; a pipe read to its end"
exit $fail
