#!/bin/bash
# libbtf(3) documents the whole public API: every function libbtf.map
# exports and every static inline accessor the public headers define has a
# prototype in the page (a line of a .nf block) and an item describing it
# (named on the heading line of a .TP), and the page describes no function
# the library lacks. A function added to the map or a header without its
# libbtf(3) entry, or removed from them with its entry left, fails here.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
page=man/libbtf.3
[ -f "$page" ] || { echo "FAIL: $page missing"; exit 1; }
grep -oE '^[[:space:]]+lbtf_[a-z0-9_]+;' libbtf/libbtf.map | tr -d ' \t;' | sort -u >"$T/exported"
cat libbtf/include/*.h | grep -E 'static inline' | grep -oE '\blbtf_[a-z0-9_]+[[:space:]]*\(' |
	tr -d '( \t' | sort -u >"$T/inline"
sort -u "$T/exported" "$T/inline" >"$T/api"
[ "$(wc -l <"$T/exported")" -gt 50 ] || bad "libbtf.map: only $(wc -l <"$T/exported") symbols read"
# man markup off: font changes, escaped hyphens
plain() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$page"; }
# names on the heading line after each .TP
plain | awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' | grep -oE '\blbtf_[a-z0-9_]+' | sort -u >"$T/described"
# names followed by "(" in .nf blocks (prototypes; the example calls only API functions)
plain | awk '/^\.fi/ { nf = 0 } nf; /^\.nf/ { nf = 1 }' | grep -oE '\blbtf_[a-z0-9_]+\(' | tr -d '(' |
	sort -u >"$T/prototyped"
missing=$(comm -23 "$T/api" "$T/described" | tr '\n' ' ')
[ -z "$missing" ] || bad "$page describes no item for: $missing"
missing=$(comm -23 "$T/api" "$T/prototyped" | tr '\n' ' ')
[ -z "$missing" ] || bad "$page has no prototype for: $missing"
stale=$(sort -u "$T/described" "$T/prototyped" | comm -23 - "$T/api" | tr '\n' ' ')
[ -z "$stale" ] || bad "$page documents functions libbtf does not have: $stale"
[ $fail -eq 0 ] && echo "PASS: libbtf(3) documents all $(wc -l <"$T/api") functions" \
	"($(wc -l <"$T/exported") exported, $(wc -l <"$T/inline") inline)"
exit $fail
