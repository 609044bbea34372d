#!/bin/bash
# C dump parity with Debian's bpftool 7.1 (btfdump's `--compat 7.1` layout;
# the newest bpftool's default is check_dump_c_newest.sh's) on other kinds of
# BTF, and btfdump's command line:
#  - user-space BTF: `pahole -J` of user_types.c built with gcc -g (glibc
#    types, __gnuc_va_list -> __builtin_va_list fix-up, unsigned __int128,
#    FILE, sigaction); identical to bpftool, compiles with gcc -fsyntax-only;
#  - the Debian 6.1 vmlinux .BTF in /var/cache/btf-bench (when present);
#  - `btfdump -c`, `--types`, `--sort -o FILE`, unknown names/options.
# The enum mode() attributes are stripped before diffs (deliberate, see
# check_dump_c_vmlinux.sh).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
need_tools bpftool pahole gcc clang
[ -x "$B/btfdump" ] || { echo "missing $B/btfdump"; exit 1; }

same_as_bpftool() { # label btf-file
	"$B/btfdump" file "$2" format c --compat 7.1 >"$w/ours.h" 2>"$w/err" || { bad "$1: btfdump failed: $(cat "$w/err")"; return 1; }
	bpftool btf dump file "$2" format c >"$w/peer.h" || { bad "$1: bpftool failed"; return 1; }
	same_but_modes "$1" "$w/ours.h" "$w/peer.h" || return 1
	echo "ok: $1: identical to bpftool ($(wc -l <"$w/ours.h") lines)"
}

gcc -g -O1 -c tests/dump_c/user_types.c -o "$w/user.o" &&
	pahole -J --btf_encode_detached="$w/user.btf" "$w/user.o" || { echo "pahole -J failed"; exit 1; }
if same_as_bpftool "user-space BTF (gcc -g, pahole -J)" "$w/user.btf"; then
	grep -q 'typedef __builtin_va_list __gnuc_va_list;' "$w/ours.h" || bad "no __gnuc_va_list fix-up"
	gcc -fsyntax-only -Werror -x c "$w/ours.h" || bad "user-space header rejected by gcc"
	"$B/btfdump" -c "$w/user.btf" --compat 7.1 | cmp -s - "$w/ours.h" || bad "btfdump -c differs from format c"
fi
deb=$(ls /var/cache/btf-bench/vmlinux-* 2>/dev/null | head -1)
if [ -n "$deb" ]; then
	same_as_bpftool "$(basename "$deb") .BTF" "$deb"
	# what --sort is for: two kernels' headers diff more cleanly
	if [ -r /sys/kernel/btf/vmlinux ]; then
		"$B/btfdump" file "$deb" format c --unsorted >"$w/k1.h"
		"$B/btfdump" file /sys/kernel/btf/vmlinux format c --unsorted >"$w/k2.h"
		"$B/btfdump" file "$deb" format c --sort >"$w/k1s.h"
		"$B/btfdump" file /sys/kernel/btf/vmlinux format c --sort >"$w/k2s.h"
		plain=$(diff "$w/k1.h" "$w/k2.h" | grep -c '^[<>]')
		sorted=$(diff "$w/k1s.h" "$w/k2s.h" | grep -c '^[<>]')
		echo "ok: diff 6.1 vs running kernel: $plain changed lines in id order, $sorted with --sort"
		[ "$sorted" -lt $((plain * 3 / 4)) ] || bad "--sort does not make the kernels' diff smaller"
	fi
else
	echo "note: no Debian vmlinux image in /var/cache/btf-bench, that comparison not done"
fi

v=/sys/kernel/btf/vmlinux
if [ -r $v ]; then
	"$B/btfdump" file $v format c --types 'struct bpf_flow_keys,__sk_buff' >"$w/t.h" || bad "--types failed"
	grep -q '^struct bpf_flow_keys {' "$w/t.h" && grep -q '^struct __sk_buff {' "$w/t.h" || bad "--types misses roots"
	clang -target bpf -fsyntax-only -x c "$w/t.h" || bad "--types output does not compile"
	"$B/btfdump" file $v format c --sort -o "$w/s.h" && [ -s "$w/s.h" ] || bad "--sort -o failed"
	ls "$w"/s.h.tmp* >/dev/null 2>&1 && bad "temporary file left behind"
	tail -1 "$w/s.h" | grep -q '__VMLINUX_H__' || bad "--sort -o output incomplete"
	echo "ok: --types, --sort -o"
fi
"$B/btfdump" file "$w/user.btf" format c --types no_such_type_xyz >/dev/null 2>"$w/e1"
[ $? -ne 0 ] && grep -q no_such_type_xyz "$w/e1" || bad "unknown --types name not reported: $(cat "$w/e1")"
"$B/btfdump" file "$w/user.btf" format c --bogus >/dev/null 2>"$w/e2"
[ $? -ne 0 ] && grep -q -- --bogus "$w/e2" || bad "unknown option not reported"
echo "ok: errors: $(head -1 "$w/e1")"
exit $fail
