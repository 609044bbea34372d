// SPDX-License-Identifier: BSD-2-Clause
/* btfgen parity input: map flavours, per-CPU maps, ring buffer, rodata. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct event {
	__u64 ts;
	__u32 pid;
	char comm[16];
	union {
		__u32 v4;
		__u32 v6[4];
	} addr;
};

struct counters {
	__u64 packets, bytes;
	__u32 flags : 4, kind : 12, spare : 16;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct counters);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, struct event);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} ring SEC(".maps");

const char greeting[] = "hello";
const volatile __u32 limit = 100;
struct event last_event;
char _license[] SEC("license") = "Dual BSD/GPL";

static __always_inline void bump(struct counters *c, __u64 len)
{
	c->packets++;
	c->bytes += len;
}

SEC("tc")
int count(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct counters *c = bpf_map_lookup_elem(&stats, &key);
	struct event *e;
	__u64 ts;

	if (c)
		bump(c, skb->len);
	e = bpf_ringbuf_reserve(&ring, sizeof(*e), 0);
	if (!e)
		return 0;
	e->ts = bpf_ktime_get_ns();
	e->pid = limit + greeting[1];
	last_event.pid = e->pid;
	ts = e->ts;
	bpf_ringbuf_submit(e, 0);
	bpf_map_update_elem(&events, &ts, &last_event, BPF_ANY);
	return 0;
}
