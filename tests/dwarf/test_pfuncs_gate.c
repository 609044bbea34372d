// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf/dwarf/convert.c: pahole's function table is loaded by the calling
 * thread while the workers convert (pfuncs_gate), and a worker that meets
 * a subprogram before the table is there waits for it. Linked with
 * --wrap=lbtfi_dw_pfuncs_load (tests/tests.mk), the load here can be made slow:
 * the workers then reach their first subprograms long before it ends, and
 * the result must still be the one a prompt load gives, FUNCs included (a
 * worker that did not wait would convert its subprograms without the table
 * and leave their FUNCs out).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "dwarf_funcs/internal.h"

static unsigned int delay_ms;
static int loads;

int __real_lbtfi_dw_pfuncs_load(struct lbtfi_dw_elf_info *ei, uint32_t features);
int __wrap_lbtfi_dw_pfuncs_load(struct lbtfi_dw_elf_info *ei, uint32_t features);

int __wrap_lbtfi_dw_pfuncs_load(struct lbtfi_dw_elf_info *ei, uint32_t features)
{
	struct timespec ts = { .tv_sec = delay_ms / 1000, .tv_nsec = (delay_ms % 1000) * 1000000L };

	loads++;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	return __real_lbtfi_dw_pfuncs_load(ei, features);
}

/* This test program's own DWARF in pahole's style with its function rules
 * (as btfgen-pahole with the kernel's flags), at -j2; the FUNC count out */
static void convert_self(void **data, size_t *size, uint32_t *funcs)
{
	struct lbtf_dwarf_opts o = {
		.sz = sizeof(o), .jobs = 2, .style = LBTF_DWARF_STYLE_PAHOLE,
		.features = LBTF_DWARF_FEAT_LIST | LBTF_DWARF_FEAT_DEFAULT |
			    LBTF_DWARF_FEAT_OPTIMIZED_FUNC | LBTF_DWARF_FEAT_CONSISTENT_FUNC,
	};
	struct lbtf_builder *b = lbtf_dwarf_to_btf("/proc/self/exe", &o);
	struct lbtf *btf;

	if (!b)
		fail_msg("converting /proc/self/exe: %s", lbtf_errmsg());
	assert_int_equal(lbtf_builder_serialize(b, false, data, size), 0);
	lbtf_builder_free(b);
	btf = lbtf_new(*data, *size, NULL);
	assert_non_null(btf);
	*funcs = 0;
	for (uint32_t id = 1; id < lbtf_type_cnt(btf); id++)
		*funcs += lbtf_kind(lbtf_type_by_id(btf, id)) == LBTF_KIND_FUNC;
	lbtf_free(btf);
}

static void test_slow_table_same_output(void **state)
{
	void *prompt, *slow;
	size_t np, ns;
	uint32_t fp, fs;

	(void)state;
	delay_ms = 0;
	loads = 0;
	convert_self(&prompt, &np, &fp);
	assert_int_equal(loads, 1); /* (the wrapper is in the path) */
	assert_true(fp > 100);
	delay_ms = 400;
	convert_self(&slow, &ns, &fs);
	assert_int_equal(loads, 2);
	assert_int_equal(fs, fp);
	assert_int_equal(ns, np);
	assert_memory_equal(slow, prompt, np);
	free(prompt);
	free(slow);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_table_same_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
