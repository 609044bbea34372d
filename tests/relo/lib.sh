# shellcheck shell=bash
# What the CO-RE tests share (sourced after ../lib.sh): target BTFs made from
# relo_types.h by gcc -g and btfgen, and both sides of the comparison with
# libbpf as lines "SECTION RELO# RESULT" in libbpf's processing order, cut
# after the first failure (where libbpf stops).

# make_target NAME CFLAGS... : $T/NAME.btf, the types of relo_types.h as a
# target kernel would have them with those -D switches (and any EXTRA_C)
make_target() {
	local n=$1
	shift
	{ echo '#include "relo_types.h"'; echo "${EXTRA_C:-}"
	  echo 'struct rec r_use; struct inner i_use; enum color c_use;'; } >"$T/t_$n.c"
	gcc -g -c -Itests/relo "$@" -o "$T/t_$n.o" "$T/t_$n.c" &&
		"$B/btfgen" -o "$T/$n.btf" "$T/t_$n.o"
}

# make_layouts NAME...: the named targets of the CO-RE tests, each $T/NAME.btf
#   same    relo_types.h as cases.bpf.c sees it
#   moved   fields moved, an unsigned and a signed field grown, enum values added
#   gone    a field gone, one renamed (rec___v2 finds it), an enumerator gone,
#           struct inner grown, an array shrunk
#   ambig   a second candidate with rec::a at another offset
#   prune   a second candidate without a, with b at another offset: dropped
#           by the first relocation (rec::a), it must not make rec::b ambiguous
#   split   two candidates for rec::a, only the second with b
#   signed  same, rec::col's enum emptied and followed by a word libbpf 1.1
#           reads as "signed" (btf_edit.py): 1.8 says unsigned
make_layouts() {
	local n
	for n in "$@"; do
		case $n in
		same) make_target same ;;
		moved) make_target moved -DREC_MOVED -DINNER_SWAPPED -DMORE_COLORS ;;
		gone) make_target gone -DREC_RENAMED -DREC_NO_GONE -DNO_BLUE -DINNER_GROWN \
			-DREC_SMALL_ARR ;;
		ambig) EXTRA_C='struct rec___dup { long lead; int a; } d_use;' make_target ambig ;;
		prune) EXTRA_C='struct rec___dup { int x; long pad; long b; } d_use;' \
			make_target prune ;;
		split) EXTRA_C='struct rec___x { int a; long b; } x_use;' make_target split -DREC_ONLY_A ;;
		signed) make_target signed_base &&
			python3 tests/relo/btf_edit.py enum-gap "$T/signed_base.btf" "$T/signed.btf" rec col ;;
		*) false ;;
		esac || bad "target $n"
	done
}

# relo_objs: the objects compared: cases.bpf.o, struct_ops.bpf.o and the
# corpus, but link_a and link_b (halves of a program libbpf opens only linked)
relo_objs() {
	local o objs="$B/relo/cases.bpf.o $B/relo/struct_ops.bpf.o"
	for o in "$B"/corpus/*.bpf.o "$B/corpus/link.o"; do
		case $o in */link_a.bpf.o|*/link_b.bpf.o) continue ;; esac
		[ -f "$o" ] && objs="$objs $o"
	done
	echo "$objs"
}

# ours OBJ TARGET [OPTION...]: btfcheck's decisions (skipped ones left out:
# libbpf is silent)
ours() {
	"$B/btfcheck" --json "${@:3}" --target-btf "$2" "$1" | jq -r '
		select(.relocations) | .relocations[] | select(.outcome != "skipped") |
		"\(.section) \(.relo) " + (
		if .outcome == "relocated" then "value \(.target)" +
			(if .load_size then " mem \(.load_size[0])->\(.load_size[1])" else "" end)
		elif .outcome == "poisoned" then "poison" else "fail" end)' |
		awk '{ print } / fail$/ { exit }' | sort -k1,1 -k2,2n
}

# need_oracle: $ORACLE, relo_oracle.c linked with libbpf 1.8 built from its
# source (scripts/build-libbpf.sh's cache, need_libbpf18: else SKIP), the
# libbpf whose rules btfcheck follows; built into $T by each test
need_oracle() {
	need_libbpf18
	ORACLE=$T/relo_oracle
	build_libbpf18_prog tests/relo/relo_oracle.c "$ORACLE"
}

