#!/bin/bash
# btfcheck's object mode and btfgen --in-place against libbpf's own open
# (tests/fuzz/libbpf_open, libbpf 1.1 as Debian ships it) (issue 28):
#  - .BTF.ext mutations (tests/fuzz/bpfobj.py: one per check of libbpf's
#    btf_ext__new) of a clang object with maps: libbpf refuses each, and
#    btfcheck refuses it with libbpf's errno and words; of an object
#    without maps libbpf ignores them, and btfcheck does not refuse them
#  - map definitions libbpf refuses (an unknown field: max_entires, a bad
#    pinning value, no map type): btfcheck too, with libbpf's message
#  - btfgen --in-place on a gcc-bpf -gbtf object with maps and no
#    functions (its .BTF.ext has no records), on a .maps without SHF_ALLOC
#    on overlapping map symbols and on a weak symbol of a static
#    subprogram: exit 0 only with an output libbpf opens (as root: loads,
#    where the input loaded), and btfcheck says OK only for what libbpf opens
. "$(dirname "$0")/../lib.sh"
OPEN=$B/tests/fuzz/libbpf_open BC=$B/btfcheck GEN=$B/btfgen GEN_DUMP=$B/btfdump
for f in "$OPEN" "$BC" "$GEN"; do
	[ -x "$f" ] || { echo "FAIL: $f missing (make check builds it)"; exit 1; }
done
need_tools "$BPF_CLANG"
fail=0 n=0
MA=$(gcc -print-multiarch)
INC=(-I"/usr/include/$MA" -idirafter /usr/include)

# agree OBJ [refuse]: btfcheck's open verdict is libbpf's; "refuse": libbpf
# must refuse it (the case is meant to be refused)
agree() {
	local o=$1 ref rc
	ref=$("$OPEN" "$o" 2>"$T/open.err")
	"$BC" --json "$o" >"$T/bc.json" 2>"$T/bc.err"; rc=$?
	n=$((n + 1))
	if [ "${2:-}" = refuse ] && [ "$ref" = "open ok" ]; then
		bad "$o: libbpf opens it (the case does not test a refusal)"
		return
	fi
	python3 tests/verify/libbpf_open_agree.py "$o" "$ref" "$rc" "$T/bc.json" "$T/open.err" || fail=1
}

