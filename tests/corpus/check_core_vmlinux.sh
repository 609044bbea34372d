#!/bin/bash
# CO-RE across kernels with a header our own tools made: the Debian 6.1
# kernel's BTF from btfgen (its DWARF vmlinux, cached by make bench), printed
# as a vmlinux.h by btfdump format c, then core_task.bpf.c compiled against
# it (clang-16), run through btfgen --in-place like any build, and loaded on
# the running kernel, whose layouts differ from 6.1's. Every check the
# program makes (field offsets through BPF_CORE_READ chains, field and type
# existence, an enum value, a ___flavor struct, a field size, a __ksym) must
# come out right, from clang's object and from btfgen's alike.
. "$(dirname "$0")/../lib.sh"
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
V=$(find "$CACHE" -maxdepth 1 -name 'vmlinux-6.1*' 2>/dev/null | head -1)
[ -n "$V" ] || { echo "SKIP: no cached Debian 6.1 vmlinux with DWARF (make bench fetches one)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to load BPF programs"; exit 77; }
RUN=$B/corpus/corpus_run

"$B/btfgen" -o "$T/61.btf" "$V" || { echo "FAIL: btfgen on $V"; exit 1; }
"$B/btfdump" file "$T/61.btf" format c -o "$T/vmlinux.h" || { echo "FAIL: btfdump format c"; exit 1; }
# the premise: 6.1 lays task_struct out differently from the running kernel
off() { bpftool btf dump file "$1" 2>/dev/null | awk '/STRUCT .task_struct. size=/ { s = 1; next }
	s && /^\t.tgid. / { for (i = 1; i <= NF; i++) if ($i ~ /^bits_offset=/) { sub("bits_offset=", "", $i); print $i; exit } }
	s && !/^\t/ { s = 0 }'; }
o61=$(off "$T/61.btf") orun=$(off /sys/kernel/btf/vmlinux)
[ -n "$o61" ] && [ -n "$orun" ] && [ "$o61" != "$orun" ] ||
	bad "task_struct::tgid at bit $o61 in 6.1 and $orun here: the test needs them to differ"
mkdir -p "$T/clang" "$T/gen"
bpf_cc -g -O2 -Wall -Werror -DCORE_TASK_VMLINUX_H \
	"${BPF_INC[@]}" -I"$T" -Itests/corpus \
	-c -o "$T/clang/core_task.o" tests/corpus/core_task.bpf.c ||
	{ echo "FAIL: clang-16 against the generated vmlinux.h"; exit 1; }
cp "$T/clang/core_task.o" "$T/gen/core_task.o"
"$B/btfgen" --in-place "$T/gen/core_task.o" || bad "btfgen --in-place on the object"
all_ones=$(printf '01 00 00 00 %.0s' $(seq 13))
for o in clang gen; do
	if ! "$RUN" "$T/$o/core_task.o" >"$T/$o.txt" 2>"$T/$o.err"; then
		bad "$o object does not load/run: $(tail -3 "$T/$o.err")"
		continue
	fi
	v=$(sed -n 's/^  key 00 00 00 00 value //p' "$T/$o.txt" | head -1)
	[ "$v " = "$all_ones" ] || bad "$o object: a check came out wrong (.bss: $v)"
	grep -q 'btf yes' "$T/$o.txt" || bad "$o object loaded without BTF"
done
cmp -s "$T/clang.txt" "$T/gen.txt" || bad "btfgen's object runs differently from clang's"
[ $fail = 0 ] && echo "PASS: core_task against btfgen+btfdump's 6.1 vmlinux.h runs right on this kernel (tgid at bit $o61 there, $orun here)"
exit $fail
