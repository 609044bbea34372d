// SPDX-License-Identifier: BSD-2-Clause
/*
 * The words of an errno value (libbtf/io/errno_words.c, its table made of
 * glibc's at build time): lbtfi_strerror and lbtfi_errno_ident say what
 * glibc's strerror and strerrorname_np say, for every value glibc names and
 * past them, negative ones too; lbtf_errno_name names them as glibc does.
 * A program linked with musl (btfcheck) prints these words, so a wrong or
 * stale table would change its messages: this is where that shows.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf_verify.h"
#include "io/io.h"

static void texts_are_glibcs(void **state)
{
	int n = 0;

	for (int e = -3; e <= 300; e++) {
		char want[256];

		/* strerror's buffer for an unknown value is reused: copy it */
		snprintf(want, sizeof(want), "%s", strerror(e));
		if (strcmp(lbtfi_strerror(e), want))
			fail_msg("errno %d: '%s', glibc '%s'", e, lbtfi_strerror(e), want);
		n++;
	}
	assert_string_equal(lbtfi_strerror(100000), strerror(100000));
	assert_int_equal(n, 304);
}

static void names_are_glibcs(void **state)
{
	int named = 0;

	for (int e = -3; e <= 300; e++) {
		const char *want = strerrorname_np(e), *got = lbtfi_errno_ident(e);

		if (!want != !got || (want && strcmp(want, got)))
			fail_msg("errno %d: %s, glibc %s", e, got ? got : "NULL", want ? want : "NULL");
		named += !!want;
		/* the API's name: glibc's, where glibc has one (its own extras aside) */
		if (want && e > 0)
			assert_string_equal(lbtf_errno_name(e), want);
	}
	assert_true(named > 100);
	assert_string_equal(lbtfi_errno_ident(EIO), "EIO");
	assert_string_equal(lbtfi_strerror(ELOOP), "Too many levels of symbolic links");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(texts_are_glibcs),
		cmocka_unit_test(names_are_glibcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
