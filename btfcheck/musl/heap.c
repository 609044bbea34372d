// SPDX-License-Identifier: BSD-2-Clause
/*
 * A heap that keeps a short process on few pages.
 *
 * btfcheck OBJ is a fresh process per object in a CI gate. On a virtual
 * machine each page it touches for the first time costs a fault (~10-40 us
 * in the PVM guests this was measured on, more than the whole check of a
 * small object), and a munmap a TLB flush across CPUs. musl's malloc puts
 * each size class in a mapping of its own and gives emptied groups back to
 * the kernel: a check of the 13 objects of the build's gate took 41 faults
 * and 22 mmap/munmap/brk calls (34 and 5 with this heap; with no TLS block
 * either, 33 and 3, of which no anonymous mapping). Here blocks are
 * carved in address order from one region (1 MiB, touched only as it is
 * used), so the small blocks of all sizes share their pages, and a freed
 * block waits on a list of its size class for the next request of that
 * class, never going back to the kernel. A block over SMALL_MAX bytes is a
 * mapping of its own (mremap grows it without a copy). x86-64's 4 KiB pages
 * (the musl link is x86_64-linux-musl's).
 *
 * One thread only: there is no lock. btfcheck starts no thread
 * (tests/verify/check_btfcheck_heap.sh checks its link has no
 * pthread_create).
 */
#include "heap.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define ALIGN 16u                  /* what malloc promises */
#define HDR 16u                    /* a block's header, keeps ALIGN */
#define CHUNK ((size_t)1 << 20)    /* the bump region is grown by this */
#define SMALL_MAX ((size_t)256 << 10) /* larger blocks are mappings of their own */
#define PAGE ((size_t)4096)
/* block sizes 32, 48, 64, then four steps per power of two up to SMALL_MAX */
#define NCLASSES (3 + 4 * 12)

enum kind { SMALL = 1, MAPPED = 2 };

struct hdr {
	size_t size;  /* SMALL: the block's size; MAPPED: the mapping's length */
	size_t kind;  /* enum kind */
};

struct freed {
	struct freed *next;
};

/*
 * The first region is at the end of .bss: a common symbol, which the
 * linkers place after every .bss section. Its first blocks then share the
 * page of libc's data that the start writes anyway, and it costs no mmap
 * (btfcheck link.o: the heap's fresh pages 2 -> 1, one mmap fewer; the
 * total, 11-13 faults over 100 runs, moves with the text layout and the
 * stack's random offset). (Not static:
 * a common symbol has external linkage.)
 */
char btfcheck_heap_first[CHUNK] __attribute__((common, aligned(ALIGN)));

static struct {
	char *cur, *end;               /* the bump region's unused part */
	struct freed *lists[NCLASSES]; /* freed small blocks by class */
} heap;

/* the class of a block of at least s bytes (header included), its size in *size */
static unsigned int class_of(size_t s, size_t *size)
{
	unsigned int p, k;
	size_t step, r;

	if (s <= 64) {
		k = (unsigned int)((s + 15) / 16);
		if (k < 2)
			k = 2;
		*size = (size_t)k * 16;
		return k - 2;
	}
	p = 63u - (unsigned int)__builtin_clzl(s - 1); /* 2^p < s <= 2^(p+1) */
	step = (size_t)1 << (p - 2);
	r = (s + step - 1) & ~(step - 1);
	*size = r;
	return 3 + (p - 6) * 4 + (unsigned int)(r / step - 5);
}

static struct hdr *hdr_of(void *p)
{
	return (struct hdr *)((char *)p - HDR);
}

/* a MAPPED block's mapping starts at the page of its header */
static char *mapping_of(const struct hdr *h)
{
	return (char *)((uintptr_t)h & ~(uintptr_t)(PAGE - 1));
}

static size_t page_round(size_t n)
{
	return (n + PAGE - 1) & ~(PAGE - 1);
}

static void *map_block(size_t n)
{
	size_t len;
	struct hdr *h;

	if (n > SIZE_MAX - HDR - PAGE) {
		errno = ENOMEM;
		return NULL;
	}
	len = page_round(n + HDR);
	h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	h->size = len;
	h->kind = MAPPED;
	return h + 1;
}

