#!/bin/bash
# Compressed debug sections (gcc -gz: SHF_COMPRESSED .debug_*): libdw
# decompresses them and btfgen reads the same DWARF as without compression,
# in a relocatable object and in a linked program.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=same_types.sh
. "$(dirname "$0")/same_types.sh"
cat >"$T/a.c" <<'C'
struct node { struct node *next; const char *name; unsigned int flags : 3, kind : 5; long v[300]; };
enum color { RED = -1, GREEN = 70000 };
struct node head;
enum color paint(struct node *n) { return n->flags ? RED : GREEN; }
int main(void) { return paint(&head) == RED; }
C
fail=0
for kind in obj prog; do
	flags=-c
	[ $kind = prog ] && flags=
	gcc -g -O1 $flags -o "$T/plain.$kind" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
	gcc -g -O1 -gz=zlib $flags -o "$T/z.$kind" "$T/a.c" || { echo "FAIL: gcc -gz"; exit 1; }
	readelf -S "$T/z.$kind" | grep -A1 '\.debug_info' | grep -q ' C ' ||
		{ echo "FAIL: gcc -gz left .debug_info uncompressed ($kind)"; exit 1; }
	same_types "plain.$kind" "z.$kind" "compressed DWARF gives other types ($kind)"
	grep -q '^struct node size=2424 ' "$T/plain.$kind.sig" || { echo "FAIL: struct node missing ($kind)"; fail=1; }
done
[ $fail -eq 0 ] && echo "PASS: zlib-compressed debug sections give the same types (object and program)"
exit $fail
