#!/bin/bash
# layout_asserts.sh OBJ TYPES_C DUMP_H OUT_C [NO_ALIGN_REGEX]
# Writes OUT_C: _Static_assert()s that every named struct/union of OBJ's
# BTF (and every typedef of an anonymous one) has, in DUMP_H, the sizeof,
# _Alignof and member offsets that clang-16 gives it in the original
# TYPES_C. The expected values are computed by compiling TYPES_C itself
# (a probe file of globals initialised with sizeof/_Alignof/offsetof, read
# back from LLVM IR), not taken from the BTF. Records matching
# NO_ALIGN_REGEX get no _Alignof check: BTF has no alignment, so an explicit
# __attribute__((aligned(N))) cannot survive the round trip.
set -e
obj=$1 src=$2 dump=$3 out=$4 noalign=${5:-^$}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "C-name<TAB>member" lines (member empty for the record itself)
bpftool btf dump file "$obj" | awk '
	/^\[/ {
		rec = ""
		id = substr($1, 2, length($1) - 2)
		if (($2 == "STRUCT" || $2 == "UNION") && $3 != "\x27(anon)\x27") {
			name = $3; gsub("\x27", "", name)
			rec = tolower($2) " " name
			print rec "\t"
		} else if ($2 == "STRUCT" || $2 == "UNION") {
			anon[id] = 1
		} else if ($2 == "TYPEDEF") {
			name = $3; gsub("\x27", "", name)
			t = $4; sub("type_id=", "", t)
			tdef[t] = name
		}
		next
	}
	rec != "" && $0 !~ /bitfield_size/ && $1 != "\x27(anon)\x27" {
		m = $1; gsub("\x27", "", m)
		print rec "\t" m
	}
	END { for (t in tdef) if (t in anon) print tdef[t] "\t" }
' >"$work/list"

{
	echo "#include \"$(realpath "$src")\""
	echo "#include <stddef.h>"
	n=0
	while IFS=$'\t' read -r rec mem; do
		n=$((n + 1))
		if [ -z "$mem" ]; then
			echo "unsigned long __dc_sz_$n = sizeof($rec);"
			echo "unsigned long __dc_al_$n = _Alignof($rec);"
		else
			echo "unsigned long __dc_of_$n = offsetof($rec, $mem);"
		fi
	done <"$work/list"
} >"$work/probe.c"
"${BPF_CLANG:?tests/lib.sh sets it}" -target bpf -S -emit-llvm -o "$work/probe.ll" "$work/probe.c"

{
	echo "#include \"$(realpath "$dump")\""
	echo "#include <stddef.h>"
	n=0
	while IFS=$'\t' read -r rec mem; do
		n=$((n + 1))
		if [ -z "$mem" ]; then
			sz=$(sed -n "s/^@__dc_sz_$n = .* i64 \([0-9]*\).*/\1/p" "$work/probe.ll")
			al=$(sed -n "s/^@__dc_al_$n = .* i64 \([0-9]*\).*/\1/p" "$work/probe.ll")
			echo "_Static_assert(sizeof($rec) == $sz, \"sizeof($rec)\");"
			[[ $rec =~ $noalign ]] ||
				echo "_Static_assert(_Alignof($rec) == $al, \"_Alignof($rec)\");"
		else
			of=$(sed -n "s/^@__dc_of_$n = .* i64 \([0-9]*\).*/\1/p" "$work/probe.ll")
			echo "_Static_assert(offsetof($rec, $mem) == $of, \"offsetof($rec, $mem)\");"
		fi
	done <"$work/list"
} >"$out"
