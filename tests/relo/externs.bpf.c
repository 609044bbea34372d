// SPDX-License-Identifier: BSD-2-Clause
/*
 * The externs libbpf resolves when it loads an object on a kernel, before
 * any CO-RE relocation: kfuncs and a typed __ksym variable (found in the
 * kernel's BTF, types compatible), a __weak kfunc no kernel has, a typeless
 * __ksym (kallsyms) and __kconfig values (the kernel's config).
 */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

extern int LINUX_KERNEL_VERSION __kconfig;
extern const void _stext __ksym;
extern const int bpf_prog_active __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern int bpf_corpus_no_such_kfunc(int x) __ksym __weak;

long out[4];

SEC("tp_btf/sys_enter")
int on_enter(void *ctx)
{
	bpf_rcu_read_lock();
	out[0] = LINUX_KERNEL_VERSION;
	out[1] = (long)&_stext;
	out[2] = (long)&bpf_prog_active;
	if (bpf_corpus_no_such_kfunc)
		out[3] = bpf_corpus_no_such_kfunc(1);
	bpf_rcu_read_unlock();
	return 0;
}

char _license[] SEC("license") = "GPL";
