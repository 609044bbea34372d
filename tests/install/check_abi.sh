#!/bin/bash
# The ABI: libbtf.so exports exactly the symbols listed in libbtf/libbtf.map,
# libbtf.a defines no other global symbol (internal ones are made local), and
# the list is the set of functions the public headers declare (static inline
# accessors aside). A function added to a header without a map line, an
# internal symbol that leaks, or a map line without a declaration fails here.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
for f in "$B/libbtf.so" "$B/libbtf.a"; do
	[ -f "$f" ] || { echo "FAIL: $f missing (build first)"; exit 1; }
done
grep -oE '^[[:space:]]+lbtf_[a-z0-9_]+;' libbtf/libbtf.map | tr -d ' \t;' | sort >"$T/map"
nm -D --defined-only "$B/libbtf.so" | awk '$2 ~ /^[TDRB]$/ {print $3}' | sed 's/@.*//' | sort >"$T/so"
nm -g --defined-only "$B/libbtf.a" | awk 'NF == 3 && $2 ~ /^[TDRBC]$/ {print $3}' | sort >"$T/a"
cat libbtf/include/*.h | grep -oE '\blbtf_[a-z0-9_]+[[:space:]]*\(' | tr -d '( \t' | sort -u >"$T/named"
cat libbtf/include/*.h | grep -E 'static inline' | grep -oE '\blbtf_[a-z0-9_]+[[:space:]]*\(' |
	tr -d '( \t' | sort -u >"$T/inline"
comm -23 "$T/named" "$T/inline" >"$T/declared"
fail=0
same() { # what, file1, name1, file2, name2
	if ! cmp -s "$2" "$4"; then
		echo "FAIL: $1"
		diff "$2" "$4" | sed -n "s|^< |    only in $3: |p; s|^> |    only in $5: |p"
		fail=1
	fi
}
same "libbtf.so's exports differ from libbtf.map" "$T/map" libbtf.map "$T/so" libbtf.so
same "libbtf.a's global symbols differ from libbtf.map" "$T/map" libbtf.map "$T/a" libbtf.a
same "the public headers' functions differ from libbtf.map" "$T/map" libbtf.map "$T/declared" include/
# The programs link the archive of libbtf's objects (so that only the modules
# they use are taken); what they take from it must be the public API or the
# file input/output of libbtf/io/io.h, nothing else internal.
internal=$B/obj/libbtf-internal.a
[ -f "$internal" ] || { echo "FAIL: $internal missing (build first)"; exit 1; }
nm -g --defined-only "$internal" | awk 'NF == 3 && $2 ~ /^[TDRBC]$/ {print $3}' | sort -u >"$T/lib_defs"
for p in btfgen btfcheck btfdump cli; do
	ls "$B/obj/$p/"*.o >/dev/null 2>&1 || { echo "FAIL: $B/obj/$p has no objects (build first)"; exit 1; }
	nm -u "$B/obj/$p/"*.o | awk 'NF == 2 {print $2}'
done | sort -u >"$T/prog_undef"
grep -oE '\blbtfi_[a-z0-9_]+[[:space:]]*\(' libbtf/io/io.h | tr -d '( \t' | sort -u >"$T/io"
sort -u "$T/map" "$T/io" >"$T/allowed"
comm -12 "$T/prog_undef" "$T/lib_defs" | comm -23 - "$T/allowed" >"$T/prog_internal"
if [ -s "$T/prog_internal" ]; then
	echo "FAIL: the programs use libbtf symbols outside libbtf.map and io/io.h:"
	sed 's/^/    /' "$T/prog_internal"
	fail=1
fi
[ $fail = 0 ] || exit 1
echo "PASS: $(wc -l <"$T/map") symbols, the same in libbtf.map, libbtf.so, libbtf.a and the headers;" \
	"the programs use $(comm -12 "$T/prog_undef" "$T/lib_defs" | wc -l) of them and io/io.h's, nothing else internal"
