#!/bin/bash
# gcc-bpf objects made first-class by btfgen (issue 20). Debian's gcc-bpf 12
# compiles the flow dissector (bpf/bpf_flow.c) and the corpus programs it
# can (the others must fail with the error docs/GCC_BPF.md names); its -g objects
# have DWARF and no .BTF.ext. For each: `btfgen --in-place` gives .BTF and a
# generated .BTF.ext (func_info, line_info), btfcheck accepts the BTF, every
# line_info record's text is the line of the file it names, libbpf loads
# the object and the kernel takes the BTF (btf_id), func_info and
# line_info, and the xlated code shows source lines. Against clang-16's
# object of the same source: the same named types (INT names in clang's
# spelling), func_info for the same functions, and per program at least
# 70% of the source lines clang's line_info covers covered by gcc's and the
# other way round (the instructions differ: what each compiler keeps of a
# line differs). The flow dissector built by gcc passes flowctl's 36 test
# vectors. A gcc -gbtf object (gcc's own .BTF and an empty .BTF.ext) gets
# the same. Prints the comparison figures.
. "$(dirname "$0")/../lib.sh"
C=$B/corpus
RUN=$C/corpus_run
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loads BPF programs into the kernel)"; exit 77; }
command -v bpf-gcc >/dev/null || { echo "FAIL: bpf-gcc missing (scripts/deps.sh installs gcc-bpf)"; exit 1; }
for f in "$RUN" "$B/btfgen" "$B/btfcheck" "$B/btfdump" "$B/flowctl" "$B/bpf/bpf_flow.clang.o"; do
	[ -e "$f" ] || { echo "FAIL: $f missing (make all corpus)"; exit 1; }
done
MA=$(gcc -print-multiarch)
# bpf-gcc is freestanding: the system headers after its own; libbpf 1.1
# defines bpf_tail_call_static() for clang only (an asm block), the plain
# helper does the same tail call
GFLAGS=(-g -O2 -Wall -I"/usr/include/$MA" -idirafter /usr/include -Itests/corpus -Dbpf_tail_call_static=bpf_tail_call)
# what gcc-bpf 12 cannot compile, and its error (docs/GCC_BPF.md)
declare -A NOCC=([core_task]="indirect call in function" [link_b]="indirect call in function"
	[maps_tc]="indirect call in function")
# what gcc-bpf 12 compiles but the kernel refuses, and why (docs/GCC_BPF.md):
# its assembler writes a global variable's offset into the ld_imm64 and
# also relocates against the variable's symbol, so libbpf adds it twice
declare -A NOLD=([tailcall_xdp]="invalid access to map value pointer"
	[ringbuf_kfunc]="invalid access to map value pointer")

# names OBJ: the named types of its .BTF, INTs in clang's spelling
names() {
	"$B/btfdump" "$1" | sed -n "s/^\[[0-9]*\] \([A-Z_0-9]*\) '\([^']*\)'.*/\1 \2/p" | grep -v "'(anon)'\| (anon)$" |
		sed -e 's/^INT long long unsigned int$/INT unsigned long long/' -e 's/^INT long unsigned int$/INT unsigned long/' \
			-e 's/^INT short unsigned int$/INT unsigned short/' -e 's/^INT long long int$/INT long long/' \
			-e 's/^INT long int$/INT long/' -e 's/^INT short int$/INT short/' | sort -u
}
# funcs OBJ: "SECTION FUNC" per func_info record
funcs() { "$B/btfdump" ext "$1" | awk '/^func_info:/{m=1;next} /^line_info:/{m=0} /^section /{s=$2} m && /FUNC/{print s, $NF}' | tr -d "'" | sort; }
# lines OBJ: "SECTION FUNC FILE:LINE" covered by line_info
lines() { "$B/btfdump" ext "$1" | awk -f tests/corpus/ext_lines.awk | sort -u; }

