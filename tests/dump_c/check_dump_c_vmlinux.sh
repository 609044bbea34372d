#!/bin/bash
# vmlinux.h from the running kernel's BTF:
#  1. identical to `bpftool btf dump file /sys/kernel/btf/vmlinux format c`
#     (generated here, now) except for the deliberate differences below;
#  2. compiles with clang -target bpf, bpf_cc, gcc -fsyntax-only;
#  3. a BPF program using struct bpf_flow_keys and struct __sk_buff compiles
#     against it, and against a --types bpf_flow_keys,__sk_buff subset;
#  4. the --sort output compiles and defines the same structs/unions/enums.
#  5. btfdump's `format c --compat 7.1` prints the same bytes (its default,
#     the newest bpftool's layout, is check_dump_c_newest.sh's).
# Deliberate differences from the installed bpftool (built from linux 6.1.y):
#  - 1-byte enums get __attribute__((mode(byte))), 8-byte ENUMs and 8-byte
#    ENUM64s with only 32-bit values mode(word) (what libbpf >= 1.1.0 final
#    does; without them struct layouts holding such enums come out wrong),
#    2-byte enums mode(HI) (our addition, same reason). Stripped before diff.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
vmlinux=/sys/kernel/btf/vmlinux
drv=$B/tests/dump_c/dumpc_driver
need_tools bpftool clang "$BPF_CLANG" gcc
[ -r $vmlinux ] || { echo "SKIP: no $vmlinux (kernel without CONFIG_DEBUG_INFO_BTF)"; exit 77; }
[ -x "$drv" ] || { echo "missing $drv (make $drv)"; exit 1; }

"$drv" $vmlinux >"$w/ours.h" || bad "dump failed"
bpftool btf dump file $vmlinux format c >"$w/bpftool.h" || bad "bpftool failed"
same_but_modes vmlinux "$w/ours.h" "$w/bpftool.h" &&
	echo "ok: identical to bpftool ($(wc -l <"$w/ours.h") lines) after stripping mode() attributes" \
	     "($(grep -c 'mode(' "$w/ours.h") of them)"

cc_bpf() { # compiler file...
	local c=$1; shift
	"$c" -target bpf -O2 -Wall -Werror -c -o "$w/out.o" "$@" 2>&1 | head -20
	return "${PIPESTATUS[0]}"
}
printf '#include "%s"\n' "$w/ours.h" >"$w/only.c"
cc_bpf clang -fsyntax-only "$w/only.c" || bad "clang -target bpf rejects it"
cc_bpf "$BPF_CLANG" -fsyntax-only "$w/only.c" || bad "$BPF_CLANG -target bpf rejects it"
gcc -fsyntax-only -Werror -x c "$w/ours.h" 2>&1 | head -20
[ "${PIPESTATUS[0]}" -eq 0 ] || bad "gcc -fsyntax-only rejects it"

prog() { # header -> a flow-dissector-like BPF program
	cat <<EOC
#include "$1"
#define SEC(n) __attribute__((section(n), used))
static long (*bpf_skb_load_bytes)(const void *, __u32, void *, __u32) = (void *)26;
SEC("flow_dissector")
int dissect(struct __sk_buff *skb)
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	struct ethhdr eth;

	if (bpf_skb_load_bytes(skb, keys->thoff, &eth, sizeof(eth)))
		return 1;
	keys->n_proto = eth.h_proto;
	keys->addr_proto = 0;
	keys->nhoff = keys->thoff + sizeof(eth);
	return skb->len > 64 ? 0 : 2;
}
char _license[] SEC("license") = "GPL";
EOC
}
prog "$w/ours.h" >"$w/prog.c"
cc_bpf "$BPF_CLANG" -g "$w/prog.c" || bad "BPF program using bpf_flow_keys/__sk_buff does not compile"

"$drv" $vmlinux --types bpf_flow_keys,__sk_buff,ethhdr,__u32 >"$w/subset.h" || bad "--types failed"
prog "$w/subset.h" >"$w/prog2.c"
cc_bpf "$BPF_CLANG" -g "$w/prog2.c" || bad "BPF program against the --types subset does not compile"
n=$(grep -c '^struct .* {$' "$w/subset.h")
[ "$n" -lt 20 ] || bad "--types subset has $n structs, expected a handful"
echo "ok: --types subset: $(wc -l <"$w/subset.h") lines, $n structs"

"$drv" $vmlinux --sort >"$w/sorted.h" || bad "--sort failed"
printf '#include "%s"\n' "$w/sorted.h" >"$w/only2.c"
cc_bpf clang -fsyntax-only "$w/only2.c" || bad "--sort output does not compile"
defs() { grep -E '^(struct|union|enum) [A-Za-z0-9_]+ \{' "$1" | sed -E 's/___[0-9]+ / /' | sort; }
cmp -s <(defs "$w/ours.h") <(defs "$w/sorted.h") || bad "--sort defines other types than id order"
cmp -s "$w/ours.h" "$w/sorted.h" && bad "--sort output is in id order"
echo "ok: --sort: $(defs "$w/sorted.h" | wc -l) definitions, compiles"

# --kfuncs (bpftool v7.5+'s prototypes): one per bpf_kfunc-tagged FUNC, usable
"$drv" $vmlinux --kfuncs >"$w/kf.h" || bad "--kfuncs failed"
want=$(bpftool btf dump file $vmlinux | grep -c "DECL_TAG 'bpf_kfunc' .*component_idx=-1")
got=$(grep -c ' __weak __ksym;$' "$w/kf.h")
[ "$got" -eq "$want" ] && [ "$want" -gt 0 ] || bad "--kfuncs: $got prototypes, $want bpf_kfunc tags"
cat >"$w/kf.c" <<EOC
#include "$w/kf.h"
#define SEC(n) __attribute__((section(n), used))
SEC("tp_btf/task_newtask")
int on_new(unsigned long long *ctx)
{
	struct task_struct *t = bpf_task_acquire((struct task_struct *)ctx[0]);

	if (t)
		bpf_task_release(t);
	return 0;
}
char _license[] SEC("license") = "GPL";
EOC
cc_bpf "$BPF_CLANG" -g "$w/kf.c" || bad "BPF program calling kfuncs from --kfuncs does not compile"
diff "$w/ours.h" "$w/kf.h" | grep -q '^<' && bad "--kfuncs changed more than adding prototypes and macros"
echo "ok: --kfuncs: $got prototypes, compiles, BPF program calling bpf_task_acquire compiles"

if "$B/btfdump" file $vmlinux format c --compat 7.1 >"$w/btfdump.h" 2>"$w/btfdump.err"; then
	cmp -s "$w/btfdump.h" "$w/ours.h" || bad "btfdump format c --compat 7.1 differs from lbtf_dump_c"
	echo "ok: btfdump file ... format c --compat 7.1 gives the same bytes"
else
	echo "note: btfdump format c not available yet: $(head -1 "$w/btfdump.err")"
fi
exit $fail
