// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the bpftool-compatible JSON writer (shared by the BTF dumps
 * and the map printer): compact and pretty layout of nested and empty
 * scopes, escapes, integer extremes, and the literal-key shorthands giving
 * the same bytes as the general calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dump/json_writer.h"

/* Runs the same document through the writer; returns the text */
static char *write_doc(bool pretty, bool literal_keys)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	struct lbtfi_json w;

	lbtfi_json_init(&w, f, pretty);
	lbtfi_json_start_object(&w);
	if (literal_keys) {
		LBTFI_JSON_UINT_FIELD(&w, "u", UINT64_MAX);
		LBTFI_JSON_INT_FIELD(&w, "i", INT64_MIN);
		LBTFI_JSON_STRING_FIELD(&w, "s", "a\tb\nc\"d\\e'f\r\f\b");
		LBTFI_JSON_NAME(&w, "empty");
	} else {
		lbtfi_json_uint_field(&w, "u", UINT64_MAX);
		lbtfi_json_int_field(&w, "i", INT64_MIN);
		lbtfi_json_string_field(&w, "s", "a\tb\nc\"d\\e'f\r\f\b");
		lbtfi_json_name(&w, "empty");
	}
	lbtfi_json_start_array(&w);
	lbtfi_json_end_array(&w);
	lbtfi_json_name(&w, "arr");
	lbtfi_json_start_array(&w);
	lbtfi_json_uint(&w, 0);
	lbtfi_json_int(&w, -1);
	lbtfi_json_bool(&w, true);
	lbtfi_json_null(&w);
	lbtfi_json_start_object(&w);
	lbtfi_json_end_object(&w);
	lbtfi_json_start_object(&w);
	lbtfi_json_bool_field(&w, "b", false);
	lbtfi_json_end_object(&w);
	LBTFI_JSON_QUOTED_LIT(&w, "q");
	lbtfi_json_printf(&w, "0x%02x", 10);
	lbtfi_json_end_array(&w);
	lbtfi_json_end_object(&w);
	lbtfi_json_finish(&w);
	fclose(f);
	return s;
}

/* bpftool's layout for that document (bpftool 7.1 escapes: a backslash
 * becomes \n, the single quote stays) */
static const char compact[] =
	"{\"u\":18446744073709551615,\"i\":-9223372036854775808,"
	"\"s\":\"a\\tb\\nc\\\"d\\ne'f\\r\\f\\b\",\"empty\":[],"
	"\"arr\":[0,-1,true,null,{},{\"b\":false},\"q\",0x0a]}\n";

static const char pretty[] =
	"{\n"
	"    \"u\": 18446744073709551615,\n"
	"    \"i\": -9223372036854775808,\n"
	"    \"s\": \"a\\tb\\nc\\\"d\\ne'f\\r\\f\\b\",\n"
	"    \"empty\": [],\n"
	"    \"arr\": [0,-1,true,null,{},{\n"
	"            \"b\": false\n"
	"        },\"q\",0x0a\n"
	"    ]\n"
	"}\n";

static void test_compact(void **state)
{
	for (int lit = 0; lit < 2; lit++) {
		char *s = write_doc(false, lit);

		assert_string_equal(s, compact);
		free(s);
	}
}

static void test_pretty(void **state)
{
	for (int lit = 0; lit < 2; lit++) {
		char *s = write_doc(true, lit);

		assert_string_equal(s, pretty);
		free(s);
	}
}

/* Integers through the shared formatter, around every power of ten */
static void test_integers(void **state)
{
	char want[64];
	uint64_t p = 1;

	for (int i = 0; i < 20; i++, p *= 10) {
		uint64_t vals[] = { p - 1, p, p + 1 };

		for (int k = 0; k < 3; k++) {
			char *s = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&s, &n);

			flockfile(f);
			lbtfi_fput_u64(f, vals[k]);
			putc_unlocked(' ', f);
			lbtfi_fput_i64(f, -(int64_t)(vals[k] >> 1));
			funlockfile(f);
			fclose(f);
			snprintf(want, sizeof(want), "%llu %lld", (unsigned long long)vals[k],
				 -(long long)(vals[k] >> 1));
			assert_string_equal(s, want);
			free(s);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_integers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
