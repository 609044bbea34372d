#!/bin/bash
# Runs every libFuzzer target for FUZZ_SECONDS (default 60) under ASan/UBSan,
# all targets at once (they are independent), and fails if any finds a crash.
# A fixed -seed (FUZZ_SEED, default 1) keeps CI runs reproducible.
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-60}
rt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)
if ! command -v clang >/dev/null || [ ! -f "$rt" ]; then
	echo "SKIP: clang's libFuzzer runtime (libclang-rt-14-dev) is not installed"
	exit 77
fi
make --no-print-directory fuzz >/dev/null || { echo "building fuzzers failed"; exit 1; }
ls build/fuzz/fuzz_* >/dev/null 2>&1 || { echo "SKIP: no fuzz targets"; exit 77; }
pids=() names=()
for f in build/fuzz/fuzz_*; do
	[ -x "$f" ] || continue
	name=$(basename "$f")
	corpus=build/fuzz/corpus-$name
	mkdir -p "$corpus"
	seeds=fuzz/seeds/${name#fuzz_}
	echo "== $name for ${secs}s"
	"$f" -seed="${FUZZ_SEED:-1}" -artifact_prefix=build/fuzz/ -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
		"$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) >"build/fuzz/$name.log" 2>&1 &
	pids+=($!) names+=("$name")
done
rc=0
for i in "${!pids[@]}"; do
	wait "${pids[$i]}"; frc=$?
	echo "== ${names[$i]}: exit $frc"
	tail -n 8 "build/fuzz/${names[$i]}.log"
	if [ $frc -ne 0 ]; then
		echo "FAIL: ${names[$i]} found a problem (see build/fuzz/${names[$i]}.log)"; rc=1
	fi
done
exit $rc
