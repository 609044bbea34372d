// SPDX-License-Identifier: BSD-2-Clause
/*
 * Corpus: XDP tail calls through a PROG_ARRAY filled statically with
 * `.values` (the .maps symbol is larger than its type: libbpf finds the
 * slots by relocation offset inside it), a static subprogram called from
 * several programs, and per-program results in .bss.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

int tail_a_runs;
int tail_b_runs;
int entry_runs;
int fallthrough;

static __noinline int note_run(int *counter, int ret)
{
	__sync_fetch_and_add(counter, 1);
	return ret;
}

SEC("xdp")
int tail_a(struct xdp_md *ctx)
{
	return note_run(&tail_a_runs, XDP_PASS);
}

SEC("xdp")
int tail_b(struct xdp_md *ctx)
{
	return note_run(&tail_b_runs, XDP_DROP);
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(__u32));
	__array(values, int (void *));
} jumps SEC(".maps") = {
	.values = {
		[0] = (void *)&tail_a,
		[2] = (void *)&tail_b,
	},
};

SEC("xdp")
int entry(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 slot = (data + 64 <= end) ? 2 : 0;

	note_run(&entry_runs, 0);
	bpf_tail_call(ctx, &jumps, slot);
	fallthrough++;
	return XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
