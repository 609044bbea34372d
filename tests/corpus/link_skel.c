// SPDX-License-Identifier: BSD-2-Clause
/*
 * link_skel: user space of the linked corpus program through the skeleton
 * `bpftool gen skeleton` made of the linked object (link.skel.h, generated
 * into the build directory): open, load, run link_entry once with
 * BPF_PROG_TEST_RUN, and check the results in .bss/.data through the
 * skeleton's typed views. Exit 0 if right, 1 if not.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include "link.skel.h"

int main(void)
{
	unsigned char frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = sizeof(frame));
	struct corpus_link *s = corpus_link__open_and_load();
	int ok;

	if (!s) {
		fprintf(stderr, "link_skel: cannot open and load the skeleton\n");
		return 1;
	}
	if (bpf_prog_test_run_opts(bpf_program__fd(s->progs.link_entry), &o)) {
		fprintf(stderr, "link_skel: test run failed\n");
		corpus_link__destroy(s);
		return 1;
	}
	ok = o.retval == 2 && s->bss->a_result == 42 && s->data->shared_total == 142;
	printf("link_skel: retval %u a_result %d shared_total %llu: %s\n", o.retval,
	       s->bss->a_result, (unsigned long long)s->data->shared_total, ok ? "right" : "WRONG");
	corpus_link__destroy(s);
	return ok ? 0 : 1;
}
