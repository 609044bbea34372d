// SPDX-License-Identifier: BSD-2-Clause
/*
 * Dedup against the running kernel's BTF: vmlinux copied into a builder
 * type by type dedups to the same number of types (it is deduplicated
 * already); two and three renumbered copies collapse onto one; the result
 * is loaded by the kernel (BPF_BTF_LOAD through libbpf).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include "libbtf.h"

#define VMLINUX "/sys/kernel/btf/vmlinux"

static struct lbtf *vmlinux;

static int add_delta(uint32_t *slot, void *ctx)
{
	if (*slot)
		*slot += *(uint32_t *)ctx;
	return 0;
}

/* Append every type of vmlinux, renumbered to follow what b has */
static void add_copy(struct lbtf_builder *b)
{
	uint32_t delta = lbtf_builder_type_cnt(b) - 1;

	for (uint32_t id = 1; id < lbtf_type_cnt(vmlinux); id++) {
		int nid = lbtf_builder_add_type_copy(b, vmlinux, id);
		if (nid < 0)
			fail_msg("copy of type %u failed: %s", id, lbtf_errmsg());
		lbtf_type_visit_type_ids(lbtf_builder_type_by_id(b, (uint32_t)nid), add_delta, &delta);
	}
}

static void kernel_loads(struct lbtf_builder *b)
{
	void *data;
	size_t size;
	char *log = malloc(1 << 24);
	LIBBPF_OPTS(bpf_btf_load_opts, o);
	int fd;

	assert_int_equal(lbtf_builder_serialize(b, false, &data, &size), 0);
	fd = bpf_btf_load(data, size, &o);
	if (fd < 0) {
		/* again with the verifier log, for the message */
		LIBBPF_OPTS(bpf_btf_load_opts, lo, .log_buf = log, .log_size = 1 << 24, .log_level = 1);
		int err = errno;
		size_t len;

		log[0] = 0;
		fd = bpf_btf_load(data, size, &lo);
		len = strlen(log);
		fail_msg("kernel rejected the BTF (%s): ...%s", strerror(err), log + (len > 1500 ? len - 1500 : 0));
	}
	close(fd);
	free(data);
	free(log);
}

static void dedup_copies(int copies)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	struct lbtf_dedup_stats st = { .sz = sizeof(st) };
	struct lbtf_dedup_opts o = { .sz = sizeof(o), .stats = &st };
	uint32_t n = lbtf_type_cnt(vmlinux) - 1, vars = 0;
	uint32_t strs_len;

	/* VAR and DATASEC are never merged: every copy keeps its own */
	for (uint32_t id = 1; id <= n; id++) {
		unsigned int k = lbtf_kind(lbtf_type_by_id(vmlinux, id));
		vars += k == LBTF_KIND_VAR || k == LBTF_KIND_DATASEC;
	}

	for (int i = 0; i < copies; i++)
		add_copy(b);
	if (lbtf_builder_dedup(b, &o))
		fail_msg("dedup failed: %s", lbtf_errmsg());
	print_message("%d cop%s: %u -> %u types, strings %u -> %u bytes\n", copies,
		      copies > 1 ? "ies" : "y", st.types_in, st.types_out, st.strs_in_bytes,
		      st.strs_out_bytes);
	assert_int_equal(st.types_in, n * copies);
	assert_int_equal(st.types_out, n + (copies - 1) * vars);
	lbtf_strings(vmlinux, &strs_len);
	assert_true(st.strs_out_bytes <= strs_len);
	kernel_loads(b);
	lbtf_builder_free(b);
}

static void test_one_copy(void **state)
{
	dedup_copies(1);
}

static void test_three_copies(void **state)
{
	dedup_copies(3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_copy),
		cmocka_unit_test(test_three_copies),
	};
	int ret;

	if (access(VMLINUX, R_OK)) {
		printf("SKIP: %s not readable (kernel without BTF?)\n", VMLINUX);
		return 77;
	}
	if (geteuid() != 0) {
		printf("SKIP: loading BTF into the kernel needs root\n");
		return 77;
	}
	vmlinux = lbtf_open_vmlinux();
	if (!vmlinux) {
		printf("cannot open %s: %s\n", VMLINUX, lbtf_errmsg());
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	lbtf_free(vmlinux);
	return ret;
}
