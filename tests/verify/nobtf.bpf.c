// SPDX-License-Identifier: BSD-2-Clause
/*
 * A BPF object built without -g (no .BTF, no .BTF.ext), in the three shapes
 * libbpf 1.1 tells apart (check_object_mode.sh): plain (it opens and loads
 * without BTF), -DWITH_MAPS (a .maps section: BTF is required) and
 * -DWITH_EXTERN (an extern: no BTF to find it in).
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

#ifdef WITH_MAPS
struct {
	int (*type)[BPF_MAP_TYPE_ARRAY];
	int (*max_entries)[1];
	int *key;
	long *value;
} counts SEC(".maps");
#endif

#ifdef WITH_EXTERN
extern unsigned int LINUX_KERNEL_VERSION __attribute__((section(".kconfig"), weak));
#endif

static const int zero_len = 0;

SEC("socket")
int nobtf_filter(struct __sk_buff *skb)
{
#ifdef WITH_EXTERN
	if (LINUX_KERNEL_VERSION == 0)
		return 1;
#endif
	return skb->len > 64 ? zero_len : -1;
}

char _license[] SEC("license") = "GPL";
