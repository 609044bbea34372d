#!/bin/bash
# System errors are not bad input (issue 28 item 6): exit 5 (cli.h), with
# the system's reason, never "bad input" (4):
#  - `--in-place` and `-o` on a full file system (a 2 MiB tmpfs, filled, in
#    a mount namespace of the test's own: root only): "No space left on
#    device", the input unchanged, no temporary file left (libelf said
#    "cannot write data to file", exit 4);
#  - out of memory while libdw reads the DWARF (a 1 MiB object whose
#    compressed .debug_info inflates to 1 GiB, under `ulimit -v 300000`):
#    "out of memory", not "no DWARF debug info".
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
absb=$(cd "$B" && pwd)
n=0
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	gcc -g -O2 -c -o "$T/w.o" -x c - <<<'struct s { int a[64]; long b; } v; int f(struct s *p) { return p->a[1]; }' ||
		{ echo "FAIL: gcc"; exit 1; }
	mkdir "$T/mnt"
	# everything inside a private mount namespace: the tmpfs goes with it
	unshare -m bash -c '
		set -u
		mount -t tmpfs -o size=2m none "$1" || exit 99
		cp "$2/w.o" "$1/w.o"
		dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
		"$3/btfgen" --in-place "$1/w.o" 2>"$2/err1"; echo $? >"$2/rc1"
		cmp -s "$1/w.o" "$2/w.o" && echo same >"$2/same"
		"$3/btfgen" -o "$1/out.btf" "$2/w.o" 2>"$2/err2"; echo $? >"$2/rc2"
		ls -A "$1" >"$2/left"
		umount "$1"' _ "$T/mnt" "$T" "$absb"
	case $? in
	99) echo "note: no tmpfs mount here: the full file system case is not run" ;;
	*)
		n=$((n + 2))
		[ "$(cat "$T/rc1")" = 5 ] && grep -q "No space left on device" "$T/err1" ||
			bad "--in-place on a full file system: exit $(cat "$T/rc1"), $(cat "$T/err1") (want 5, ENOSPC)"
		[ -e "$T/same" ] || bad "--in-place on a full file system changed the input"
		[ "$(cat "$T/rc2")" = 5 ] && grep -q "No space left on device" "$T/err2" ||
			bad "-o on a full file system: exit $(cat "$T/rc2"), $(cat "$T/err2") (want 5, ENOSPC)"
		[ "$(tr '\n' ' ' <"$T/left")" = "fill w.o " ] ||
			bad "left on the full file system: $(tr '\n' ' ' <"$T/left")"
		;;
	esac
else
	echo "note: not root: the full file system case is not run"
fi
if [ "${SAN:-}" != 1 ]; then # (ASan reserves terabytes of address space)
	n=$((n + 1))
	python3 "$here/gen_big_dwarf.py" "$T/big.o" $((1 << 30)) || { echo "FAIL: gen_big_dwarf.py"; exit 1; }
	(ulimit -v 300000; timeout 30 "$B/btfgen" -o "$T/big.btf" "$T/big.o") 2>"$T/err3"; rc=$?
	[ $rc -eq 5 ] && grep -q "big.o: out of memory" "$T/err3" ||
		bad "DWARF that does not fit in memory: exit $rc, $(cat "$T/err3") (want 5, out of memory)"
fi
[ $n -gt 0 ] || { echo "SKIP: neither root nor a build without sanitizers"; exit 77; }
[ $fail -eq 0 ] && echo "PASS: $n system errors, each exit 5 with its reason"
exit $fail
