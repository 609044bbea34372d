#!/bin/bash
# campaign.sh FIRST LAST [WORKDIR]: generate and compare programs for seeds
# FIRST..LAST (gen.py, run_one.sh); one line per seed in WORKDIR/log, the
# differing programs kept in WORKDIR/SEED (shrink them with shrink.py).
# Not part of make check: a few hundred programs take minutes. The cases it
# found are tests: check_reuse_fwd.sh, and ../equiv_cases/ (seed 7262 shrunk
# to odr_enum_order/), which check_equiv_rules.sh runs. Run new seed ranges,
# never used before, after a change to the reuse (docs/FUZZING.md).
here=$(cd "$(dirname "$0")" && pwd)
W=${3:-/tmp/reuse_fuzz}
mkdir -p "$W"
for s in $(seq "$1" "$2"); do
	d=$W/$s
	rm -rf "$d"
	python3 "$here/gen.py" "$s" "$d" || { echo "$s genfail" >>"$W/log"; continue; }
	"$here/run_one.sh" "$d"
	rc=$?
	echo "$s rc=$rc units=$(ls "$d"/u*.c | wc -l) cc=$(sort -u "$d/cc" | tr '\n' ,) $(cat "$d/result")" >>"$W/log"
	[ $rc = 0 ] && rm -rf "$d"
done
grep -c " rc=1 " "$W/log" | sed 's/$/ programs differ so far/'