void *btfcheck_heap_alloc(size_t n)
{
	size_t size;
	unsigned int c;
	struct hdr *h;

	if (n > SMALL_MAX - HDR)
		return map_block(n);
	c = class_of(n + HDR, &size);
	if (heap.lists[c]) {
		h = (struct hdr *)heap.lists[c] - 1;
		heap.lists[c] = heap.lists[c]->next;
		return h + 1;
	}
	if (!heap.end) {
		heap.cur = btfcheck_heap_first;
		heap.end = btfcheck_heap_first + CHUNK;
	}
	if ((size_t)(heap.end - heap.cur) < size) {
		/* (the old region's rest is left unused: at most SMALL_MAX of
		 * address space, never touched) */
		char *r = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (r == MAP_FAILED) {
			errno = ENOMEM;
			return NULL;
		}
		heap.cur = r;
		heap.end = r + CHUNK;
	}
	h = (struct hdr *)heap.cur;
	heap.cur += size;
	h->size = size;
	h->kind = SMALL;
	return h + 1;
}

void btfcheck_heap_free(void *p)
{
	struct hdr *h;
	size_t size;

	if (!p)
		return;
	h = hdr_of(p);
	if (h->kind == MAPPED) {
		munmap(mapping_of(h), h->size);
		return;
	}
	{
		unsigned int c = class_of(h->size, &size);
		struct freed *f = p;

		f->next = heap.lists[c];
		heap.lists[c] = f;
	}
}

size_t btfcheck_heap_usable(const void *p)
{
	const struct hdr *h;

	if (!p)
		return 0;
	h = (const struct hdr *)((const char *)p - HDR);
	if (h->kind == MAPPED)
		return h->size - (size_t)((const char *)p - mapping_of(h));
	return h->size - HDR;
}

void *btfcheck_heap_calloc(size_t count, size_t n)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(count, n, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	p = btfcheck_heap_alloc(bytes);
	/* a mapping comes zeroed; a small block may have been used before */
	if (p && hdr_of(p)->kind == SMALL)
		memset(p, 0, bytes);
	return p;
}

void *btfcheck_heap_realloc(void *p, size_t n)
{
	struct hdr *h;
	size_t have;
	void *q;

	if (!p)
		return btfcheck_heap_alloc(n);
	h = hdr_of(p);
	have = btfcheck_heap_usable(p);
	if (n <= have)
		return p;
	if (h->kind == MAPPED && n > SMALL_MAX - HDR && n <= SIZE_MAX / 2) {
		/* the mapping moves whole, the header at the same offset in it */
		char *m = mapping_of(h);
		size_t off = (size_t)((char *)p - m), len = page_round(off + n);
		char *r = mremap(m, h->size, len, MREMAP_MAYMOVE);

		if (r == MAP_FAILED) {
			errno = ENOMEM;
			return NULL;
		}
		h = hdr_of(r + off);
		h->size = len;
		return r + off;
	}
	if (h->kind == SMALL && (char *)h + h->size == heap.cur && n <= SMALL_MAX - HDR) {
		/* the last block carved grows where it is: no copy, and no
		 * fresh pages for one */
		size_t size;

		class_of(n + HDR, &size);
		if ((size_t)(heap.end - (char *)h) >= size) {
			heap.cur = (char *)h + size;
			h->size = size;
			return p;
		}
	}
	q = btfcheck_heap_alloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, have);
	btfcheck_heap_free(p);
	return q;
}

/*
 * Alignments over ALIGN are rare (a huge-page-aligned block of grow.c): the
 * block is a mapping with one page before the aligned start for its header.
 */
void *btfcheck_heap_aligned(size_t align, size_t n)
{
	size_t len, body;
	char *m, *p, *end;
	struct hdr *h;

	if (!align || (align & (align - 1))) {
		errno = EINVAL;
		return NULL;
	}
	if (align <= ALIGN)
		return btfcheck_heap_alloc(n);
	if (align < PAGE)
		align = PAGE;
	if (n > SIZE_MAX / 2 || align > SIZE_MAX / 4) {
		errno = ENOMEM;
		return NULL;
	}
	body = page_round(n);
	len = PAGE + body + align;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	p = (char *)(((uintptr_t)m + PAGE + align - 1) & ~(uintptr_t)(align - 1));
	end = p + body;
	/* (what lies before the header's page and after the body goes back) */
	if (p - PAGE > m)
		munmap(m, (size_t)(p - PAGE - m));
	if (end < m + len)
		munmap(end, (size_t)(m + len - end));
	h = hdr_of(p);
	h->size = PAGE + body;
	h->kind = MAPPED;
	return p;
}
