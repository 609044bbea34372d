#!/bin/bash
# Function-scope static variables of a BPF object (bpf_printk's ____fmt, a
# static const key, counters) get a VAR where clang gives one (issue 33):
# for tests/btfgen/statics.bpf.c built with clang-16 -g, the VARs (name,
# linkage) and every DATASEC entry (section, VAR, offset, size) of btfgen's
# BTF from the DWARF alone equal clang's own .BTF, also when the .rodata
# DATASEC holds one function's static only (-DONLY_RODATA). As root the
# object with btfgen's BTF is loaded (bpftool, a bpffs of its own) and
# bpftool dumps its .rodata map with typed values, not hex.
. "$(dirname "$0")/../lib.sh"
need_tools "$BPF_CLANG" llvm-objcopy
cleanup() {
	[ -d "$T/fs" ] && { rm -rf "${T:?}/fs/"* 2>/dev/null; umount "$T/fs" 2>/dev/null; }
	rm -rf "$T"
}
trap cleanup EXIT

# "VAR name linkage" and "SEC section var offset size" lines, sorted
vars() {
	"$B/btfdump" file "$1" | awk '
		/^\[[0-9]+\] VAR / { match($0, /linkage=[a-z]+/); print "VAR", $3, substr($0, RSTART + 8, RLENGTH - 8); sec = "" }
		/^\[[0-9]+\] DATASEC / { sec = $3; next }
		/^\[/ { sec = "" }
		/^\t/ && sec != "" { match($0, /\(VAR .*\)/); print "SEC", sec, substr($0, RSTART + 5, RLENGTH - 6), $2, $3 }
	' | sort
}

for v in full ONLY_RODATA; do
	o=$T/$v.o
	bpf_cc -g -O2 "${BPF_INC[@]}" -D"$v" \
		-c tests/btfgen/statics.bpf.c -o "$o" || { bad "statics.bpf.c -D$v does not build"; continue; }
	vars "$o" >"$T/$v.clang"
	grep -q "^VAR '[a-z_]*\.[a-z_.0-9]*' static" "$T/$v.clang" || bad "$v: clang gave no function-scope VAR: $(cat "$T/$v.clang")"
	llvm-objcopy --remove-section=.BTF --remove-section=.BTF.ext "$o" "$T/$v.dwarf.o"
	"$B/btfgen" -o "$T/$v.btf" "$T/$v.dwarf.o" || { bad "$v: btfgen failed"; continue; }
	vars "$T/$v.btf" >"$T/$v.ours"
	cmp -s "$T/$v.clang" "$T/$v.ours" ||
		bad "$v: VARs and DATASECs differ from clang's (< clang, > btfgen): $(diff "$T/$v.clang" "$T/$v.ours" | grep '^[<>]' | tr '\n' ' ')"
	# the object as a BPF build leaves it: clang's BTF replaced by btfgen's
	cp "$o" "$T/$v.ours.o"
	"$B/btfgen" --in-place "$T/$v.ours.o" || bad "$v: btfgen --in-place failed"
	"$B/btfcheck" "$T/$v.ours.o" >/dev/null || bad "$v: btfcheck rejects btfgen's BTF"
done
grep -qx "SEC '.rodata' 'only_key.zero' offset=0 size=4" "$T/ONLY_RODATA.ours" ||
	bad "ONLY_RODATA: no .rodata DATASEC for the one function-scope static: $(cat "$T/ONLY_RODATA.ours")"

if [ "$(id -u)" = 0 ] && command -v bpftool >/dev/null; then
	mkdir "$T/fs"
	if mount -t bpf bpf "$T/fs"; then
		for v in full ONLY_RODATA; do
			mkdir -p "$T/fs/$v" "$T/fs/${v}_maps"
			bpftool prog loadall "$T/$v.ours.o" "$T/fs/$v" pinmaps "$T/fs/${v}_maps" 2>"$T/load.err" ||
				{ bad "$v: bpftool prog loadall: $(grep -v 'strict mode\|--legacy' "$T/load.err" | tail -5)"; continue; }
			m=$(find "$T/fs/${v}_maps" -name '*rodata*' | head -1)
			[ -n "$m" ] || { bad "$v: no .rodata map pinned: $(ls "$T/fs/${v}_maps")"; continue; }
			bpftool map dump pinned "$m" >"$T/dump" 2>&1 || bad "$v: bpftool map dump: $(head -3 "$T/dump")"
			grep -q '"only_key.zero": 0' "$T/dump" ||
				bad "$v: the .rodata map is not dumped with its types: $(head -c 300 "$T/dump")"
			[ $v = full ] && { grep -q '"printer.____fmt.1": "big %d seen %d"' "$T/dump" ||
				bad "$v: bpf_printk's format is not a typed string: $(head -c 400 "$T/dump")"; }
		done
	else
		bad "cannot mount a bpffs"
	fi
else
	echo "note: not root or no bpftool: the load and map dump are not checked"
fi
[ $fail = 0 ] && echo "PASS: function-scope statics: VARs and DATASECs as clang's; typed .rodata dumps"
exit $fail
