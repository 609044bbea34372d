// SPDX-License-Identifier: BSD-2-Clause
/*
 * Function-scope static variables, as BPF programs have them (issue 33):
 * bpf_printk's ____fmt (twice in one function: clang's symbols
 * FUNC.____fmt and FUNC.____fmt.N), a static const key whose address is
 * taken, a counter in .bss, a static in a helper. With -DONLY_RODATA the
 * object's one .rodata variable is a function-scope static. Socket filters:
 * they load as root without attaching (check_local_statics.sh).
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name

static long (*bpf_trace_printk)(const char *fmt, __u32 fmt_size, ...) = (void *)6;
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
#define bpf_printk(fmt, ...)                                                   \
	({                                                                      \
		static const char ____fmt[] = fmt;                              \
		bpf_trace_printk(____fmt, sizeof(____fmt), ##__VA_ARGS__);      \
	})

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, long);
} counts SEC(".maps");

SEC("socket")
int only_key(struct __sk_buff *skb)
{
	static const int zero = 0;
	long *v = bpf_map_lookup_elem(&counts, &zero);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

#ifndef ONLY_RODATA
static __attribute__((noinline)) int helper(int x)
{
	static int hits;

	hits += x;
	return hits;
}

SEC("socket")
int printer(struct __sk_buff *skb)
{
	static int seen;

	seen++;
	bpf_printk("len %d", skb->len);
	if (skb->len > 100)
		bpf_printk("big %d seen %d", skb->len, seen);
	return helper(seen) & 0;
}

SEC("socket")
int printer2(struct __sk_buff *skb)
{
	bpf_printk("other %d", skb->protocol);
	return 0;
}
#endif

char _license[] SEC("license") = "GPL";
