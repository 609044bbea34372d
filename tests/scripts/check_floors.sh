#!/bin/bash
# libbtf's floors: every libbtf/<module>/ is on one floor of the table in
# docs/ARCHITECTURE.md ("floor N: module ..."), and a file may include the
# private headers of its own module and of modules on lower floors only,
# never of its floor or above (no circle between modules, no include back
# up). A module missing from the table fails too: a new folder is placed
# on a floor when it is made.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
declare -A floor
while read -r n mods; do
	for m in $mods; do
		floor[$m]=$n
	done
done < <(sed -n 's/^floor \([0-9][0-9]*\): *\(.*\)$/\1 \2/p' docs/ARCHITECTURE.md)
[ ${#floor[@]} -gt 0 ] || { echo "FAIL: no 'floor N: modules' lines in docs/ARCHITECTURE.md"; exit 1; }
for m in "${!floor[@]}"; do
	[ -d "libbtf/$m" ] || bad "docs/ARCHITECTURE.md places $m on floor ${floor[$m]}, but there is no libbtf/$m"
done
n=0
for d in libbtf/*/; do
	m=$(basename "$d")
	[ "$m" = include ] && continue # the public headers: anyone may include them
	[ -n "${floor[$m]:-}" ] || { bad "libbtf/$m is on no floor of docs/ARCHITECTURE.md"; continue; }
	while IFS=: read -r file line inc; do
		dep=${inc%%/*}
		[ "$dep" = "$m" ] && continue
		[ -d "libbtf/$dep" ] || continue # not a module's header
		n=$((n + 1))
		if [ -z "${floor[$dep]:-}" ]; then
			bad "$file:$line includes $inc: $dep is on no floor"
		elif [ "${floor[$dep]}" -ge "${floor[$m]}" ]; then
			bad "$file:$line includes $inc: $dep is on floor ${floor[$dep]}, $m on floor ${floor[$m]} (includes go down only)"
		fi
	done < <(grep -rnoE '^#include "[a-z_]+/[^"]+"' --include='*.[ch]' "$d" |
		sed -E 's/^([^:]+):([0-9]+):#include "(.*)"$/\1:\2:\3/')
done
[ $n -gt 0 ] || bad "no include of another module found (is the pattern right?)"
[ $fail = 0 ] && echo "ok: $n includes between modules, all down a floor"
exit $fail
