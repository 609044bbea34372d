#!/bin/bash
# Runs every libFuzzer target for FUZZ_SECONDS (default 60) under ASan/UBSan.
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-60}
rt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)
if ! command -v clang >/dev/null || [ ! -f "$rt" ]; then
	echo "SKIP: clang's libFuzzer runtime (libclang-rt-14-dev) is not installed"
	exit 77
fi
make --no-print-directory fuzz >/dev/null || { echo "building fuzzers failed"; exit 1; }
ls build/fuzz/fuzz_* >/dev/null 2>&1 || { echo "SKIP: no fuzz targets"; exit 77; }
rc=0
for f in build/fuzz/fuzz_*; do
	name=$(basename "$f")
	corpus=build/fuzz/corpus-$name
	mkdir -p "$corpus"
	seeds=fuzz/seeds/${name#fuzz_}
	echo "== $name for ${secs}s"
	log=build/fuzz/$name.log
	"$f" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
		"$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) >"$log" 2>&1
	frc=$?
	tail -n 12 "$log"
	if [ $frc -ne 0 ]; then
		echo "FAIL: $name exited $frc (crash or leak; see $log)"; rc=1
	fi
done
exit $rc
