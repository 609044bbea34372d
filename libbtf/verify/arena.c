// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's per-type work arrays (type records, kinds, pass 2's per-type
 * records, the good-identifier bits of the strings)
 * in one area sized from the header once, zeroed where it is read before
 * it is written. A vmlinux needs megabytes
 * of them: as separate heap blocks each fresh 4 KiB page costs a page
 * fault (hundreds of them, a large part of the command's time on a VM);
 * one area mapped 2 MiB aligned and advised onto transparent huge pages
 * takes a couple. The area is our own mapping, unmapped when done:
 * advising the caller's heap instead made its later allocations an order
 * of magnitude slower (libbpf's btf__new in the same process). Small BTF
 * (objects) stays on the heap, in a block kept for the thread's next
 * verify (util/keep.h): a command over many objects zeroes the same pages.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"
#include "util/keep.h"
#include "util/tls.h"

#define HUGE_SIZE (2u << 20)
#define MAP_FROM (1u << 20) /* below this, one heap block */

/* the heap block of the thread's last verify, for its next */
static LBTFI_TLS struct lbtfi_keep kept;

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

/*
 * Layout: kinds and the identifier bits, then the type table, then room for
 * pass 2's records (visit mark, resolved id and size) and its arg_ok bits.
 * Those are placed only when pass 1 has counted the types
 * (lbtfi_varena_pass2), right after
 * the part of the type table in use: the section's length gives only a
 * bound (12 bytes a record), twice the count for a vmlinux, and every huge
 * page the arrays touch is zeroed whole, so they are kept together.
 */
int lbtfi_varena_init(struct venv *env)
{
	size_t max = env->hdr.type_len / sizeof(struct lbtf_type) + 1;
	size_t ident = (env->hdr.str_len / 64 + 1) * sizeof(uint64_t);
	size_t off_ident, off_types, size;
	unsigned char *p;

	if (max > VMAX_TYPE)
		max = VMAX_TYPE;
	env->types_cap = max;
	off_ident = round8(max);
	off_types = off_ident + ident;
	/* the table, then pass 2's arrays for as many types (8-aligned) */
	size = off_types + round8(max * sizeof(*env->types)) + 8 + round8(max * sizeof(struct vres)) +
	       (max / 64 + 1) * sizeof(uint64_t);
	if (size < MAP_FROM) {
		p = lbtfi_keep_take(&kept, size, &env->arena_cap);
		if (!p)
			return -ENOMEM;
		/* only the identifier bits start zeroed: kinds and the type
		 * table are written before they are read (meta.c's add_type),
		 * pass 2's records are zeroed for the types counted
		 * (lbtfi_varena_pass2), not for the section's bound */
		memset(p + off_ident, 0, ident);
	} else {
		/* 2 MiB aligned inside a larger mapping, the rest unmapped */
		size_t len = (size + HUGE_SIZE - 1) & ~(size_t)(HUGE_SIZE - 1);
		unsigned char *m = mmap(NULL, len + HUGE_SIZE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t head;

		if (m == MAP_FAILED)
			return -ENOMEM;
		head = (HUGE_SIZE - ((uintptr_t)m & (HUGE_SIZE - 1))) & (HUGE_SIZE - 1);
		if (head)
			munmap(m, head);
		munmap(m + head + len, HUGE_SIZE - head);
		p = m + head;
		madvise(p, len, MADV_HUGEPAGE); /* advice: fine if refused */
		env->arena_len = len;
	}
	env->arena = p;
	env->kinds = p;
	env->ident_ok = (uint64_t *)(p + off_ident);
	env->types = (const struct lbtf_type **)(p + off_types);
	return 0;
}

/* After pass 1: pass 2's records, zeroed, after the nr_types entries used */
void lbtfi_varena_pass2(struct venv *env)
{
	unsigned char *p = (unsigned char *)(env->types + env->nr_types);
	size_t res_len = round8(env->nr_types * sizeof(struct vres));

	p += (8 - ((uintptr_t)p & 7)) & 7;
	env->res = (struct vres *)p;
	env->arg_ok = (uint64_t *)(p + res_len);
	/* a fresh mapping is zero already; a kept heap block holds the last
	 * verify's records */
	if (!env->arena_len)
		memset(p, 0, res_len + (env->nr_types / 64 + 1) * sizeof(uint64_t));
}

void lbtfi_varena_free(struct venv *env)
{
	if (env->arena_len)
		munmap(env->arena, env->arena_len);
	else
		lbtfi_keep_give(&kept, env->arena, env->arena_cap);
	env->arena = NULL;
}