# check NAME GCCOBJ CLANGOBJ [noload]
check() {
	local name=$1 g=$2 c=$3 load=${4:-} ksyms='^$'
	[ "$load" = noload ] && ksyms='^DATASEC \.ksyms$'
	llvm-readelf -SW "$g" | grep -q ' \.BTF\.ext ' && bad "$name: gcc -g wrote a .BTF.ext (the test assumes none)"
	if ! "$B/btfgen" --in-place "$g" 2>"$T/err"; then
		bad "btfgen --in-place on gcc's $name: $(cat "$T/err")"
		return
	fi
	# (an object made for static linking, with externs, is not one libbpf
	# or the kernel take: btfgen itself verified it as libbpf loads externs)
	[ "$load" = noload ] ||
		"$B/btfcheck" "$g" >"$T/err" 2>&1 || bad "$name: btfcheck rejects btfgen's BTF: $(tail -3 "$T/err")"
	"$B/btfdump" ext "$g" >"$T/$name.ext" 2>"$T/err" || { bad "$name: no readable .BTF.ext: $(cat "$T/err")"; return; }
	grep -q '^func_info: [1-9]' "$T/$name.ext" || bad "$name: no func_info generated"
	grep -q '^line_info: [1-9]' "$T/$name.ext" || bad "$name: no line_info generated"
	awk -f tests/corpus/ext_text.awk "$T/$name.ext" >"$T/text"
	grep -v '^checked ' "$T/text" | head -3 | sed "s/^/FAIL: $name: /"
	grep -q '^checked ' "$T/text" && [ "$(wc -l <"$T/text")" = 1 ] || fail=1
	cp "$g" "$T/again.o"
	"$B/btfgen" --in-place "$T/again.o" 2>"$T/err" && cmp -s "$T/again.o" "$g" ||
		bad "$name: btfgen --in-place on its own output changes it $(cat "$T/err")"
	# the same named types, the same functions, most of the same lines as clang
	# functions: clang's, plus static ones clang inlined and gcc did not
	# (then the types only they use are gcc's only): listed
	local fextra nextra
	comm -23 <(funcs "$c" | awk '{print $2}' | sort -u) <(funcs "$g" | awk '{print $2}' | sort -u) >"$T/f.miss"
	[ -s "$T/f.miss" ] && bad "$name: no func_info for clang's $(tr '\n' ' ' <"$T/f.miss")"
	fextra=$(comm -13 <(funcs "$c" | awk '{print $2}' | sort -u) <(funcs "$g" | awk '{print $2}' | sort -u) | tr '\n' ' ')
	for f in $fextra; do
		"$B/btfdump" "$g" | grep -q "^\[[0-9]*\] FUNC '$f' .*linkage=static" || bad "$name: func_info for $f, not clang's and not a static function"
	done
	comm -23 <(names "$c") <(names "$g") >"$T/names.miss"
	[ -s "$T/names.miss" ] && bad "$name: clang's named types missing: $(head -6 "$T/names.miss" | tr '\n' ' ')"
	# DWARF has no section attributes: gcc's plain externs (static
	# linking) go to .ksyms by libbpf's naming rule (docs/GCC_BPF.md)
	nextra=$(comm -13 <(names "$c") <(names "$g") | grep -v -e "$ksyms" | tr '\n' ' ')
	[ -n "$nextra" ] && [ -z "$fextra" ] && bad "$name: named types clang does not have: $nextra"
	[ -n "$fextra" ] && echo "  $name: gcc kept static function(s) $fextra(clang inlined them), with named types $nextra"
	# lines: over the whole object, and per function both compilers kept
	# (a function one of them inlined has its lines in its callers there)
	lines "$c" >"$T/c.lines"
	lines "$g" >"$T/g.lines"
	local cn gn both f fc fg fb low=""
	cn=$(awk '{print $3}' "$T/c.lines" | sort -u | tee "$T/c.all" | wc -l)
	gn=$(awk '{print $3}' "$T/g.lines" | sort -u | tee "$T/g.all" | wc -l)
	both=$(comm -12 "$T/c.all" "$T/g.all" | wc -l)
	echo "  $name: named types $(names "$g" | wc -l) (clang $(names "$c" | wc -l)), func_info $(funcs "$g" | wc -l) (clang $(funcs "$c" | wc -l)), source lines in line_info: clang $cn, gcc $gn, both $both"
	if [ "$cn" -eq 0 ] || [ $((100 * both)) -lt $((70 * cn)) ] || [ $((100 * both)) -lt $((70 * gn)) ]; then
		bad "$name: line_info covers other source lines than clang's (clang $cn, gcc $gn, both $both; want >= 70% of each)"
	fi
	# per function, without the lines of functions gcc kept and clang inlined
	awk -v x=" $fextra " 'index(x, " " $2 " ") {print $3}' "$T/g.lines" | sort -u >"$T/g.kept"
	for f in $(comm -12 <(funcs "$c" | awk '{print $2}' | sort -u) <(funcs "$g" | awk '{print $2}' | sort -u)); do
		awk -v f="$f" '$2 == f {print $3}' "$T/c.lines" | sort | comm -23 - "$T/g.kept" >"$T/fc"
		awk -v f="$f" '$2 == f {print $3}' "$T/g.lines" | sort >"$T/fg"
		fc=$(wc -l <"$T/fc") fg=$(wc -l <"$T/fg") fb=$(comm -12 "$T/fc" "$T/fg" | wc -l)
		echo "    $f: clang $fc, gcc $fg, both $fb"
		[ $((100 * fb)) -lt $((50 * fc)) ] || [ $((100 * fb)) -lt $((50 * fg)) ] && low="$low $f($fc/$fg/$fb)"
	done
	[ -n "$low" ] && bad "$name: functions whose line_info shares less than half its lines with clang's:$low"
	[ "$load" = noload ] && return
	if ! "$RUN" "$g" --xlated >"$T/$name.run" 2>"$T/err"; then
		if [ -n "${NOLD[$name]:-}" ] && grep -q "${NOLD[$name]}" "$T/err"; then
			echo "  $name: the kernel refuses gcc's code, as README says ($(grep -m1 "${NOLD[$name]}" "$T/err"))"
		else
			bad "$name: gcc's object does not load: $(grep -v 'skipping unrecognized' "$T/err" | tail -4)"
		fi
		return
	fi
	[ -n "${NOLD[$name]:-}" ] && bad "$name: gcc's object loads now: check it and update README"
	grep -q '^prog ' "$T/$name.run" || bad "$name: no programs loaded"
	grep '^prog .*: btf ' "$T/$name.run" | grep -v ': btf yes, [1-9][0-9]* func_info, [1-9][0-9]* line_info$' |
		sed "s/^/FAIL: $name: kernel took no BTF\/func_info\/line_info: /" | grep . && fail=1
	grep -q '^; .*\[file:.*line_num:[1-9]' "$T/$name.run" || bad "$name: no source lines in the xlated code"
}

