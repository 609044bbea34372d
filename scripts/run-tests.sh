#!/bin/bash
# Runs every test given (executables or shell scripts), each with its own log
# under $B/test-logs, named by the test's path (tests/dump/check_errors.sh ->
# $B/test-logs/tests/dump/check_errors.sh.log; a built test loses its $B/
# prefix). Exit status of a test: 0 pass, 77 skip, other fail.
# A test may print "SKIP: reason" as its last line when it skips.
# Ends with one line "N passed, N failed[, N skipped]" and exits 1 on failure.
B=${B:-build}
logs=$B/test-logs
mkdir -p "$logs"
pass=0 fail=0 skip=0
failed=()
for t in "$@"; do
	name=${t#"$B"/}
	name=${name#/}
	log=$logs/$name.log
	mkdir -p "$(dirname "$log")"
	start=$EPOCHREALTIME
	case $t in
	*.sh) B=$B bash "$t" >"$log" 2>&1 ;;
	*) "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
	case $rc in
	0) pass=$((pass + 1)); echo "PASS  $name (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP  $name: $(grep -h 'SKIP' "$log" | tail -1 | sed 's/^.*SKIP:* *//')" ;;
	*) fail=$((fail + 1)); failed+=("$name"); echo "FAIL  $name (exit $rc, ${secs}s), last lines of $log:"
	   tail -n 25 "$log" | sed 's/^/    /' ;;
	esac
done
line="$pass passed, $fail failed"
[ $skip -gt 0 ] && line="$line, $skip skipped"
echo "$line"
[ $fail -eq 0 ]
