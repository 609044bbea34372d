// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen parity input: externs libbpf resolves at load time. __kconfig
 * values (.kconfig), a typeless kernel symbol and kfuncs (.ksyms): clang
 * encodes them as VAR/FUNC with extern linkage; libbpf needs that BTF.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int LINUX_KERNEL_VERSION __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig __weak;
extern const void _stext __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

long seen_version;
long seen_addr;
char _license[] SEC("license") = "GPL";

SEC("tp_btf/sys_enter")
int on_enter(void *ctx)
{
	bpf_rcu_read_lock();
	seen_version = LINUX_KERNEL_VERSION + CONFIG_BPF_SYSCALL;
	seen_addr = (long)&_stext;
	bpf_rcu_read_unlock();
	return 0;
}
