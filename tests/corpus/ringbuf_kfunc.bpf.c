// SPDX-License-Identifier: BSD-2-Clause
/*
 * Corpus: a ring buffer of typed records, kfuncs (bpf_rcu_read_lock/unlock,
 * resolved against the kernel's BTF), a typeless __ksym symbol and __kconfig
 * values (LINUX_KERNEL_VERSION, CONFIG_HZ, a __weak missing option).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_HZ __kconfig;
extern _Bool CONFIG_CORPUS_NO_SUCH_OPTION __kconfig __weak;
extern const void schedule __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

struct event {
	__u32 seq;
	__u32 flags;
	__u64 value;
	char tag[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

__u32 seq;
int sane;

static int emit(__u32 flags, __u64 value)
{
	struct event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return -1;
	e->seq = ++seq;
	e->flags = flags;
	e->value = value;
	__builtin_memcpy(e->tag, "corpus!", 8);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("raw_tp")
int produce(void *ctx)
{
	bpf_rcu_read_lock();
	sane = LINUX_KERNEL_VERSION >= (5 << 16) && CONFIG_HZ >= 100 &&
	       !CONFIG_CORPUS_NO_SUCH_OPTION && (long)&schedule != 0;
	bpf_rcu_read_unlock();
	emit(1, sane);
	emit(2, 0x1122334455667788ULL);
	return 0;
}

char _license[] SEC("license") = "GPL";
