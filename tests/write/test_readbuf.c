// SPDX-License-Identifier: BSD-2-Clause
/*
 * io's reusable read buffer (lbtfi_file_load_reuse): a regular file of
 * map_from bytes and more is mapped, a smaller one read into the buffer;
 * after max_maps mappings the rest are read (btfcheck leaves its mappings
 * to exit and bounds how many it leaves). Each load gives the file's bytes
 * whichever way it went. A buffer grows with room for the next files,
 * except for the last one (exactly its size).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "libbtf.h"
#include "io/io.h"

#define SMALL 1000
#define LARGE (64u << 10)

static char dir[] = "/tmp/test_readbuf.XXXXXX";

/* dir/name of size bytes, each byte (i * 7 + seed) */
static void make_file(const char *name, size_t size, unsigned char seed, char *path)
{
	unsigned char *p = malloc(size);
	FILE *f;

	assert_non_null(p);
	for (size_t i = 0; i < size; i++)
		p[i] = (unsigned char)(i * 7 + seed);
	snprintf(path, 256, "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	free(p);
}

/* Loads path through rb: its bytes whichever way; returns whether mapped */
static bool load_check(struct lbtfi_readbuf *rb, const char *path, size_t size, unsigned char seed)
{
	void *data;
	size_t n;
	bool mapped;

	assert_int_equal(lbtfi_file_load_reuse(path, rb, &data, &n, &mapped), 0);
	assert_int_equal(n, size);
	for (size_t i = 0; i < size; i++)
		assert_int_equal(((unsigned char *)data)[i], (unsigned char)(i * 7 + seed));
	if (mapped)
		assert_int_equal(munmap(data, n), 0);
	else
		assert_ptr_equal(data, rb->data); /* read into the buffer */
	return mapped;
}

static void maps_bounded(void **state)
{
	struct lbtfi_readbuf rb = { .map_from = 32u << 10, .max_maps = 2 };
	char large[3][256], small[256];

	(void)state;
	for (int i = 0; i < 3; i++) {
		char name[16];

		snprintf(name, sizeof(name), "large%d", i);
		make_file(name, LARGE, (unsigned char)i, large[i]);
	}
	make_file("small", SMALL, 9, small);
	assert_false(load_check(&rb, small, SMALL, 9));
	assert_true(load_check(&rb, large[0], LARGE, 0));
	assert_false(load_check(&rb, small, SMALL, 9)); /* (not counted) */
	assert_true(load_check(&rb, large[1], LARGE, 1));
	assert_int_equal(rb.nmaps, 2);
	/* the bound reached: read, even though large */
	assert_false(load_check(&rb, large[2], LARGE, 2));
	assert_false(load_check(&rb, large[0], LARGE, 0));
	assert_int_equal(rb.nmaps, 2);
	lbtfi_readbuf_free(&rb);

	/* 0: no bound */
	struct lbtfi_readbuf any = { .map_from = 32u << 10 };

	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 3; i++)
			assert_true(load_check(&any, large[i], LARGE, (unsigned char)i));
	assert_int_equal(any.nmaps, 6);
	lbtfi_readbuf_free(&any);

	for (int i = 0; i < 3; i++)
		unlink(large[i]);
	unlink(small);
}

/* map_from SIZE_MAX: never mapped; 0: io's own threshold (256 KiB) */
static void map_from_bounds(void **state)
{
	struct lbtfi_readbuf never = { .map_from = SIZE_MAX }, dflt = { 0 };
	char large[256], huge[256];

	(void)state;
	make_file("large", LARGE, 3, large);
	make_file("huge", 300u << 10, 4, huge);
	assert_false(load_check(&never, huge, 300u << 10, 4));
	assert_false(load_check(&dflt, large, LARGE, 3));
	assert_true(load_check(&dflt, huge, 300u << 10, 4));
	lbtfi_readbuf_free(&never);
	lbtfi_readbuf_free(&dflt);
	unlink(large);
	unlink(huge);
}

/* room for the next files, or (last) the file's size and its end's byte */
static void last_exact(void **state)
{
	struct lbtfi_readbuf many = { 0 }, last = { .last = true };
	char small[256], other[256];

	(void)state;
	make_file("small", SMALL, 5, small);
	make_file("other", SMALL / 2, 6, other);
	assert_false(load_check(&many, small, SMALL, 5));
	assert_true(many.cap >= (64u << 10));
	assert_false(load_check(&last, small, SMALL, 5));
	assert_int_equal(last.cap, SMALL + 1);
	/* (a smaller one after it: the same buffer) */
	{
		void *was = last.data;

		assert_false(load_check(&last, other, SMALL / 2, 6));
		assert_ptr_equal(last.data, was);
	}
	lbtfi_readbuf_free(&many);
	lbtfi_readbuf_free(&last);
	unlink(small);
	unlink(other);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_bounded),
		cmocka_unit_test(map_from_bounds),
		cmocka_unit_test(last_exact),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
