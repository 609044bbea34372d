#!/bin/bash
# btfcheck as built ($B/btfcheck: static, with musl's libc when musl-dev is
# there) prints what the same objects linked with glibc print, to the byte:
# stdout, stderr and exit status over verdicts (objects in every mode, raw
# and kernel BTF), error paths that print errno words (a missing file, a
# directory, a symbolic link loop, a truncated file, bad options) and the
# fixed texts (--help, --version). The reference is the dynamic glibc twin
# $B/tests/btfgen/btfcheck-dynamic.
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck REF=$B/tests/btfgen/btfcheck-dynamic
for f in "$BC" "$REF" "$B/corpus/maps_tc.bpf.o"; do
	[ -e "$f" ] || { echo "FAIL: $f missing (build first)"; exit 1; }
done
libc=glibc
grep -qa 'x86_64-linux-musl' "$BC" && libc=musl # its debug info names musl's headers
BC=$(realpath "$BC") REF=$(realpath "$REF")
# the inputs, under relative names (the same for both commands)
cp "$B"/corpus/*.o "$T" || exit 1
cd "$T" || exit 1
: >empty
head -c 1000 maps_tc.bpf.o >trunc.o
printf 'xxxxxxxx' >junk
mkdir adir
ln -s loop1 loop2 && ln -s loop2 loop1
objs=(*.o)
vmlinux=()
[ -r /sys/kernel/btf/vmlinux ] && vmlinux=(/sys/kernel/btf/vmlinux)
n=0 differ=0
same() { # same ARGS...: both commands on ARGS, compared
	n=$((n + 1))
	"$BC" "$@" >o1 2>e1; echo "exit $?" >>o1
	"$REF" "$@" >o2 2>e2; echo "exit $?" >>o2
	if ! cmp -s o1 o2 || ! cmp -s e1 e2; then
		differ=$((differ + 1))
		bad "btfcheck $* differs from glibc's:"
		diff o2 o1 | head -5; diff e2 e1 | head -5
	fi
}
for f in "${objs[@]}" empty junk adir loop1 missing "${vmlinux[@]}"; do
	same "$f"
	same --json --log-level 1 "$f"
	same --raw "$f"
	same --min-kernel "$f"
	same --target-kernel 5.2 --json "$f"
done
same "${objs[@]}" missing adir
same --json "${objs[@]}"
same; same --bogus; same --log-level x f; same --help; same -V
if [ ${#vmlinux[@]} -gt 0 ]; then
	same --target-btf "${vmlinux[0]}" --json "${objs[@]}"
	same --target-btf missing core_task.bpf.o
fi
echo "$n commands, $differ differ; $BC is linked with $libc"
exit $fail
