#!/bin/bash
# Runs every libFuzzer target ($B/fuzz/fuzz_*, built by make check as
# CHECK_DEPS) for FUZZ_SECONDS (default 60) under ASan/UBSan, all targets at
# once (they are independent), and fails if any finds a crash.
# A fixed -seed (FUZZ_SEED, default 1) keeps CI runs reproducible.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
secs=${FUZZ_SECONDS:-60}
out=$B/fuzz
rt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)
if ! command -v clang >/dev/null || [ ! -f "$rt" ]; then
	echo "SKIP: clang's libFuzzer runtime (libclang-rt-14-dev) is not installed"
	exit 77
fi
targets=$(ls fuzz/fuzz_*.c 2>/dev/null)
[ -n "$targets" ] || { echo "SKIP: no fuzz targets"; exit 77; }
# built by make check (CHECK_DEPS): one missing means the build is broken, not a skip
for src in $targets; do
	f=$out/$(basename "$src" .c)
	[ -x "$f" ] || { echo "FAIL: $f not built (make check builds the fuzzers with B=$B)"; exit 1; }
done
pids=() names=()
for src in $targets; do
	name=$(basename "$src" .c)
	f=$out/$name
	corpus=$out/corpus-$name
	mkdir -p "$corpus"
	dirs=("$corpus")
	[ -d "fuzz/seeds/${name#fuzz_}" ] && dirs+=("fuzz/seeds/${name#fuzz_}")
	echo "== $name for ${secs}s"
	"$f" -seed="${FUZZ_SEED:-1}" -artifact_prefix="$out/" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
		"${dirs[@]}" >"$out/$name.log" 2>&1 &
	pids+=($!) names+=("$name")
done
rc=0
for i in "${!pids[@]}"; do
	wait "${pids[$i]}"; frc=$?
	echo "== ${names[$i]}: exit $frc"
	tail -n 8 "$out/${names[$i]}.log"
	if [ $frc -ne 0 ]; then
		echo "FAIL: ${names[$i]} found a problem (see $out/${names[$i]}.log)"; rc=1
	fi
done
exit $rc
