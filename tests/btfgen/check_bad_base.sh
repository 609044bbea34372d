#!/bin/bash
# A base BTF given with --base is checked before anything is built or read
# over it: btfdump and btfcheck verify it as the kernel verifies vmlinux
# before any module, btfgen checks what its code relies on (type ids, string
# offsets, no loop of references; it reads the vmlinux BTF once per module).
# All three refuse a bad base with exit 4 and one stderr line naming the
# base file, print nothing on stdout and write no output file. The bases
# are the campaign's: [2] PTR -> 0x7fffffff with [3] STRUCT s { m: [2] }
# (btfgen crashed in lbtfi_member_sig), the PTR just past the last type
# (garbage read, exit 0), and a PTR to itself (ids in range, the verifier's
# "Loop detected"). A good base of the same shape still works.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# base OUT PTR_TARGET [MEMBER_TYPE [MEMBER_NAME]]: [1] int, [2] PTR ->
# PTR_TARGET, [3] struct s { [MEMBER_TYPE, default 2] m; } (m at string
# offset MEMBER_NAME, default 7)
base() {
	python3 tests/btfgen/bad_base_btf.py "$1" "$2" "${3:-2}" "${4:-7}"
}
base "$T/good.btf" 1
base "$T/far.btf" 0x7fffffff
base "$T/next.btf" 4
base "$T/loop.btf" 2
# a member's type id past the last type, a member's name past the strings
base "$T/member.btf" 1 4
base "$T/mname.btf" 1 2 9
gcc -g -O2 -c -o "$T/in.o" -x c - <<'C' || exit 1
struct s { int *m; long n; } v;
int f(struct s *p) { return *p->m; }
C
"$B/btfgen" --base "$T/good.btf" -o "$T/split.btf" "$T/in.o" || bad "btfgen over a good base"
"$B/btfcheck" --base "$T/good.btf" "$T/split.btf" >/dev/null 2>&1 || bad "btfcheck over a good base"
"$B/btfdump" file "$T/split.btf" --base "$T/good.btf" format c >/dev/null || bad "btfdump over a good base"

# refused NAME CMD...: exit 4, one stderr line naming the base, empty stdout
refused() {
	local name=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ $rc -ne 4 ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q "$T/$name.btf: bad base BTF" "$T/err"; then
		bad "$name: $(basename "$1") exit $rc, stderr: $(head -c 300 "$T/err")"
	fi
	[ -s "$T/out" ] && bad "$name: $(basename "$1") wrote on stdout"
	rm -f "$T/out"
}
for b in far next loop member mname; do
	refused "$b" "$B/btfgen" --base "$T/$b.btf" -o "$T/o-$b.btf" "$T/in.o"
	# (btfgen's own check says which: a type id or a string offset)
	case $b in
	far | next | member) grep -q "refers to type id" "$T/err" || bad "$b: btfgen: $(cat "$T/err")" ;;
	mname) grep -q "names string offset 9" "$T/err" || bad "$b: btfgen: $(cat "$T/err")" ;;
	esac
	[ -e "$T/o-$b.btf" ] && bad "$b: btfgen left an output"
	refused "$b" "$B/btfgen" --base "$T/$b.btf" -o - "$T/in.o"
	refused "$b" "$B/btfdump" file "$T/split.btf" --base "$T/$b.btf"
	refused "$b" "$B/btfdump" file "$T/split.btf" --base "$T/$b.btf" format c
	refused "$b" "$B/btfcheck" --base "$T/$b.btf" "$T/split.btf"
	echo "$b: $(cat "$T/err")"
done
[ $fail -eq 0 ] && echo "PASS: bad bases are refused by btfgen, btfdump and btfcheck, naming the file"
exit $fail
