// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_object_btf() with opts.in_place: the fixups are made in the
 * caller's image, res->data is its .BTF (res->in_elf), and the BTF is the
 * same, byte for byte, as the copy a call without in_place gives; nothing
 * else of the image changes. Not in place: a .BTF that is not 4-byte
 * aligned in memory, a caller whose result struct has no room for in_elf,
 * an object whose BTF grows (a type added). lbtf_object_btf_free() frees
 * a copy and leaves the image alone (AddressSanitizer, make SAN=1, would
 * report a free of the image).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <elf.h>
#include "libbtf.h"
#include "libbtf_object.h"

struct image {
	unsigned char *buf; /* the allocation */
	unsigned char *p;   /* the file's bytes (buf) */
	size_t size;
};

/* $B/rel read into a fresh aligned buffer; misalign: with its .BTF moved
 * to the end of the image at 2 bytes past a multiple of 4 (its section
 * header pointing there), the rest as it was */
static struct image load(const char *rel, bool misalign)
{
	const char *bdir = getenv("B") ? getenv("B") : "build";
	char path[512];
	struct image im = { 0 };
	FILE *f;
	long n = 0;

	snprintf(path, sizeof(path), "%s/%s", bdir, rel);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open (build first)", path);
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		fail_msg("%s: cannot size", path);
	im.size = (size_t)n;
	im.buf = aligned_alloc(16, (2 * im.size + 16 + 15) & ~(size_t)15);
	assert_non_null(im.buf);
	im.p = im.buf;
	if (fread(im.p, 1, im.size, f) != im.size)
		fail_msg("%s: short read", path);
	fclose(f);
	if (misalign) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)im.p;
		Elf64_Shdr *sh = (Elf64_Shdr *)(im.p + eh->e_shoff);
		const char *names = (const char *)im.p + sh[eh->e_shstrndx].sh_offset;
		size_t at = ((im.size + 7) & ~(size_t)7) + 2;
		Elf64_Half i;

		for (i = 0; i < eh->e_shnum && strcmp(names + sh[i].sh_name, ".BTF"); i++)
			;
		if (i == eh->e_shnum)
			fail_msg("%s: no .BTF", path);
		memmove(im.p + at, im.p + sh[i].sh_offset, sh[i].sh_size);
		sh[i].sh_offset = at;
		im.size = at + sh[i].sh_size;
	}
	return im;
}

static bool inside(const struct image *im, const void *p)
{
	return (const unsigned char *)p >= im->p && (const unsigned char *)p < im->p + im->size;
}

/* The BTF of rel without in_place (a copy) and with it, compared; whether
 * the second was in place (*in_elf) */
static void compare(const char *rel, bool misalign, size_t res_sz, bool *in_elf)
{
	LBTF_OPTS(lbtf_object_opts, in, .in_place = true);
	struct lbtf_object_btf copy = { .sz = sizeof(copy) };
	struct lbtf_object_btf got = { .sz = sizeof(got) };
	struct image im = load(rel, misalign);
	unsigned char *orig = malloc(im.size);

	assert_non_null(orig);
	memcpy(orig, im.p, im.size);
	assert_int_equal(lbtf_object_btf(rel, im.p, im.size, NULL, &copy), 0);
	assert_false(copy.in_elf);
	assert_false(inside(&im, copy.data));
	assert_memory_equal(im.p, orig, im.size); /* not written without in_place */
	got.sz = res_sz;
	assert_int_equal(lbtf_object_btf(rel, im.p, im.size, &in, &got), 0);
	*in_elf = res_sz > offsetof(struct lbtf_object_btf, in_elf) && got.in_elf;
	assert_int_equal(got.size, copy.size);
	assert_memory_equal(got.data, copy.data, copy.size);
	assert_int_equal(got.fixups, copy.fixups);
	if (*in_elf) {
		const unsigned char *d = got.data;

		assert_true(inside(&im, d) && inside(&im, d + got.size - 1));
		/* only the .BTF's bytes may differ from the file's */
		assert_memory_equal(im.p, orig, (size_t)(d - im.p));
		assert_memory_equal(d + got.size, orig + (d - im.p) + got.size,
				    im.size - (size_t)(d - im.p) - got.size);
	} else {
		assert_false(inside(&im, got.data));
		assert_memory_equal(im.p, orig, im.size);
	}
	lbtf_object_btf_free(&got);
	assert_null(got.data);
	if (res_sz > offsetof(struct lbtf_object_btf, in_elf))
		assert_false(got.in_elf);
	lbtf_object_btf_free(&copy);
	free(orig);
	free(im.buf);
}

static void test_in_place(void **state)
{
	static const char *const objs[] = { "corpus/maps_tc.bpf.o", "corpus/link.o",
					    "bpf/bpf_flow.o" };
	bool in_elf;

	(void)state;
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		compare(objs[i], false, sizeof(struct lbtf_object_btf), &in_elf);
		if (!in_elf)
			fail_msg("%s: not in place", objs[i]);
	}
}

/* a .BTF 2 bytes past a multiple of 4 (clang aligns it; another writer
 * need not): its records would be misaligned, so a copy is made */
static void test_misaligned(void **state)
{
	bool in_elf;

	(void)state;
	compare("corpus/maps_tc.bpf.o", true, sizeof(struct lbtf_object_btf), &in_elf);
	assert_false(in_elf);
}

/* a caller built before in_elf cannot be told: a copy */
static void test_old_result(void **state)
{
	bool in_elf;

	(void)state;
	compare("corpus/maps_tc.bpf.o", false, offsetof(struct lbtf_object_btf, in_elf), &in_elf);
	assert_false(in_elf);
}

/* a kfunc extern: libbpf adds a VAR for it (dummy_ksym), the BTF grows
 * into buffers of its own */
static void test_grown(void **state)
{
	bool in_elf;

	(void)state;
	compare("corpus/ringbuf_kfunc.bpf.o", false, sizeof(struct lbtf_object_btf), &in_elf);
	assert_false(in_elf);
}

/* the image at any address (a caller's buffer need not be aligned): the
 * same BTF as from an aligned one; UndefinedBehaviorSanitizer (make SAN=1)
 * names any read of the ELF through a misaligned struct pointer */
static void test_any_address(void **state)
{
	static const char *const objs[] = { "corpus/maps_tc.bpf.o", "bpf/bpf_flow.o" };

	(void)state;
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		struct image im = load(objs[i], false);
		struct lbtf_object_btf want = { .sz = sizeof(want) };
		unsigned char *odd = malloc(im.size + 8);

		assert_non_null(odd);
		assert_int_equal(lbtf_object_btf(objs[i], im.p, im.size, NULL, &want), 0);
		for (size_t shift = 1; shift < 8; shift++) {
			struct lbtf_object_btf got = { .sz = sizeof(got) };

			memcpy(odd + shift, im.p, im.size);
			assert_true(lbtf_is_bpf_object(odd + shift, im.size));
			assert_int_equal(lbtf_object_btf(objs[i], odd + shift, im.size, NULL, &got), 0);
			assert_int_equal(got.size, want.size);
			assert_memory_equal(got.data, want.data, want.size);
			lbtf_object_btf_free(&got);
		}
		lbtf_object_btf_free(&want);
		free(odd);
		free(im.buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_place),
		cmocka_unit_test(test_misaligned),
		cmocka_unit_test(test_old_result),
		cmocka_unit_test(test_grown),
		cmocka_unit_test(test_any_address),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
