#!/bin/bash
# Outputs are written through a temporary file and renamed, except when the
# target is not a regular file: a device or FIFO must be written in place,
# never replaced (renaming over /dev/null once turned it into a file).
# Uses a private null device (mknod, root) or a FIFO, never /dev/null itself.
set -u
B=${B:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check() { if "$@"; then echo "ok: ${*: -1}"; else echo "FAIL: $*"; fail=1; fi; }

clang-16 -g -O2 -target bpf -c -o "$dir/obj.o" -x c - <<'C' || exit 1
struct point { int x, y; } p;
int f(struct point *q) { return q->x; }
C

targets=()
if [ "$(id -u)" -eq 0 ] && mknod "$dir/null" c 1 3 2>/dev/null; then
	targets+=("$dir/null")
fi
mkfifo "$dir/fifo"
targets+=("$dir/fifo")

for t in "${targets[@]}"; do
	[ -p "$t" ] && { cat "$t" >"$dir/fifo.out" & }
	check "$B/btfgen" -o "$t" "$dir/obj.o"
	wait
	check test ! -f "$t"
	[ -p "$t" ] && { cat "$t" >"$dir/fifo.out" & }
	check "$B/btfdump" file /sys/kernel/btf/vmlinux format c --output "$t"
	wait
	check test ! -f "$t"
done
[ -c "$dir/null" ] && check test -c "$dir/null"
# regular files still go through a rename: the inode changes
"$B/btfgen" -o "$dir/out.btf" "$dir/obj.o" && ino1=$(stat -c %i "$dir/out.btf")
"$B/btfgen" -o "$dir/out.btf" "$dir/obj.o" && ino2=$(stat -c %i "$dir/out.btf")
check test "$ino1" != "$ino2"
check "$B/btfdump" "$dir/out.btf" >/dev/null
compgen -G "$dir/*tmp*" >/dev/null && { echo "FAIL: temporary file left behind"; fail=1; }
exit $fail
