#!/bin/bash
# btfdump ext: the .BTF.ext dump checked against independent readers, on
# every corpus object as clang built it and after btfgen --in-place:
#  1. func_info (raw text): each record (section, insn_off, FUNC name) is an
#     STT_FUNC symbol of that section at that offset (llvm-objdump -t), and
#     every function symbol of a program section has its record;
#  2. line_info (JSON, -j): each record's source text is the line LINE of
#     FILE as it is on disk, and the raw dump has as many records;
#  3. CO-RE relocations (raw text): kind, root type id, access string and
#     member path are what libbpf itself reads in the same records (its
#     debug log while bpftool loads the object into a private bpffs).
. "$(dirname "$0")/../lib.sh"
DUMP=$B/btfdump
for t in llvm-objdump bpftool python3; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: loading with libbpf needs root"; exit 77; }
fs=$T/bpffs
cleanup() {
	mountpoint -q "$fs" && { rm -rf "$fs/p"; umount "$fs"; }
	rm -rf "$T"
}
trap cleanup EXIT
mkdir "$fs" && mount -t bpf bpf "$fs" || { echo "FAIL: cannot mount a bpffs at $fs"; exit 1; }

objs=("$B"/corpus/*.bpf.o)
[ -e "${objs[0]}" ] || { bad "no corpus objects (make corpus)"; exit 1; }
nrelo=0
for o in "${objs[@]}"; do
	n=$(basename "$o" .o)
	cp "$o" "$T/$n.btfgen.o"
	"$B/btfgen" --in-place "$T/$n.btfgen.o" || { bad "$o: btfgen --in-place failed"; continue; }
	for obj in "$o" "$T/$n.btfgen.o"; do
		"$DUMP" ext "$obj" >"$T/raw" || { bad "$obj: btfdump ext failed"; continue; }
		"$DUMP" -j ext "$obj" >"$T/json" || { bad "$obj: btfdump -j ext failed"; continue; }

		# 1. func_info against the symbol table
		awk '/^[a-z_]+: [0-9]+ section/ { kind = $1 } kind == "func_info:" && /^section / {
			sec = $2; gsub(/[\047:]/, "", sec) }
			kind == "func_info:" && /^\t/ { sub(/insn_off=/, "", $1); print sec, $1, substr($6, 2, length($6) - 2) }' \
			"$T/raw" | sort >"$T/fi.ours"
		# (functions of executable sections: a program section or .text)
		llvm-objdump -t "$obj" | awk '$3 == "F" { print $4, $1, $6 }' |
			while read -r sec addr name; do echo "$sec $((16#$addr)) $name"; done | sort >"$T/fi.syms"
		[ -s "$T/fi.ours" ] || bad "$obj: no func_info records printed"
		diff -q "$T/fi.ours" "$T/fi.syms" >/dev/null ||
			bad "$obj: func_info differs from the FUNC symbols: $(diff "$T/fi.ours" "$T/fi.syms" | grep '^[<>]' | tr '\n' ' ')"

		# 2. line_info against the source files
		python3 tests/dump/line_info_vs_source.py "$T/json" "$T/raw" "$obj" || fail=1

		# 3. CO-RE relocations against libbpf's reading of them
		sed -n '/^core_relo:/,$p' "$T/raw" | grep '^	' |
			sed -E 's/^\tinsn_off=[0-9]+ \(insn [0-9]+\) ([a-z_0-9]+) type_id=([0-9]+) access=([0-9:]+) (.*)$/<\1> [\2] \4 (\3/' |
			sed -E '/^<(byte_off|byte_sz|field_exists|signed|lshift_u64|rshift_u64)>/s/::/./' |
			sed -E '/^<(type_exists|type_size|type_matches|local_type_id|target_type_id|enumval_exists|enumval_value)>/s/ \([0-9:]+$//' \
				>"$T/relo.ours"
		[ -s "$T/relo.ours" ] || continue
		nrelo=$((nrelo + $(wc -l <"$T/relo.ours")))
		bpftool -d prog loadall "$obj" "$fs/p" >"$T/load.log" 2>&1 || bad "$obj: bpftool could not load it: $(grep -v '^libbpf: ' "$T/load.log" | tail -2)"
		rm -rf "${fs:?}/p"
		sed -nE 's/^libbpf: prog .*: relo #[0-9]+: (<[a-z_0-9]+> \[[0-9]+\] .*)$/\1/p' "$T/load.log" |
			grep -v 'candidate' | sed -E 's/ @ offset [0-9]+\)$//; s/ = -?[0-9]+$//' >"$T/relo.libbpf"
		diff -q <(sort "$T/relo.ours") <(sort "$T/relo.libbpf") >/dev/null ||
			bad "$obj: CO-RE relocations differ from libbpf's reading: $(diff <(sort "$T/relo.ours") <(sort "$T/relo.libbpf") | grep '^[<>]' | tr '\n' ' ')"
	done
done
[ "$nrelo" -gt 0 ] || bad "no CO-RE relocation was checked"

# errors: one line naming the file, nothing on stdout, cli/cli.h's status
llvm-objcopy --remove-section .BTF.ext --remove-section .rel.BTF.ext "${objs[0]}" "$T/noext.o"
expect_err() { # STATUS WORDS...: btfdump WORDS exits STATUS
	local want=$1 rc
	shift
	"$DUMP" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq "$want" ] || bad "btfdump $*: exit $rc, want $want"
	[ -s "$T/out" ] && bad "btfdump $*: printed on stdout: $(head -1 "$T/out")"
	[ "$(wc -l <"$T/err")" -eq 1 ] || bad "btfdump $*: want one line on stderr: $(cat "$T/err")"
}
expect_err 4 ext "$T/noext.o"
grep -q "noext.o.*\.BTF\.ext" "$T/err" || bad "no .BTF.ext: the message names neither the file nor the section: $(cat "$T/err")"
expect_err 4 ext "$B/btfgen"
expect_err 5 ext "$T/missing.o"
expect_err 2 ext
expect_err 2 ext "$T/noext.o" extra
[ $fail -eq 0 ] && echo "PASS: btfdump ext agrees with the symbols, the sources and libbpf on ${#objs[@]} corpus objects (clang's and btfgen's; $nrelo CO-RE relocations)"
exit $fail
