#!/bin/bash
# btfdump map on maps without keys (ringbuf): one line that says why there
# is nothing to dump, exit 5, nothing on stdout (also in JSON and --lookup).
# Needs root and bpftool (to create the map) in its own bpffs.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (BPF maps)"; exit 77; }
command -v bpftool >/dev/null || { echo "SKIP: bpftool is not installed (creates the map)"; exit 77; }
work=$T
mnt=$work/bpffs
mkdir "$mnt"
cleanup() { rm -f "$mnt"/h19rb_*; umount "$mnt" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE
mount -t bpf bpf "$mnt" || { echo "FAIL: cannot mount a bpffs"; exit 1; }
pin=$mnt/h19rb_$$
bpftool map create "$pin" type ringbuf key 0 value 0 entries 4096 name h19rb_$(($$ % 10000)) ||
	{ echo "FAIL: bpftool map create ringbuf"; exit 1; }
for args in "map pinned $pin" "-j map pinned $pin" "map pinned $pin --lookup 1"; do
	"$B/btfdump" $args >"$work/out" 2>"$work/err"; rc=$?
	if [ $rc -ne 5 ] || [ -s "$work/out" ] || [ "$(wc -l <"$work/err")" -ne 1 ] ||
		! grep -q "ringbuf maps hold no keys to dump" "$work/err"; then
		echo "FAIL: btfdump $args: exit $rc, stdout $(wc -c <"$work/out") bytes, stderr: $(cat "$work/err")"
		fail=1
	fi
done
grep -q "Unknown error" "$work/err" && { echo "FAIL: an errno left unnamed"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: $(cat "$work/err")"
exit $fail
