#!/bin/bash
# Inputs without a size (devices, pipes, standard input) are read only as
# far as their format allows (issue 28 item 4; libbtf/io/read.c): BTF up to
# the length its header gives (at most the kernel's 16 MiB), ELF from a
# regular file only, anything else no further than its first bytes. So
# /dev/zero as the input of btfcheck and btfdump, or as the base of btfgen,
# btfgen-pahole and btfcheck, fails at once (under a 5 s timeout and a 1 GiB
# address space limit: before, each read until memory ran out) with the
# file named; BTF through a pipe still works.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -r /dev/zero ] || { echo "SKIP: no /dev/zero"; exit 77; }
small_object_btf
# the address space limit only without the sanitizers (ASan reserves terabytes)
vlim=1048576
[ "${SAN:-}" = 1 ] && vlim=unlimited
n=0
# bounded WANT_RC WANT_STDERR COMMAND...: exits WANT_RC at once, stderr has WANT_STDERR
bounded() {
	local want=$1 msg=$2 rc
	shift 2
	n=$((n + 1))
	local where=$T/err
	# (btfcheck's verdict, "rejected: ...", is on stdout; errors on stderr)
	case $msg in *"rejected:"*) where=$T/out ;; esac
	(ulimit -v $vlim; timeout 5 "$@") >"$T/out" 2>"$T/err" </dev/null; rc=$?
	[ $rc -eq "$want" ] && grep -q -- "$msg" "$where" ||
		bad "$*: exit $rc, ${where##*/} '$(head -c 300 "$where")' (want $want and '$msg')"
}
bounded 1 "/dev/zero: rejected: Invalid magic" "$B/btfcheck" /dev/zero
bounded 4 "/dev/zero: not BTF (bad magic" "$B/btfdump" file /dev/zero
bounded 4 "/dev/zero: not BTF (bad magic" "$B/btfcheck" --base /dev/zero "$T/t.btf"
bounded 4 "/dev/zero: not BTF (bad magic" "$B/btfgen" --base /dev/zero -o "$T/x.btf" "$T/t.o"
bounded 4 "/dev/zero: not BTF (bad magic" "$B/btfgen-pahole" -J --btf_base=/dev/zero \
	--btf_encode_detached="$T/x.btf" "$T/t.o"
bounded 4 "not BTF (bad magic" "$B/btfdump" file /dev/urandom
# pipes: BTF is read to its header's length (and one byte: what follows is
# seen), a header claiming more than the kernel's limit is refused unread,
# ELF is refused
pipe() { # pipe WANT_RC WANT_STDERR PRODUCER -- COMMAND...
	local want=$1 msg=$2 prod=() rc
	shift 2
	while [ "$1" != -- ]; do prod+=("$1"); shift; done
	shift
	n=$((n + 1))
	("${prod[@]}" 2>/dev/null | (ulimit -v $vlim; timeout 5 "$@")) >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq "$want" ] && grep -q -- "$msg" "$T/err" "$T/out" ||
		bad "${prod[*]} | $*: exit $rc, '$(head -c 300 "$T/err")' (want $want and '$msg')"
}
pipe 0 "-: OK" cat "$T/t.btf" -- "$B/btfcheck" -
pipe 1 "Unsupported section found" sh -c "cat '$T/t.btf' /dev/zero" -- "$B/btfcheck" -
pipe 4 "ELF is read from a regular file only" cat "$T/t.o" -- "$B/btfcheck" -
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x40\x00\x00\x00\x00' >"$T/huge.hdr"
pipe 4 "more than the kernel's limit" sh -c "cat '$T/huge.hdr' /dev/zero" -- "$B/btfcheck" -
[ $fail -eq 0 ] && echo "PASS: $n inputs without a size, each bounded by its format"
exit $fail
