// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfcheck's heap (btfcheck/musl/heap.c, its malloc in the musl build),
 * tested here under the test's own libc by its own names: every block is
 * aligned and holds what was asked (and not far more), small blocks of
 * all sizes are carved next to each other, a freed block serves the next
 * request of its class, the last block grows in place, calloc zeroes a
 * block used before, a large block is a mapping that keeps its bytes when
 * it grows, and an aligned request is aligned.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../btfcheck/musl/heap.c"

static void test_sizes(void **state)
{
	(void)state;
	for (size_t n = 0; n <= SMALL_MAX + 4096; n += (n < 4096 ? 1 : 61)) {
		char *p = btfcheck_heap_alloc(n);
		size_t u = btfcheck_heap_usable(p);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % ALIGN, 0);
		assert_true(u >= n);
		/* classes four to a power of two: at most a quarter more */
		assert_true(u <= n + n / 4 + 2 * HDR || u <= 2 * HDR);
		memset(p, 0xa5, n);
		btfcheck_heap_free(p);
	}
}

static void test_dense_and_reused(void **state)
{
	char *a, *b, *c, *d;

	(void)state;
	a = btfcheck_heap_alloc(24);  /* a block of 48 */
	b = btfcheck_heap_alloc(200); /* another class */
	c = btfcheck_heap_alloc(24);
	assert_ptr_equal(b, a + 48);
	assert_ptr_equal(c, b + btfcheck_heap_usable(b) + HDR);
	btfcheck_heap_free(a);
	d = btfcheck_heap_alloc(20); /* same class as a: a's block */
	assert_ptr_equal(d, a);
	/* two freed of one class: both serve, the last freed first */
	btfcheck_heap_free(c);
	btfcheck_heap_free(d);
	assert_ptr_equal(btfcheck_heap_alloc(30), d);
	assert_ptr_equal(btfcheck_heap_alloc(17), c);
	btfcheck_heap_free(b);
	btfcheck_heap_free(c);
	btfcheck_heap_free(d);
}

static void test_grow(void **state)
{
	char *a, *b, *c;

	(void)state;
	a = btfcheck_heap_alloc(100);
	memset(a, 'a', 100);
	/* the last block carved: grows in place */
	b = btfcheck_heap_realloc(a, 3000);
	assert_ptr_equal(b, a);
	assert_true(btfcheck_heap_usable(b) >= 3000);
	for (int i = 0; i < 100; i++)
		assert_int_equal(b[i], 'a');
	/* not the last one any more: moved, its bytes with it */
	c = btfcheck_heap_alloc(10);
	memset(b, 'b', 3000);
	a = btfcheck_heap_realloc(b, 5000);
	assert_ptr_not_equal(a, b);
	for (int i = 0; i < 3000; i++)
		assert_int_equal(a[i], 'b');
	/* shrinking keeps the block */
	assert_ptr_equal(btfcheck_heap_realloc(a, 10), a);
	assert_non_null(b = btfcheck_heap_realloc(NULL, 7));
	btfcheck_heap_free(a);
	btfcheck_heap_free(b);
	btfcheck_heap_free(c);
	btfcheck_heap_free(NULL);
}

static void test_zeroed(void **state)
{
	char *a, *b;

	(void)state;
	a = btfcheck_heap_alloc(500);
	memset(a, 0xff, 500);
	btfcheck_heap_free(a);
	b = btfcheck_heap_calloc(10, 50); /* a's block again, zeroed */
	assert_ptr_equal(b, a);
	for (int i = 0; i < 500; i++)
		assert_int_equal(b[i], 0);
	btfcheck_heap_free(b);
	errno = 0;
	assert_null(btfcheck_heap_calloc(SIZE_MAX / 2, 3));
	assert_int_equal(errno, ENOMEM);
}

static void test_large(void **state)
{
	size_t n = SMALL_MAX * 2;
	char *p = btfcheck_heap_alloc(n), *q;

	(void)state;
	assert_non_null(p);
	assert_int_equal(hdr_of(p)->kind, MAPPED);
	for (size_t i = 0; i < n; i += 4093)
		p[i] = (char)i;
	q = btfcheck_heap_realloc(p, n * 8);
	assert_non_null(q);
	assert_true(btfcheck_heap_usable(q) >= n * 8);
	for (size_t i = 0; i < n; i += 4093)
		assert_int_equal(q[i], (char)i);
	q[n * 8 - 1] = 1;
	/* a mapping comes zeroed: calloc does not write it (its last page
	 * is not even resident), and it reads as zeros */
	p = btfcheck_heap_calloc(1, n);
	{
		char *last = (char *)((uintptr_t)(p + n - 1) & ~(uintptr_t)(PAGE - 1));
		unsigned char vec = 1;

		assert_int_equal(mincore(last, PAGE, &vec), 0);
		assert_int_equal(vec & 1, 0);
	}
	assert_int_equal(p[n - 1], 0);
	btfcheck_heap_free(q);
	btfcheck_heap_free(p);
	errno = 0;
	assert_null(btfcheck_heap_alloc(SIZE_MAX - 8));
	assert_int_equal(errno, ENOMEM);
}

static void test_aligned(void **state)
{
	size_t huge = (size_t)2 << 20;
	char *p, *q;

	(void)state;
	p = btfcheck_heap_aligned(huge, 3 * huge);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % huge, 0);
	assert_true(btfcheck_heap_usable(p) >= 3 * huge);
	memset(p, 1, 3 * huge);
	q = btfcheck_heap_realloc(p, 4 * huge); /* grows, keeps its bytes */
	assert_non_null(q);
	assert_int_equal(q[3 * huge - 1], 1);
	btfcheck_heap_free(q);
	p = btfcheck_heap_aligned(64, 100);
	assert_int_equal((uintptr_t)p % 64, 0);
	btfcheck_heap_free(p);
	p = btfcheck_heap_aligned(8, 100);
	assert_int_equal((uintptr_t)p % ALIGN, 0);
	btfcheck_heap_free(p);
	errno = 0;
	assert_null(btfcheck_heap_aligned(48, 100));
	assert_int_equal(errno, EINVAL);
}

/* each test on a heap of its own: no freed blocks, a region not begun
 * (the last test's region is left mapped) */
static int fresh_heap(void **state)
{
	(void)state;
	memset(&heap, 0, sizeof(heap));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sizes, fresh_heap),
		cmocka_unit_test_setup(test_dense_and_reused, fresh_heap),
		cmocka_unit_test_setup(test_grow, fresh_heap),
		cmocka_unit_test_setup(test_zeroed, fresh_heap),
		cmocka_unit_test_setup(test_large, fresh_heap),
		cmocka_unit_test_setup(test_aligned, fresh_heap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
