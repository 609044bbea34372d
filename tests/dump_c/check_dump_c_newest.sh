#!/bin/bash
# btfdump's default `format c` against the newest bpftool (v7.7+, libbpf
# 1.8), built from its public source by scripts/build-bpftool.sh into
# $BPFTOOL_NEWEST (default /var/cache/btf-bench/bpftool-newest/bpftool):
#  - the running kernel's vmlinux and the Debian 6.1 vmlinux BTF (when
#    /var/cache/btf-bench/vmlinux-* is there) and a user-space BTF: byte for
#    byte the same as bpftool's default (sorted, macros, kfunc prototypes,
#    address_space(1) spelled as an attribute), but for the difference below;
#  - `--unsorted` as bpftool's `format c unsorted`, `--types X` as its
#    `root_id` (no kfunc prototypes, macros kept): identical.
# Deliberate difference (bpftool is wrong, we do not copy it):
#  - FIRST-SORTED-TYPE: bpftool sorts type id 0 (void) along with the others
#    and then prints from the second sorted entry on, so the first type of
#    its order (an anonymous enum on kernels: ACOMP_WALK_* on 6.18) is never
#    printed. We print it, first. The check removes exactly that one
#    definition from ours and then wants bpftool's bytes, and checks that
#    bpftool's header lacks it. Where the first sorted type prints nothing
#    by itself (a base type: the user-space BTF here, which has no enum),
#    both headers are the same, and that is what is checked there.
# SKIP when the built bpftool is not there (run scripts/build-bpftool.sh).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
NB=${BPFTOOL_NEWEST:-/var/cache/btf-bench/bpftool-newest/bpftool}
[ -x "$NB" ] || { echo "SKIP: no newest bpftool at $NB (scripts/build-bpftool.sh builds it)"; exit 77; }
[ -x "$B/btfdump" ] || { echo "missing $B/btfdump"; exit 1; }
echo "peer: $("$NB" version | head -2 | tr '\n' ' ')"

# first_def HEADER: line numbers "FROM TO" of the first type definition
# after the frame (the macros end with the second #endif after
# __bpf_fastcall's #define), TO being its blank line
first_def() {
	awk '/^#define __bpf_fastcall$/ { m = 1; next }
	     m == 1 && /^#endif$/ { m = 2; next }
	     m == 2 && /^#endif$/ { m = 3; next }
	     m == 3 && /^$/ { next }
	     m == 3 { from = NR; m = 4 }
	     m == 4 && /^$/ { print from, NR; exit }' "$1"
}

# newest LABEL BTF drop|same: default output vs bpftool's; drop: bpftool
# drops our first definition (FIRST-SORTED-TYPE), same: no difference
newest() {
	local label=$1 btf=$2 mode=$3 from to first
	"$B/btfdump" file "$btf" format c >"$w/ours.h" 2>"$w/err" ||
		{ bad "$label: btfdump failed: $(cat "$w/err")"; return 1; }
	"$NB" btf dump file "$btf" format c >"$w/peer.h" 2>/dev/null ||
		{ bad "$label: bpftool failed"; return 1; }
	if [ "$mode" = same ]; then
		cmp -s "$w/ours.h" "$w/peer.h" ||
			{ bad "$label: differs from the newest bpftool"; diff "$w/ours.h" "$w/peer.h" | head -30; return 1; }
		echo "ok: $label: identical to the newest bpftool ($(wc -l <"$w/peer.h") lines)"
		return 0
	fi
	read -r from to < <(first_def "$w/ours.h")
	[ -n "${from:-}" ] || { bad "$label: no first definition found in our header"; return 1; }
	first=$(sed -n "${from}p" "$w/ours.h")
	sed -n "$((from + 1))p" "$w/ours.h" >"$w/first_member"
	sed "${from},${to}d" "$w/ours.h" >"$w/ours-first.h"
	if ! cmp -s "$w/ours-first.h" "$w/peer.h"; then
		bad "$label: differs from the newest bpftool beyond the first sorted type"
		diff "$w/ours-first.h" "$w/peer.h" | head -30
		return 1
	fi
	# the one type bpftool drops: its first line after the opening is not
	# anywhere in bpftool's header
	if grep -qxF -f "$w/first_member" "$w/peer.h"; then
		bad "$label: bpftool prints the first sorted type too ($first $(cat "$w/first_member")): difference gone?"
		return 1
	fi
	echo "ok: $label: identical to the newest bpftool ($(wc -l <"$w/peer.h") lines) but for" \
	     "the first sorted type it drops: $first $(tr -d '\t' <"$w/first_member") ..."
}

v=/sys/kernel/btf/vmlinux
if [ -r $v ]; then
	newest "running kernel vmlinux" $v drop
	grep -q '__attribute__((address_space(1)))' "$w/ours.h" ||
		echo "note: no address_space(1) type tag in this kernel's kfuncs"
	grep -q ' __weak __ksym;$' "$w/ours.h" || bad "vmlinux: no kfunc prototypes"

	f0=$fail
	"$B/btfdump" file $v format c --unsorted >"$w/u.h" && "$NB" btf dump file $v format c unsorted >"$w/pu.h" 2>/dev/null &&
		cmp -s "$w/u.h" "$w/pu.h" || { bad "--unsorted differs from bpftool's unsorted"; diff "$w/u.h" "$w/pu.h" | head; }
	id=$("$NB" btf dump file $v 2>/dev/null | sed -nE "s/^\[([0-9]+)\] STRUCT 'bpf_flow_keys' .*/\1/p" | head -1)
	"$B/btfdump" file $v format c --types 'struct bpf_flow_keys' >"$w/r.h" &&
		"$NB" btf dump file $v format c root_id "$id" >"$w/pr.h" 2>/dev/null &&
		cmp -s "$w/r.h" "$w/pr.h" || { bad "--types differs from bpftool's root_id"; diff "$w/r.h" "$w/pr.h" | head; }
	[ $fail = "$f0" ] && echo "ok: --unsorted and --types (root_id $id) identical to the newest bpftool"
else
	echo "note: no $v, running kernel not compared"
fi

deb=$(find /var/cache/btf-bench -maxdepth 1 -name 'vmlinux-*' 2>/dev/null | head -1)
if [ -n "$deb" ]; then
	newest "$(basename "$deb") .BTF (Debian 6.1)" "$deb" drop
else
	echo "note: no Debian vmlinux in /var/cache/btf-bench (make bench fetches one), not compared"
fi

if command -v gcc >/dev/null && command -v pahole >/dev/null; then
	gcc -g -O1 -c tests/dump_c/user_types.c -o "$w/user.o" &&
		pahole -J --btf_encode_detached="$w/user.btf" "$w/user.o" ||
		{ echo "pahole -J failed"; exit 1; }
	newest "user-space BTF (gcc -g, pahole -J)" "$w/user.btf" same
fi
exit $fail