# need_oracle_11: $ORACLE_11, relo_oracle.c linked with the system's libbpf
# 1.1 (Debian 12's libbpf-dev), the oracle of btfcheck --libbpf 1.1
need_oracle_11() {
	ORACLE_11=$T/relo_oracle_11
	gcc -O2 -Wall -o "$ORACLE_11" tests/relo/relo_oracle.c -lbpf -lelf -lz ||
		{ echo "FAIL: cannot build relo_oracle.c with the system's libbpf"; exit 1; }
}

# theirs OBJ TARGET: libbpf's, from its debug log (fails if libbpf cannot
# open the object); its extern lines (the running kernel's) left out;
# ORACLE=$ORACLE_11 theirs ... for libbpf 1.1's
theirs() {
	"$ORACLE" "$1" "$2" >"$T/oracle.out" &&
		grep -v '^extern ' "$T/oracle.out" | sort -k1,1 -k2,2n
}

# real_targets: real kernels' BTF, one path a line: the running kernel's,
# Debian 6.1's own .BTF (from the vmlinux make bench caches, extracted once
# into $B/relo) and every kernel tests/relo/fetch_kernel_btf.sh cached; then
# edited copies of the first two (btf_edit.py: task_struct::pid, ::tgid
# renamed, in $T). Notes on stderr for what is absent.
real_targets() {
	local cache=${BTF_BENCH_CACHE:-/var/cache/btf-bench} v b61=$B/relo/vmlinux-6.1.BTF f n=0
	echo /sys/kernel/btf/vmlinux
	v=$(find "$cache" -maxdepth 1 -name 'vmlinux-6.1*' 2>/dev/null | head -1)
	if [ -n "$v" ]; then
		if [ ! -s "$b61" ] || [ "$v" -nt "$b61" ]; then
			mkdir -p "$B/relo" && objcopy -O binary --only-section=.BTF "$v" "$b61.tmp$$" &&
				mv "$b61.tmp$$" "$b61" || { rm -f "$b61.tmp$$"; return 1; }
		fi
		echo "$b61"
	else
		echo "note: no cached Debian 6.1 vmlinux" >&2
	fi
	for f in "$cache"/kernel-btf/*.btf; do
		[ -s "$f" ] && echo "$f" && n=$((n + 1))
	done
	[ $n -gt 0 ] || echo "note: no other kernel (tests/relo/fetch_kernel_btf.sh VERSION)" >&2
	python3 tests/relo/btf_edit.py rename /sys/kernel/btf/vmlinux "$T/running-pid.btf" \
		task_struct pid pid_renamed && echo "$T/running-pid.btf" || return 1
	if [ -s "$b61" ]; then
		python3 tests/relo/btf_edit.py rename "$b61" "$T/6.1-tgid.btf" task_struct tgid \
			tgid_renamed && echo "$T/6.1-tgid.btf" || return 1
	fi
}

# target_61: the path of Debian 6.1's BTF (btfgen of the vmlinux make bench
# caches), made once into $B/relo; nothing (and status 1) without the cache
target_61() {
	local cache=${BTF_BENCH_CACHE:-/var/cache/btf-bench} v out=$B/relo/vmlinux-6.1.btf
	v=$(find "$cache" -maxdepth 1 -name 'vmlinux-6.1*' 2>/dev/null | head -1)
	[ -n "$v" ] || return 1
	if [ ! -s "$out" ] || [ "$v" -nt "$out" ] || [ "$B/btfgen" -nt "$out" ]; then
		"$B/btfgen" -o "$out" "$v" || return 1
	fi
	echo "$out"
}

# all_targets LAYOUT...: $targets, the paths of every target the CO-RE
# tests compare on: the made-up layouts named (make_layouts), the real
# kernels (real_targets) and btfgen's BTF of Debian 6.1 (target_61) when
# cached. Not in a subshell: a failure to make one is recorded in $fail.
all_targets() {
	local l real v61
	make_layouts "$@"
	targets=
	for l; do targets="$targets $T/$l.btf"; done
	real=$(real_targets) || bad "real kernels' targets"
	targets="$targets $real"
	v61=$(target_61) && targets="$targets $v61"
}
