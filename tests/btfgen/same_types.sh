# shellcheck shell=bash
# Sourced by btfgen tests (not a test itself): same_types A B WHAT converts
# the ELF files $T/A and $T/B with btfgen and compares their type signatures
# (btfsig, sorted, in $T/A.sig and $T/B.sig); on a difference it prints
# "FAIL: WHAT" and sets fail=1. A conversion failure ends the test.
same_types() {
	local f
	for f in "$1" "$2"; do
		"$B/btfgen" -o "$T/$f.btf" "$T/$f" || { echo "FAIL: btfgen $f"; exit 1; }
		# (not through a pipe: a btfsig that fails or prints nothing
		# must not make two empty lists that compare equal)
		"$B/tests/btfgen/btfsig" "$T/$f.btf" >"$T/$f.sig.unsorted" &&
			[ -s "$T/$f.sig.unsorted" ] || { echo "FAIL: btfsig $f.btf"; exit 1; }
		sort "$T/$f.sig.unsorted" >"$T/$f.sig"
	done
	# shellcheck disable=SC2034 # fail: read by the sourcing script
	diff "$T/$1.sig" "$T/$2.sig" || { echo "FAIL: $3"; fail=1; }
}
