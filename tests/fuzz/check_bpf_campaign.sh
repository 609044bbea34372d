#!/bin/bash
# The BPF-object campaign of issue 28 (tests/fuzz/campaign.py, kind
# bpfobj; mutations from tests/fuzz/bpfobj.py): seed objects from clang-16
# (maps and programs; CO-RE relocations) and gcc-bpf -gbtf (with and
# without functions), mutated at the level libbpf reads them (.BTF.ext
# headers and records, CO-RE access strings, symbols, section flags),
# each through btfcheck and btfgen --in-place with libbpf's own open (and,
# as root, load) as the oracle: btfcheck says OK => libbpf opens it;
# btfgen --in-place exits 0 => libbpf opens (loads) the output if it
# opened (loaded) the input; plus the campaign's usual promises (exit
# table, messages naming the file, sanitizers in SAN=1 builds, inputs
# unchanged). CAMPAIGN_BPF_SECONDS (20 in make check, 600 under make fuzz),
# fixed seed CAMPAIGN_SEED (default 1). Findings in $B/bpf_campaign/run/found/.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
secs=${CAMPAIGN_BPF_SECONDS:-20}
W=$B/bpf_campaign
S=$W/seeds
[ -x "$B/tests/fuzz/libbpf_open" ] || { echo "FAIL: $B/tests/fuzz/libbpf_open missing (make check builds it)"; exit 1; }
need_tools "$BPF_CLANG"
rm -rf "$W"
mkdir -p "$S" "$W/run"
INC=("${BPF_INC[@]}" -idirafter /usr/include)
cat >"$W/core.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
struct task_struct { int pid; int tgid; struct task_struct *parent; char comm[16]; }
	__attribute__((preserve_access_index));
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 4); __type(key, __u32); __type(value, __u64); } seen SEC(".maps");
static __noinline int note(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&seen, &k);

	if (p)
		*p += v;
	return 0;
}
SEC("kprobe/do_nanosleep")
int core_prog(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();

	note(0, BPF_CORE_READ(t, pid));
	note(1, BPF_CORE_READ(t, parent, tgid));
	return bpf_core_field_exists(t->comm) ? 0 : 1;
}
char _license[] SEC("license") = "GPL";
C
cat >"$W/shared.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 2); __type(key, __u32); __type(value, __u64); } shared SEC(".maps");
__u64 counter;
char _license[] SEC("license") = "GPL";
C
bpf_cc -g -O2 "${INC[@]}" -c -o "$S/maps.clang.bpf.o" tests/btfgen/maps.bpf.c &&
	bpf_cc -g -O2 "${INC[@]}" -c -o "$S/core.clang.bpf.o" "$W/core.c" ||
	{ echo "FAIL: building the seeds with clang-16"; exit 1; }
if command -v bpf-gcc >/dev/null; then
	bpf-gcc -g -O2 -gbtf "${INC[@]}" -c -o "$S/shared.gcc.bpf.o" "$W/shared.c" &&
		bpf-gcc -g -O2 -gbtf "${INC[@]}" -c -o "$S/maps.gcc.bpf.o" tests/btfgen/maps.bpf.c ||
		{ echo "FAIL: building the seeds with bpf-gcc"; exit 1; }
else
	echo "note: bpf-gcc missing: clang seeds only"
fi
python3 tests/fuzz/campaign.py "$B" "$S" "$W/run" "$secs" "${CAMPAIGN_SEED:-1}" bpfobj; rc=$?
if [ -d "$W/run/found" ]; then
	echo "findings in $W/run/found:"
	for f in "$W"/run/found/*.txt; do head -n 3 "$f"; done
fi
[ $rc -eq 0 ] && echo "PASS: BPF-object campaign found nothing"
exit $rc
