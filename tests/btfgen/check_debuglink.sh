#!/bin/bash
# btfgen on a binary whose DWARF is elsewhere (gcc -g, then objcopy
# --only-keep-debug + --strip-debug [--add-gnu-debuglink]): it follows the
# debuglink where gdb looks (next to the file, .debug/, /usr/lib/debug/DIR)
# and the build-id path /usr/lib/debug/.build-id/xx/yyyy.debug, and gives
# the same BTF as from the unstripped binary; a debug file whose CRC does
# not match is not taken; a missing one is named with every place looked
# at. -gsplit-dwarf binaries (DWARF 5 and GNU DWARF 4) say the .dwo files
# hold the types. Files under /usr/lib/debug are made for this test only
# (names from this run's temporary directory and a build-id made unique by
# it) and removed on exit.
. "$(dirname "$0")/../lib.sh"
DBG=/usr/lib/debug
made=()
cleanup() {
	local f
	for f in "${made[@]}"; do rm -rf "$f"; done
	rm -rf "$T"
}
trap cleanup EXIT
# mkdir -p DIR, recording the topmost directory it creates for cleanup
mkdir_made() {
	local top=$1
	while [ ! -e "$(dirname "$top")" ]; do top=$(dirname "$top"); done
	[ -e "$top" ] || made+=("$top")
	mkdir -p "$1"
}
command -v gcc >/dev/null && command -v objcopy >/dev/null || { echo "SKIP: gcc/objcopy not installed"; exit 77; }
[ -x "$B/btfgen" ] || { echo "missing $B/btfgen"; exit 1; }

# a program unique to this run (its build-id too)
cat >"$T/prog.c" <<EOC
struct point { int x, y; };
struct point origin = { 1, 2 };
const char *run_id = "$T";
int area(struct point *p) { return p->x * p->y; }
int main(void) { return area(&origin); }
EOC
gcc -g -O1 -Wl,--build-id -o "$T/full" "$T/prog.c" || { echo "gcc failed"; exit 1; }
"$B/btfgen" -o "$T/full.btf" "$T/full" || { echo "btfgen on the unstripped binary failed"; exit 1; }
"$B/btfdump" "$T/full.btf" >"$T/full.txt"
objcopy --only-keep-debug "$T/full" "$T/prog.debug"
objcopy --strip-debug "$T/full" "$T/nolink"   # build-id note only

# stripped DIR: DIR/prog with a debuglink to prog.debug
stripped() {
	mkdir -p "$1"
	(cd "$T" && objcopy --strip-debug --add-gnu-debuglink=prog.debug full "$1/prog")
}

# same LABEL BINARY: btfgen succeeds and gives the unstripped binary's BTF
same() {
	if ! "$B/btfgen" -o "$T/out.btf" "$2" 2>"$T/err"; then
		bad "$1: btfgen failed: $(cat "$T/err")"
	elif ! "$B/btfdump" "$T/out.btf" | cmp -s - "$T/full.txt"; then
		bad "$1: BTF differs from the unstripped binary's"
	else
		echo "ok: $1: $(grep -c '^\[' "$T/full.txt") types, as from the unstripped binary"
	fi
}

# refused CODE PATTERN LABEL BINARY: fails with one line matching PATTERN
refused() {
	"$B/btfgen" -o "$T/out.btf" "$4" 2>"$T/err" >/dev/null
	local rc=$?
	if [ $rc -ne "$1" ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -qE -- "$2" "$T/err"; then
		bad "$3: exit $rc, stderr: $(cat "$T/err")"
	else
		echo "ok: $3: $(cat "$T/err")"
	fi
}

stripped "$T/a"
cp "$T/prog.debug" "$T/a/"
same "debug file next to the binary" "$T/a/prog"

stripped "$T/b"
mkdir "$T/b/.debug"
cp "$T/prog.debug" "$T/b/.debug/"
same "debug file in .debug/" "$T/b/prog"

stripped "$T/c"
mkdir_made "$DBG$T/c"
cp "$T/prog.debug" "$DBG$T/c/"
same "debug file in $DBG/DIR" "$T/c/prog"

id=$(readelf -n "$T/full" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || { echo "no build-id in the test binary"; exit 1; }
mkdir_made "$DBG/.build-id/${id:0:2}"
made+=("$DBG/.build-id/${id:0:2}/${id:2}.debug")
cp "$T/prog.debug" "$DBG/.build-id/${id:0:2}/${id:2}.debug"
same "build-id path $DBG/.build-id/${id:0:2}/${id:2}.debug (no debuglink)" "$T/nolink"
rm -f "$DBG/.build-id/${id:0:2}/${id:2}.debug"

# a prog.debug of another build next to the binary: its CRC differs
stripped "$T/d"
sed 's/origin = { 1, 2 }/origin = { 3, 4 }/' "$T/prog.c" >"$T/other.c"
gcc -g -O1 -o "$T/other" "$T/other.c" && objcopy --only-keep-debug "$T/other" "$T/d/prog.debug"
refused 4 "gnu_debuglink 'prog.debug' was not found with a matching CRC" "a debug file with another CRC" "$T/d/prog"

stripped "$T/e"
refused 4 "gnu_debuglink 'prog.debug' was not found .*$T/e/prog.debug, $T/e/.debug/prog.debug, $DBG$T/e/prog.debug" \
	"no debug file anywhere" "$T/e/prog"

(cd "$T" && gcc -g -gsplit-dwarf -O1 -o split5 prog.c && gcc -gdwarf-4 -gsplit-dwarf -O1 -o split4 prog.c) ||
	{ echo "gcc -gsplit-dwarf failed"; exit 1; }
refused 4 "split DWARF \(-gsplit-dwarf\): 1 unit\(s\) keep their types in .dwo files \(first: split5-prog.dwo\)" \
	"-gsplit-dwarf (DWARF 5)" "$T/split5"
refused 4 "split DWARF \(-gsplit-dwarf\): 1 unit\(s\) keep their types in .dwo files \(first: split4-prog.dwo\)" \
	"-gsplit-dwarf -gdwarf-4" "$T/split4"
exit $fail