n=0
for src in bpf/bpf_flow.c tests/corpus/*.bpf.c; do
	name=$(basename "$src" .c)
	name=${name%.bpf}
	if ! bpf-gcc "${GFLAGS[@]}" -c -o "$T/$name.o" "$src" 2>"$T/$name.cc"; then
		if [ -n "${NOCC[$name]:-}" ] && grep -q "error: ${NOCC[$name]}" "$T/$name.cc"; then
			echo "  $name: gcc-bpf cannot compile it, as README says ($(grep -m1 -o "error: .*" "$T/$name.cc"))"
		else
			bad "gcc-bpf cannot compile $src: $(grep -m2 error "$T/$name.cc")"
		fi
		continue
	fi
	[ -n "${NOCC[$name]:-}" ] && bad "gcc-bpf now compiles $name: test it and update README"
	case $name in
	bpf_flow)
		# gcc places a const volatile global in .data; flowctl takes the
		# configuration from .rodata (docs/GCC_BPF.md)
		llvm-objcopy --rename-section .data=.rodata,alloc,load,readonly,data "$T/$name.o"
		check "$name" "$T/$name.o" "$B/bpf/bpf_flow.clang.o"
		"$B/flowctl" test --obj "$T/$name.o" >"$T/flow.out" 2>&1 || true
		grep -q '^36 vectors, 0 failed$' "$T/flow.out" || bad "gcc's flow dissector: $(tail -3 "$T/flow.out")"
		# the verifier's log (level 2) shows gcc's source lines, "; TEXT @ FILE:LINE",
		# each the text of that line of the source
		if "$RUN" "$T/$name.o" --verifier-log "$T/vlog" >/dev/null 2>"$T/err"; then
			grep -E '^; .+ @ bpf_flow\.c:[0-9]+$' "$T/vlog" | sort -u >"$T/vlines"
			nv=$(wc -l <"$T/vlines")
			[ "$nv" -ge 50 ] || bad "gcc's flow dissector: $nv source lines in the verifier log (want >= 50)"
			while IFS= read -r l; do
				text=${l#; } text=${text% @ *} ln=${l##*:}
				[ "$(sed -n "${ln}p" bpf/bpf_flow.c | sed 's/^[[:space:]]*//')" = "$text" ] ||
					{ bad "verifier log line '$l' is not line $ln of bpf/bpf_flow.c"; break; }
			done <"$T/vlines"
			echo "  bpf_flow: $nv distinct source lines in the verifier's log, each its line's text"
		else
			bad "gcc's flow dissector with a verifier log: $(tail -3 "$T/err")"
		fi
		rm -f "$T/vlog"
		;;
	link_a) check "$name" "$T/$name.o" "$C/$name.bpf.o" noload ;; # its externs are link_b's
	*) check "$name" "$T/$name.o" "$C/$name.bpf.o" ;;
	esac
	n=$((n + 1))
