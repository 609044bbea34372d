#!/bin/bash
# btfgen as the build step of real BPF objects: for every corpus object
# (clang-16, tests/corpus/*.bpf.c), `btfgen --in-place` on a copy must give an
# object that loads and runs exactly like clang's: corpus_run's report
# (test-run results, map contents, btf_id / func_info / line_info counts,
# and with --xlated the kernel's xlated code with line info) identical for
# both, every program with BTF and func_info; .BTF.ext kept, .rel.BTF gone.
# core_task is compiled against another kernel's layout (old_kernel.h): its
# CO-RE relocations must really be applied (without them it runs wrong,
# checked here too). The two-object program is linked from btfgen objects
# with `bpftool gen object`, its report equals clang's linked one, and a
# skeleton made from it (`bpftool gen skeleton`) builds and runs. btfgen on
# its own output changes nothing, and the DWARF stays valid.
. "$(dirname "$0")/../lib.sh"
C=$B/corpus
RUN=$C/corpus_run
CC=${CC:-cc}
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (loads BPF programs)"; exit 1; }
for f in "$RUN" "$B/btfgen" "$C/link.o"; do
	[ -e "$f" ] || { echo "FAIL: $f missing (make corpus)"; exit 1; }
done
mkdir -p "$T/clang" "$T/gen" "$T/noext"

# report OBJ OUT: corpus_run with xlated code; an object that does not load fails
report() {
	"$RUN" "$1" --xlated >"$2" 2>"$2.err" || { bad "$1 does not load/run: $(tail -3 "$2.err")"; return 1; }
}

n=0
for o in "$C"/*.bpf.o; do
	name=$(basename "$o")
	cp "$o" "$T/gen/$name"
	if ! "$B/btfgen" --in-place "$T/gen/$name" 2>"$T/err"; then
		bad "btfgen --in-place $name: $(cat "$T/err")"
		continue
	fi
	sections=$(llvm-readelf -SW "$T/gen/$name")
	grep -q ' \.BTF\.ext ' <<<"$sections" || bad "$name: .BTF.ext dropped"
	grep -q ' \.rel\.BTF ' <<<"$sections" && bad "$name: .rel.BTF kept"
	# sections after the removed .rel.BTF renumbered: DWARF still whole,
	# and btfgen on its own output (its .BTF.ext made for btfgen's types)
	# gives the same bytes
	llvm-dwarfdump --verify "$T/gen/$name" >"$T/err" 2>&1 || bad "$name: DWARF broken: $(tail -3 "$T/err")"
	# every symbol still names its section (section symbols by name)
	symsecs() { llvm-readelf -sW "$1" | awk '$4 == "SECTION" {print $1, $8}'; }
	[ "$(symsecs "$o")" = "$(symsecs "$T/gen/$name")" ] ||
		bad "$name: section symbols name other sections: $(diff <(symsecs "$o") <(symsecs "$T/gen/$name") | head -4)"
	cp "$T/gen/$name" "$T/again.o"
	"$B/btfgen" --in-place "$T/again.o" && cmp -s "$T/again.o" "$T/gen/$name" ||
		bad "$name: btfgen --in-place on its own output changes it"
	case $name in link_[ab].bpf.o) continue ;; esac # loaded linked, below
	# same file name: libbpf names global data maps after the object
	cp "$o" "$T/clang/$name"
	report "$T/clang/$name" "$T/clang/$name.txt" || continue
	report "$T/gen/$name" "$T/gen/$name.txt" || continue
	cmp -s "$T/clang/$name.txt" "$T/gen/$name.txt" ||
		bad "$name: btfgen's object runs differently: $(diff "$T/clang/$name.txt" "$T/gen/$name.txt" | head -8)"
	grep -q '^prog .*: btf yes, [1-9][0-9]* func_info, [1-9][0-9]* line_info$' "$T/gen/$name.txt" &&
		! grep -q '^prog .*: btf no' "$T/gen/$name.txt" ||
		bad "$name: a program without BTF, func_info or line_info"
	grep -q '^; .*\[file:.*line_num:[0-9]' "$T/gen/$name.txt" || bad "$name: no source lines in xlated"
	n=$((n + 1))
done

# CO-RE is real: clang's core_task has field, type and enum relocations, and
# without its .BTF.ext (no relocations applied) the same program gets other
# results on this kernel
llvm-objcopy --remove-section .BTF.ext --remove-section .rel.BTF.ext "$C/core_task.bpf.o" "$T/noext/core_task.bpf.o"
if "$RUN" "$T/noext/core_task.bpf.o" >"$T/noext.txt" 2>/dev/null &&
	[ "$(grep -v '^prog ' "$T/noext.txt")" = "$(grep -v '^prog ' "$T/clang/core_task.bpf.o.txt" 2>/dev/null)" ]; then
	bad "core_task gives the same results without CO-RE relocations: the test does not need them"
fi

# link: btfgen objects linked by bpftool, then a skeleton of the result
if bpftool gen object "$T/gen/link.o" "$T/gen/link_a.bpf.o" "$T/gen/link_b.bpf.o" 2>"$T/err"; then
	cp "$C/link.o" "$T/clang/link.o"
	if report "$T/clang/link.o" "$T/clang/link.txt" && report "$T/gen/link.o" "$T/gen/link.txt"; then
		cmp -s "$T/clang/link.txt" "$T/gen/link.txt" ||
			bad "link.o of btfgen objects runs differently: $(diff "$T/clang/link.txt" "$T/gen/link.txt" | head -8)"
	fi
	if bpftool gen skeleton "$T/gen/link.o" name corpus_link >"$T/gen/link.skel.h" 2>"$T/err"; then
		if $CC -O2 -Wno-cast-qual -I"$T/gen" -o "$T/gen/link_skel" tests/corpus/link_skel.c -lbpf -lelf -lz 2>"$T/err"; then
			"$T/gen/link_skel" >"$T/skel.out" 2>&1 || bad "link_skel on btfgen's skeleton: $(cat "$T/skel.out")"
		else
			bad "link_skel does not build on btfgen's skeleton: $(head -5 "$T/err")"
		fi
	else
		bad "bpftool gen skeleton on btfgen's link.o: $(cat "$T/err")"
	fi
else
	bad "bpftool gen object on btfgen objects: $(cat "$T/err")"
fi
[ $fail = 0 ] || exit 1
echo "PASS: $n corpus objects + the linked one run the same after btfgen --in-place (xlated, line info, func_info, results); CO-RE applied; gen object/skeleton work"
