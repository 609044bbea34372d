#!/bin/bash
# btfgen as the build step of a BPF object (issue 15): for each corpus
# program (tests/corpus/*.bpf.c), ROUNDS times (default 7), alternating:
#  - clang-16 compiles it (the flags of tests/corpus/corpus.mk), a fresh
#    process: the peer;
#  - btfgen --in-place on a fresh copy of clang's object, a fresh process.
# Each round gives one paired ratio btfgen/clang; the row reports the median
# of the paired ratios (goal: <= 0.2, the build step must not slow a build
# noticeably). .BTF bytes: btfgen's section against clang's (goal <= 1.0).
# The object keeps clang's .BTF.ext: btfgen rewrites it onto its .BTF, whose
# strings then hold the records' file names and source lines, as clang's.
set -u
B=${B:-build}
RUNS=${ROUNDS:-7}
. bench/lib.sh
row() { printf '| %s | %s | %s | %s | %s |\n' "$@"; }
note() { echo "bench_corpus: $*" >&2; }

command -v clang-16 >/dev/null || { note "clang-16 not installed, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CFLAGS=(-g -O2 -target bpf -Wall -Werror "-I/usr/include/$(gcc -print-multiarch)" -Itests/corpus)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "n/a" }'; }
btf_bytes() { llvm-objcopy --dump-section .BTF=/dev/stdout "$1" /dev/null | wc -c; }

all_t=() all_b=()
for src in tests/corpus/*.bpf.c; do
	n=$(basename "$src" .c)
	clang-16 "${CFLAGS[@]}" -c "$src" -o "$T/$n.o" || { note "$src: clang-16 failed"; exit 1; }
	input=$T/$n.o
	cp "$input" "$T/try.o"
	"$B/btfgen" --in-place "$T/try.o" || { note "$src: btfgen --in-place failed"; exit 1; }
	cb=$(btf_bytes "$T/$n.o") ob=$(btf_bytes "$T/try.o")
	: >"$T/r"
	for ((i = 0; i < RUNS; i++)); do
		ct=$(wall clang-16 "${CFLAGS[@]}" -c "$src" -o "$T/peer.o")
		cp "$input" "$T/run.o"
		bt=$(wall "$B/btfgen" --in-place "$T/run.o")
		note "$n: clang ${ct}s btfgen ${bt}s"
		ratio "$bt" "$ct" >>"$T/r"
	done
	rt=$(median <"$T/r") rb=$(ratio "$ob" "$cb")
	all_t+=("$rt") all_b+=("$rb")
	row "btfgen --in-place vs clang-16 -c: $n" "$ob B .BTF" "$cb B .BTF" \
		"time $rt, bytes $rb" "median of $RUNS paired time ratios"
done
mt=$(printf '%s\n' "${all_t[@]}" | median) mb=$(printf '%s\n' "${all_b[@]}" | median)
xt=$(printf '%s\n' "${all_t[@]}" | sort -g | tail -1) xb=$(printf '%s\n' "${all_b[@]}" | sort -g | tail -1)
row "btfgen build step, ${#all_t[@]} corpus objects" "time ratio median $mt (max $xt)" \
	"bytes ratio median $mb (max $xb)" "$mt / $mb" "goals: time <= 0.2x clang's compile, .BTF bytes <= 1.0x clang's"