done

# gcc -gbtf: gcc's own .BTF and an empty .BTF.ext (no records): btfgen
# replaces the one and completes the other
bpf-gcc "${GFLAGS[@]}" -gbtf -c -o "$T/gbtf.o" bpf/bpf_flow.c 2>"$T/err" || bad "bpf-gcc -gbtf: $(cat "$T/err")"
llvm-objcopy --rename-section .data=.rodata,alloc,load,readonly,data "$T/gbtf.o"
"$B/btfdump" ext "$T/gbtf.o" 2>/dev/null | grep -q '^func_info: 0 sections' || bad "gcc -gbtf's .BTF.ext is not the empty one README describes"
"$B/btfgen" --in-place "$T/gbtf.o" 2>"$T/err" || bad "btfgen on gcc -gbtf's object: $(cat "$T/err")"
"$B/btfdump" ext "$T/gbtf.o" | grep -q '^line_info: [1-9]' || bad "gcc -gbtf object: no line_info after btfgen"
"$RUN" "$T/gbtf.o" >"$T/gbtf.run" 2>"$T/err" && grep -q ': btf yes, [1-9][0-9]* func_info, [1-9][0-9]* line_info$' "$T/gbtf.run" &&
	! grep '^prog .*: btf ' "$T/gbtf.run" | grep -qv ': btf yes, [1-9][0-9]* func_info, [1-9][0-9]* line_info$' ||
	bad "gcc -gbtf object after btfgen: not loaded with BTF, func_info and line_info: $(tail -3 "$T/err")"

# gcc -gbtf -mco-re: its .BTF.ext holds CO-RE relocations (and a
# .rel.BTF.ext): they are kept, func_info/line_info added, the relocations
# of the old layout removed
cat >"$T/core.c" <<'EOF'
struct corpus_t { int a; int b; } __attribute__((preserve_access_index));
__attribute__((section("tc"))) int corpus_core(struct corpus_t *p) { return p->b; }
char _license[] __attribute__((section("license"))) = "GPL";
EOF
if bpf-gcc -g -gbtf -mco-re -O2 -c -o "$T/core.o" "$T/core.c" 2>"$T/err"; then
	llvm-readelf -SW "$T/core.o" | grep -q ' \.rel\.BTF\.ext ' || bad "gcc -mco-re wrote no .rel.BTF.ext (README says it does)"
	if "$B/btfgen" --in-place "$T/core.o" 2>"$T/err"; then
		"$B/btfdump" ext "$T/core.o" >"$T/core.ext"
		grep -q "byte_off type_id=[0-9]* access=0:1 struct corpus_t::b" "$T/core.ext" ||
			bad "gcc -mco-re: the CO-RE relocation was not kept: $(cat "$T/core.ext")"
		grep -q "FUNC 'corpus_core'" "$T/core.ext" && grep -q '^line_info: 1 section' "$T/core.ext" ||
			bad "gcc -mco-re: no func_info/line_info added"
		llvm-readelf -SW "$T/core.o" | grep -q ' \.rel\.BTF\.ext ' && bad "gcc -mco-re: .rel.BTF.ext of the old layout kept"
		"$B/btfcheck" "$T/core.o" >"$T/err" 2>&1 || bad "gcc -mco-re object: btfcheck: $(tail -2 "$T/err")"
	else
		bad "btfgen on gcc -mco-re's object: $(cat "$T/err")"
	fi
else
	bad "bpf-gcc -mco-re: $(cat "$T/err")"
fi

[ $fail = 0 ] || exit 1
echo "PASS: $n gcc-bpf objects get .BTF and a generated .BTF.ext from btfgen; loaded with BTF, func_info and line_info; same types/functions as clang, lines mostly the same; gcc's flow dissector passes its vectors"
