// SPDX-License-Identifier: BSD-2-Clause
/*
 * A BPF object whose BTF uses every kind libbpf sanitizes for older
 * kernels (check_min_kernel.sh): FUNC/FUNC_PROTO, a global FUNC, VAR and
 * DATASEC, FLOAT, DECL_TAG, TYPE_TAG, ENUM64 and a signed ENUM, plus a
 * bitfield (STRUCT kind_flag, which libbpf cannot rewrite).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __tag(x) __attribute__((btf_decl_tag(x)))
#define __ttag(x) __attribute__((btf_type_tag(x)))

enum big { BIG = 0x1ffffffffULL };
enum neg { NEG = -1 };

struct s {
	float f;
	enum big b;
	enum neg n;
	int __ttag("user") *p;
	int bits : 3;
} __tag("s");

struct s g;

SEC("tc")
int prog(struct __sk_buff *skb)
{
	return g.bits + (g.p != 0);
}

char _license[] SEC("license") = "GPL";
