// SPDX-License-Identifier: BSD-2-Clause
/*
 * Corpus: CO-RE against another kernel's layout (old_kernel.h). Run with
 * BPF_PROG_TEST_RUN as a raw tracepoint program, it reads the calling task
 * through relocated offsets and stores checks that hold only if every
 * relocation was applied: field offsets (BPF_CORE_READ chains), field
 * existence, type existence, an enum value, a ___flavor struct, a typeless
 * __ksym symbol and a field's byte size.
 */
#ifdef CORE_TASK_VMLINUX_H
#include "vmlinux.h"	/* another kernel's, made by btfgen + btfdump format c */
#include "core_flavors.h"
#else
#include "old_kernel.h"
#endif
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* a typeless kernel symbol (libbpf takes its address from kallsyms) */
extern const void _stext __ksym;

/* .bss: the results, one flag per check (1 = right) */
int tgid_matches;
int pid_matches;
int parent_differs;
int comm_matches;
int flavor_comm_matches;
int gone_field_absent;
int mm_field_present;
int fake_type_absent;
int task_type_present;
int ringbuf_enum_right;
int comm_size_right;
int ksym_found;
int runs;

static __noinline int same_comm(const char *a, const char *b)
{
	for (int i = 0; i < 16; i++) {
		if (a[i] != b[i])
			return 0;
		if (!a[i])
			break;
	}
	return 1;
}

SEC("raw_tp")
int core_checks(void *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct task_struct___flav *flav = (void *)task;
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	char comm[16] = {}, core_comm[16] = {}, flav_comm[16] = {};

	tgid_matches = BPF_CORE_READ(task, tgid) == (pid_t)(pid_tgid >> 32);
	pid_matches = BPF_CORE_READ(task, pid) == (pid_t)pid_tgid;
	parent_differs = BPF_CORE_READ(task, real_parent, tgid) > 0 &&
			 BPF_CORE_READ(task, real_parent, tgid) != (pid_t)(pid_tgid >> 32);
	bpf_get_current_comm(comm, sizeof(comm));
	BPF_CORE_READ_STR_INTO(&core_comm, task, comm);
	comm_matches = same_comm(comm, core_comm);
	bpf_core_read_str(flav_comm, sizeof(flav_comm), &flav->comm);
	flavor_comm_matches = same_comm(comm, flav_comm);
	gone_field_absent = !bpf_core_field_exists(((struct task_struct___gone *)task)->no_such_field_anymore);
	mm_field_present = bpf_core_field_exists(task->mm);
	fake_type_absent = !bpf_core_type_exists(struct corpus_never_in_kernel);
	task_type_present = bpf_core_type_exists(struct task_struct);
	ringbuf_enum_right = bpf_core_enum_value(enum bpf_map_type, BPF_MAP_TYPE_RINGBUF) == 27;
	comm_size_right = bpf_core_field_size(task->comm) == 16;
	ksym_found = (long)&_stext != 0;
	runs++;
	return 0;
}

char _license[] SEC("license") = "GPL";
