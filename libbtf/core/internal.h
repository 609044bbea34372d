/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal helpers shared by libbtf modules (not installed). */
#ifndef LIBBTF_INTERNAL_H
#define LIBBTF_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include "libbtf.h"
#include "util/err.h"
#include "util/grow.h"

struct lbtf {
	const struct lbtf *base;
	struct lbtf *owned_base;     /* base loaded by us (sysfs modules, kernel ids) */
	void *owned;                 /* malloc'ed copy of the blob (or NULL) */
	void *map;                   /* mmapped file (or NULL) */
	size_t map_len;
	const unsigned char *data;   /* the blob, host endian */
	size_t size;
	struct lbtf_header hdr;      /* host-endian copy of the header */
	const unsigned char *types;  /* start of the type section */
	const char *strs;            /* start of the string section */
	const struct lbtf_layout *layout; /* layout section (host endian) or NULL */
	uint32_t layout_cnt;         /* its entries */
	uint32_t *type_offs;         /* type_offs[i]: offset in types of id start_id+i */
	uint32_t nr_types;           /* types in this object (not counting base, void) */
	uint32_t start_id;           /* first id of this object */
	uint32_t start_str_off;      /* first string offset of this object */
	uint32_t name_order;         /* 0 not checked yet, 1 not sorted by name, else
				      * 1 + the first named id (access.c) */
	bool swapped;
	int ptr_size;
	/* what other modules derive from this object alone (derived.c) */
	pthread_mutex_t derived_mu;
	struct lbtfi_derived *derived;
};

/*
 * Data derived from btf alone that another module keeps on the object, for
 * every user of it, freed with it by lbtf_free: the index of its strings
 * (builder/strtab.c), dedup's candidate table of its types. One per key
 * (the address of a static of the module); made once by make(ctx) under
 * the object's lock, read-only after, freed by drop(). NULL when make
 * returns NULL (out of memory).
 */
const void *lbtfi_derived_get(const struct lbtf *btf, const void *key, void *(*make)(void *ctx),
			      void *ctx, void (*drop)(void *));
/* Drops them all (lbtf_free) */
void lbtfi_derived_free(struct lbtf *btf);


/* Parse an mmapped blob, taking over the mapping (unmapped by lbtf_free). */
struct lbtf *lbtfi_new_mapped(void *map, size_t size, const struct lbtf *base);

/* The .BTF section of the ELF image buf (in place, as stored); errors name path. */
int lbtfi_elf_btf_section(const char *path, const void *buf, size_t len,
			  const void **sec, size_t *sec_len, int *ptr_size);

static inline uint32_t lbtf_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint16_t lbtf_bswap16(uint16_t v) { return __builtin_bswap16(v); }

/* Byte order of a BTF blob: the header's fields, and the type section,
 * where every field of every record is a 32-bit word. Both swap in place
 * and are their own inverse (used to read and to write foreign order). */
void lbtfi_swap_header(struct lbtf_header *h);
/*
 * The header at data (size >= LBTF_HDR_LEN_V1 bytes, a BTF magic of either
 * order) into h in host order, as far as its hdr_len and size reach: the
 * fields past them read 0, as libbpf and the kernel read a shorter header.
 * Returns whether it is of the other byte order.
 */
bool lbtfi_header_read(struct lbtf_header *h, const void *data, size_t size);
/* The layout that sizes btf's unknown kinds (its own, else its base's). */
const struct lbtf_layout *lbtfi_layout_for(const struct lbtf *btf, uint32_t *cnt);
/* How many bytes of h a blob's header holds (h->hdr_len, at most sizeof). */
static inline size_t lbtfi_header_bytes(const struct lbtf_header *h)
{
	return h->hdr_len < sizeof(*h) ? h->hdr_len : sizeof(*h);
}
void lbtfi_swap_type_words(void *types, size_t len);

/*
 * The options convention (libbpf's): every options or result struct starts
 * with size_t sz, the size of the struct the caller was built with.
 * lbtfi_opts_copy() turns a caller's options (NULL: all defaults) into a
 * whole struct of this library's size: sz 0 is an error, a shorter struct
 * leaves the newer fields 0, and bytes past what this library knows must be
 * zero (an option it cannot honour). name is the type, for the message.
 */
int lbtfi_opts_copy(void *dst, size_t dst_size, const void *src, const char *name);
#define LBTFI_OPTS_COPY(dst, src, type) lbtfi_opts_copy(dst, sizeof(*(dst)), src, #type)
/*
 * Results go the other way: the library fills a whole struct of its own and
 * lbtfi_result_copy() writes only the caller's sz bytes of it (sz kept), so a
 * newer library never writes past an older caller's struct. dst may be NULL.
 * lbtfi_result_check() refuses a result struct whose sz is 0 before any work.
 */
void lbtfi_result_copy(void *dst, const void *src, size_t src_size);
int lbtfi_result_check(const void *dst, const char *name);
/* Whether a caller's result struct of size sz has room for field. */
#define LBTFI_RESULT_HAS(res, field)                                                   \
	((res) && (res)->sz >= offsetof(__typeof__(*(res)), field) + sizeof((res)->field))

#endif
