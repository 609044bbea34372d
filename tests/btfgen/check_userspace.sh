#!/bin/bash
# btfgen on user-space programs: the project's own btfdump/btfcheck/btfgen as
# built by make (gcc -g), and btfgen rebuilt with clang -g. For each:
#  - -j1 and -j2 give the same bytes (multi-CU input: deterministic threading);
#  - the running kernel loads the BTF (BPF_BTF_LOAD);
#  - every FUNC's linkage matches the ELF symbol (nm: T global, t static);
#  - every DATASEC entry sits at its symbol's address (section VMA + offset)
#    and the DATASEC size is the section's size.
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen SIG=$B/tests/btfgen/btfsig LOAD=$B/tests/btfgen/btfload
for t in nm objdump clang; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: kernel load checks need root"; exit 77; }

# btfgen itself, built by clang (one compiler run over its sources; the
# committed ones when this is a git checkout)
src=.
if git rev-parse --verify -q HEAD >/dev/null 2>&1; then
	mkdir -p "$T/src" && git archive HEAD libbtf btfgen cli | tar -x -C "$T/src" && src=$T/src
fi
clang -g -O1 -std=gnu11 -D_GNU_SOURCE -I$src/libbtf/include -I$src/libbtf -I$src/cli -I$B/gen -w $src/libbtf/*/*.c $src/cli/*.c $src/btfgen/*.c \
	-o "$T/btfgen.clang" -lbpf -ldw -lelf -lz -lpthread || bad "clang build of btfgen failed"

for bin in "$B/btfdump" "$B/btfcheck" "$B/btfgen" "$T/btfgen.clang"; do
	[ -x "$bin" ] || { bad "$bin missing"; continue; }
	n=$(basename "$bin")
	"$BTFGEN" -j1 -o "$T/$n.j1.btf" "$bin" || { bad "$bin: btfgen -j1 failed"; continue; }
	"$BTFGEN" -j2 -o "$T/$n.j2.btf" "$bin" || { bad "$bin: btfgen -j2 failed"; continue; }
	cmp -s "$T/$n.j1.btf" "$T/$n.j2.btf" || bad "$bin: -j1 and -j2 outputs differ"
	"$LOAD" "$T/$n.j1.btf" || bad "$bin: kernel rejected btfgen's BTF"
	"$SIG" "$T/$n.j1.btf" >"$T/$n.sig"

	# FUNC linkage vs symbol binding, for names with one function symbol
	nm --defined-only "$bin" | awk '$2 ~ /^[Tt]$/ { n[$3]++; b[$3] = $2 } END { for (s in n) if (n[s] == 1) print s, (b[s] == "T" ? 1 : 0) }' |
		sort >"$T/$n.nm_funcs"
	awk '$1 == "func" { sub("linkage=", "", $3); print $2, $3 }' "$T/$n.sig" | sort -u >"$T/$n.btf_funcs"
	wrong=$(join "$T/$n.nm_funcs" "$T/$n.btf_funcs" | awk '$2 != $3')
	[ -z "$wrong" ] || bad "$bin: FUNC linkage differs from the symbol table: $(echo $wrong | head -c 300)"
	nfunc=$(join "$T/$n.nm_funcs" "$T/$n.btf_funcs" | wc -l)
	nstatic=$(join "$T/$n.nm_funcs" "$T/$n.btf_funcs" | awk '$3 == 0' | wc -l)
	[ "$nfunc" -gt 50 ] && [ "$nstatic" -gt 5 ] || bad "$bin: only $nfunc FUNCs ($nstatic static) matched symbols"

	# DATASECs: size and offsets from the ELF
	objdump -h "$bin" | awk '$1 ~ /^[0-9]+$/ { print $2, $3, $4 }' >"$T/$n.secs"
	nm --defined-only "$bin" | awk '{ n[$3]++; a[$3] = $1 } END { for (s in n) if (n[s] == 1) print s, a[s] }' >"$T/$n.syms"
	nvar=0
	while read -r _ sec size rest; do
		line=$(awk -v s="$sec" '$1 == s' "$T/$n.secs")
		[ -n "$line" ] || { bad "$bin: DATASEC $sec is no section"; continue; }
		set -- $line
		[ "$size" = "size=$((16#$2))" ] || bad "$bin: DATASEC $sec $size, section has $((16#$2))"
		vma=$((16#$3))
		for v in $(echo "$rest" | sed 's/[{}]//g; s/; / /g'); do
			name=${v%%@*} off=${v#*@}; off=${off%%+*}
			addr=$(awk -v s="$name" '$1 == s { print $2 }' "$T/$n.syms")
			[ -z "$addr" ] && continue # name not unique in the symbol table
			[ $((16#$addr)) -eq $((vma + off)) ] || bad "$bin: VAR $name at $sec+$off, symbol at 0x$addr"
			nvar=$((nvar + 1))
		done
	done < <(grep '^datasec ' "$T/$n.sig")
	[ "$nvar" -gt 0 ] || bad "$bin: only $nvar VARs checked against symbols"
	echo "$bin: $(grep -c . "$T/$n.sig") signatures, $nfunc FUNCs ($nstatic static) with symbol linkage," \
		"$nvar VARs at their symbol addresses, -j1 = -j2, kernel accepts"
done
[ $fail -eq 0 ] && echo "PASS: btfgen on gcc and clang user-space binaries"
exit $fail
