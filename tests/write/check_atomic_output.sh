#!/bin/bash
# Outputs are written through a temporary file and renamed, except when the
# target is not a regular file: a device or FIFO must be written in place,
# never replaced (renaming over /dev/null once turned it into a file).
# Uses a private null device (mknod, root) or a FIFO, never /dev/null itself.
. "$(dirname "$0")/../lib.sh"
check() { if "$@"; then echo "ok: ${*: -1}"; else echo "FAIL: $*"; fail=1; fi; }

bpf_cc -g -O2 -c -o "$T/obj.o" -x c - <<'C' || exit 1
struct point { int x, y; } p;
int f(struct point *q) { return q->x; }
C

targets=()
if [ "$(id -u)" -eq 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then
	targets+=("$T/null")
fi
mkfifo "$T/fifo"
targets+=("$T/fifo")

for t in "${targets[@]}"; do
	[ -p "$t" ] && { cat "$t" >"$T/fifo.out" & }
	check "$B/btfgen" -o "$t" "$T/obj.o"
	wait
	check test ! -f "$t"
	[ -p "$t" ] && { cat "$t" >"$T/fifo.out" & }
	check "$B/btfdump" file /sys/kernel/btf/vmlinux format c --output "$t"
	wait
	check test ! -f "$t"
done
[ -c "$T/null" ] && check test -c "$T/null"
# regular files still go through a rename: the inode changes
"$B/btfgen" -o "$T/out.btf" "$T/obj.o" && ino1=$(stat -c %i "$T/out.btf")
"$B/btfgen" -o "$T/out.btf" "$T/obj.o" && ino2=$(stat -c %i "$T/out.btf")
check test "$ino1" != "$ino2"
check "$B/btfdump" "$T/out.btf" >/dev/null
compgen -G "$T/*tmp*" >/dev/null && { echo "FAIL: temporary file left behind"; fail=1; }
exit $fail
