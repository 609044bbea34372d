#!/bin/bash
# btfcheck --target-btf, per target, beside CO-RE: the object's externs as
# libbpf resolves them on that kernel (before any relocation) and the BTF
# sanitization libbpf applies for that kernel's version.
#  - on the running kernel, the __ksym externs libbpf itself resolves
#    (relo_oracle: its debug log, against the running kernel's BTF) must be
#    found by btfcheck at the same type ids;
#  - on targets made for it: a kfunc and a __ksym variable the target types
#    otherwise (incompatible), one it lacks (missing: the load fails), a
#    __weak one it lacks (0: the load goes on), typeless __ksym and
#    __kconfig (at load time);
#  - sanitization: the features btfcheck's object mode (--target-kernel V)
#    says libbpf rewrites, for V from --target-kernel and from a file name.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "SKIP: jq missing"; exit 77; }
OBJ=$B/relo/externs.bpf.o
for f in "$OBJ" "$B/btfcheck" "$B/btfgen"; do
	[ -e "$f" ] || { echo "FAIL: $f missing (build first)"; exit 1; }
done
ext() { # OBJ TARGET [OPTIONS]: "NAME KIND OUTCOME ID" per extern
	"$B/btfcheck" --json "${@:3}" --target-btf "$2" "$1" |
		jq -r 'select(.externs) | .externs[] | "\(.name) \(.kind) \(.outcome) \(.target_type_id)"'
}
if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	need_oracle
	for o in "$OBJ" "$B/corpus/ringbuf_kfunc.bpf.o"; do
		[ -f "$o" ] || continue
		"$ORACLE" "$o" /sys/kernel/btf/vmlinux | grep '^extern ' | sort >"$T/theirs"
		ext "$o" /sys/kernel/btf/vmlinux | awk '$3 == "found" { print "extern " $1 " " $4 }
			$3 == "missing" || $3 == "incompatible" { print "extern " $1 " " $3 }' |
			sort >"$T/ours"
		[ -s "$T/theirs" ] || bad "premise: libbpf resolved no extern of $o"
		cmp -s "$T/ours" "$T/theirs" || { bad "$(basename "$o"): externs differ from libbpf's";
			diff "$T/theirs" "$T/ours" | sed 's/^/    (< libbpf, > btfcheck) /'; }
	done
else
	echo "note: not root: libbpf's own resolution not compared"
fi

# a target whose kfunc and variable have other types, and that lacks the rest
cat >"$T/incompat.c" <<'C'
struct not_an_int { int q; } bpf_prog_active;
int bpf_rcu_read_lock(long x) { return (int)x; }
C
gcc -g -c -o "$T/incompat.o" "$T/incompat.c" && "$B/btfgen" -o "$T/incompat.btf" "$T/incompat.o" ||
	bad "target incompat"
ext "$OBJ" "$T/incompat.btf" | sort >"$T/got"
sort >"$T/want" <<'W'
LINUX_KERNEL_VERSION kconfig at_load 0
_stext ksym_typeless at_load 0
bpf_corpus_no_such_kfunc kfunc missing_weak 0
bpf_prog_active ksym incompatible 8
bpf_rcu_read_lock kfunc incompatible 6
bpf_rcu_read_unlock kfunc missing 0
W
# (ids: the target's own, as btfgen numbers incompat.c's types)
awk '{ $4 = ($4 != 0) } 1' "$T/got" >"$T/got1"
awk '{ $4 = ($4 != 0) } 1' "$T/want" >"$T/want1"
cmp -s "$T/got1" "$T/want1" || { bad "externs on the incompatible target"; diff "$T/want1" "$T/got1"; }
"$B/btfcheck" --target-btf "$T/incompat.btf" "$OBJ" >"$T/out"
rc=$?
[ $rc = 1 ] || bad "externs that fail: exit $rc, want 1"
grep -q 'loads on 0 of 1 target; fails on .*incompat.btf: extern kfunc bpf_rcu_read_lock: the target.s has other types: the load fails' \
	"$T/out" || { bad "summary names the failing extern"; tail -1 "$T/out"; }
grep -q 'extern kfunc (weak) bpf_corpus_no_such_kfunc: not in the target.s BTF; __weak: 0' "$T/out" ||
	bad "the weak kfunc's line"

# sanitization, as the object mode says for the same kernel version
cp "$T/incompat.btf" "$T/vmlinux-5.2.0-1-amd64.btf"
for v in 5.1 5.4 5.15 6.1; do
	want=$("$B/btfcheck" --json --target-kernel "$v" "$OBJ" | jq -c '.sanitized')
	got=$("$B/btfcheck" --json --quiet --target-kernel "$v" --target-btf "$T/incompat.btf" "$OBJ" |
		jq -c 'select(.target) | .sanitized')
	[ -n "$want" ] && [ "$want" = "$got" ] || bad "sanitization for $v: $got, object mode $want"
done
want=$("$B/btfcheck" --json --target-kernel 5.2 "$OBJ" | jq -c '.sanitized')
got=$("$B/btfcheck" --json --quiet --target-btf "$T/vmlinux-5.2.0-1-amd64.btf" "$OBJ" |
	jq -c 'select(.target) | [.kernel, .kernel_from, .sanitized]')
[ "$got" = "[\"5.2\",\"the file name\",$want]" ] || bad "version from the file name: $got (want 5.2, $want)"
[ "$want" != "[]" ] || bad "premise: libbpf rewrites something for 5.2"
"$B/btfcheck" --target-btf "$T/incompat.btf" "$OBJ" | grep -q 'sanitization: kernel version unknown' ||
	bad "a target without a version in its name: not said"
[ $fail = 0 ] && echo "PASS: externs as libbpf resolves them (running kernel) and by construction; sanitization per target version"
exit $fail
