#!/bin/bash
# The source files a gcc-bpf object's DWARF names, read for line_info's line
# text (libbtf/dwarf/extlines.c), are read only when they are regular files
# of at most 16 MiB (issue 28 item 3): `#line 1 "/dev/zero"` read until
# memory ran out, a FIFO's name waited forever. Now each gets a note and
# records without text, at once (timeout 10 s, 1 GiB address space); a
# regular file's lines still carry their text.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
command -v bpf-gcc >/dev/null || { echo "SKIP: bpf-gcc not installed (scripts/deps.sh installs gcc-bpf)"; exit 77; }
mkfifo "$T/fifo.c" || { echo "FAIL: mkfifo"; exit 1; }
truncate -s 17M "$T/big.c" || { echo "FAIL: truncate"; exit 1; }
cat >"$T/src.c" <<EOF
int counter;
int prog0(void *ctx) { return counter; } /* its own file: text kept */
#line 1 "/dev/zero"
int prog1(void *ctx) { return counter + 1; }
#line 1 "$T/fifo.c"
int prog2(void *ctx) { return counter + 2; }
#line 1 "$T/big.c"
int prog3(void *ctx) { return counter + 3; }
EOF
bpf-gcc -g -O2 -c -o "$T/src.o" "$T/src.c" || { echo "FAIL: bpf-gcc"; exit 1; }
vlim=1048576
[ "${SAN:-}" = 1 ] && vlim=unlimited # ASan reserves terabytes
(ulimit -v $vlim; timeout 10 "$B/btfgen" -v --in-place "$T/src.o") 2>"$T/err"; rc=$?
[ $rc -eq 0 ] || bad "btfgen --in-place: exit $rc, $(head -c 400 "$T/err")"
for w in "/dev/zero: not a regular file" "$T/fifo.c: not a regular file" "$T/big.c: larger than 16777216 bytes"; do
	grep -qF "note: line_info: source file cannot be read ($w" "$T/err" ||
		bad "no note '$w': $(head -c 400 "$T/err")"
done
"$B/btfdump" ext "$T/src.o" >"$T/ext" || bad "btfdump ext failed"
grep -q "src.c:2:.*int prog0(void \*ctx) { return counter; }" "$T/ext" ||
	bad "the regular source file's line lost its text: $(grep src.c "$T/ext" | head -2)"
grep -q "/dev/zero:1:[0-9]*	\$" "$T/ext" || bad "/dev/zero's line has text: $(grep zero "$T/ext" | head -2)"
"$B/btfcheck" "$T/src.o" >/dev/null 2>&1 || bad "btfcheck refuses the object"
[ $fail -eq 0 ] && echo "PASS: /dev/zero, a FIFO and a 17 MiB file named as sources: notes, no text, no wait"
exit $fail