# 1. .BTF.ext: clang's object with maps (libbpf needs its BTF), one without
bpf_cc -g -O2 "${INC[@]}" -c -o "$T/maps.o" tests/btfgen/maps.bpf.c || { echo "FAIL: clang-16"; exit 1; }
cat >"$T/nomaps.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("xdp") int pass(struct xdp_md *ctx) { return ctx->ingress_ifindex ? XDP_PASS : XDP_DROP; }
char _license[] SEC("license") = "GPL";
EOF
bpf_cc -g -O2 "${INC[@]}" -c -o "$T/nomaps.o" "$T/nomaps.c" || { echo "FAIL: clang-16"; exit 1; }
agree "$T/maps.o"
mkdir -p "$T/ext" "$T/ext0"
mapfile -t muts < <(python3 tests/fuzz/bpfobj.py named "$T/maps.o" "$T/ext")
[ ${#muts[@]} -ge 25 ] || bad "only ${#muts[@]} .BTF.ext mutations of maps.o"
for m in "${muts[@]}"; do agree "$m" refuse; done
mapfile -t muts0 < <(python3 tests/fuzz/bpfobj.py named "$T/nomaps.o" "$T/ext0")
[ ${#muts0[@]} -ge 15 ] || bad "only ${#muts0[@]} .BTF.ext mutations of nomaps.o"
for m in "${muts0[@]}"; do agree "$m"; done

# 2. map definitions
mapdef() { # NAME BODY: a map of that definition, used by a program
	cat >"$T/$1.c" <<EOF
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { $2 } m SEC(".maps");
SEC("xdp") int prog(struct xdp_md *ctx) { __u32 k = 0; return bpf_map_lookup_elem(&m, &k) ? XDP_PASS : XDP_DROP; }
char _license[] SEC("license") = "GPL";
EOF
	bpf_cc -g -O2 "${INC[@]}" -c -o "$T/$1.o" "$T/$1.c" || bad "clang-16 on $1"
}
mapdef typo '__uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entires, 2); __type(key, __u32); __type(value, __u64);'
mapdef pinning '__uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 2); __uint(pinning, 7); __type(key, __u32); __type(value, __u64);'
mapdef notype '__uint(max_entries, 2); __type(key, __u32); __type(value, __u64);'
mapdef keysize '__uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 2); __uint(key_size, 8); __type(key, __u32); __type(value, __u64);'
mapdef attr '__uint(type, BPF_MAP_TYPE_ARRAY); int max_entries; __type(key, __u32); __type(value, __u64);'
for c in typo pinning notype keysize attr; do agree "$T/$c.o" refuse; done
"$BC" "$T/typo.o" >"$T/typo.out" 2>&1; grep -q "unknown field 'max_entires'" "$T/typo.out" || bad "btfcheck on __uint(max_entires, 2): $(cat "$T/typo.out")"

# inplace OBJ: btfgen --in-place exits 0 only with an object libbpf opens
# (when it opened before), and 0 is expected when $2 is "ok"
inplace() {
	local o=$1 before after rc
	cp "$o" "$T/ip.o"
	before=$("$OPEN" "$o" 2>/dev/null)
	"$GEN" --in-place "$T/ip.o" 2>"$T/gen.err"; rc=$?
	after=$("$OPEN" "$T/ip.o" 2>"$T/open.err")
	n=$((n + 1))
	if [ $rc = 0 ] && [ "$before" = "open ok" ] && [ "$after" != "open ok" ]; then
		bad "$o: libbpf opened it, btfgen --in-place exit 0, now: $after $(tr '\n' ' ' <"$T/open.err")"
	elif [ $rc != 0 ] && ! cmp -s "$o" "$T/ip.o"; then
		bad "$o: btfgen --in-place refused (exit $rc) but changed it"
	elif [ "${2:-}" = ok ] && [ $rc != 0 ]; then
		bad "$o: btfgen --in-place exit $rc: $(cat "$T/gen.err")"
	fi
	[ $rc = 0 ] && agree "$T/ip.o"
}

# 3. gcc -gbtf, maps and data only: its .BTF.ext has no records
if command -v bpf-gcc >/dev/null; then
	cat >"$T/shared.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 2); __type(key, __u32); __type(value, __u64); } shared SEC(".maps");
__u64 counter;
char _license[] SEC("license") = "GPL";
EOF
	bpf-gcc -g -O2 "${INC[@]}" -gbtf -c -o "$T/shared.o" "$T/shared.c" || bad "bpf-gcc -gbtf"
	[ "$("$OPEN" "$T/shared.o" 2>/dev/null)" = "open ok" ] || bad "libbpf does not open gcc -gbtf's shared.o"
	inplace "$T/shared.o" ok
	llvm-objcopy --dump-section .BTF.ext="$T/ext.before" "$T/shared.o" &&
		llvm-objcopy --dump-section .BTF.ext="$T/ext.after" "$T/ip.o" &&
		cmp -s "$T/ext.before" "$T/ext.after" || bad "gcc -gbtf shared.o: .BTF.ext without records not kept as it was"
else
	echo "note: bpf-gcc missing, the gcc -gbtf case is not run"
fi

# 4. symbols and section headers that disagree with the BTF
python3 tests/fuzz/bpfobj.py flags "$T/maps.o" "$T/noalloc.o" .maps 0 &&
	python3 tests/fuzz/bpfobj.py flags "$T/maps.o" "$T/noalloc_w.o" .maps 1 || bad "bpfobj.py flags"
inplace "$T/noalloc.o" ok
inplace "$T/noalloc_w.o" ok
for v in 0 0x20 0x30 0x28; do
	python3 tests/fuzz/bpfobj.py symval "$T/maps.o" "$T/overlap$v.o" ring "$v" || bad "bpfobj.py symval"
	agree "$T/overlap$v.o"
	inplace "$T/overlap$v.o"
done
inplace "$T/maps.o" ok
# a static subprogram whose symbol is weak: its FUNC stays static (the
# source's linkage, as clang wrote it), or the kernel verifies it as a
# global function and refuses the program
cat >"$T/sub.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 4); __type(key, __u32); __type(value, __u64); } seen SEC(".maps");
static __noinline int note(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&seen, &k);

	if (p)
		*p += v;
	return 0;
}
SEC("xdp") int prog(struct xdp_md *ctx) { note(0, ctx->ingress_ifindex); return XDP_PASS; }
char _license[] SEC("license") = "GPL";
EOF
bpf_cc -g -O2 "${INC[@]}" -c -o "$T/sub.o" "$T/sub.c" || bad "clang-16 on sub.c"
python3 tests/fuzz/bpfobj.py syminfo "$T/sub.o" "$T/weaksub.o" note 0x22 || bad "bpfobj.py syminfo"
inplace "$T/weaksub.o" ok
"$GEN_DUMP" "$T/ip.o" | grep -q "FUNC 'note' type_id=[0-9]* linkage=static" ||
	bad "weak symbol of static note(): $("$GEN_DUMP" "$T/ip.o" | grep "FUNC 'note'")"
if [ "$(id -u)" = 0 ]; then
	[ "$("$OPEN" --load "$T/weaksub.o" 2>/dev/null)" = "load ok" ] || bad "weaksub.o does not load as clang wrote it"
	after=$("$OPEN" --load "$T/ip.o" 2>/dev/null)
	[ "$after" = "load ok" ] || bad "weaksub.o after btfgen --in-place: $after"
fi

[ $fail = 0 ] || exit 1
echo "PASS: $n cases: btfcheck's object mode refuses what libbpf's open refuses (.BTF.ext, map definitions) with its errno and words; btfgen --in-place keeps objects libbpf opens"
