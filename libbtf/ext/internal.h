/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal interface of the .BTF.ext module (ext/ files). */
#ifndef LIBBTF_EXT_INTERNAL_H
#define LIBBTF_EXT_INTERNAL_H

#include "core/internal.h"
#include "libbtf_ext.h"

#define LBTFI_EXT_HDR_MIN 24u  /* header without the CO-RE words */
#define LBTFI_EXT_HDR_CORE 32u /* header with them */

/* One section of one kind: where its records start in the copied bytes */
struct lbtfi_ext_sec {
	uint32_t name_off;
	uint32_t rec_cnt;
	uint32_t rec_off; /* offset of record 0 in ext->data */
	uint32_t name_pos; /* offset of the sec_name_off word in ext->data */
};

struct lbtfi_ext_kind {
	uint32_t rec_size;
	uint32_t sec_cnt;
	struct lbtfi_ext_sec *secs;
};

struct lbtf_ext {
	unsigned char *data; /* the bytes as given (file byte order) */
	size_t size;
	bool swapped;
	uint32_t hdr_len;
	struct lbtfi_ext_kind kinds[LBTF_EXT_KIND_CNT];
};

/* Word at offset off of the bytes, in host order */
uint32_t lbtfi_ext_word(const struct lbtf_ext *ext, size_t off);
/* Store a host-order word at offset off in the file's order */
void lbtfi_ext_set_word(struct lbtf_ext *ext, size_t off, uint32_t v);
/* Minimum record size of a kind */
uint32_t lbtfi_ext_min_rec(enum lbtf_ext_kind kind);

/* Old type ids (of the .BTF a .BTF.ext was made with) to new ones (typemap.c) */
struct lbtfi_typemap {
	const struct lbtf *old, *new;
	uint32_t *map; /* map[old id]: new id, UINT32_MAX not yet known */
	uint32_t copied; /* types copied over from old */
};

int lbtfi_typemap_init(struct lbtfi_typemap *m, const struct lbtf *old, const struct lbtf *new);
void lbtfi_typemap_free(struct lbtfi_typemap *m);
/* The new id of an old type, or a negative errno (lbtf_errmsg() names it) */
int lbtfi_typemap_get(struct lbtfi_typemap *m, uint32_t old_id);
/* The same, copying an old type that has no counterpart (-ENOENT) into b
 * (whose types m->new must then be re-read from) */
int lbtfi_typemap_get_or_copy(struct lbtfi_typemap *m, struct lbtf_builder *b, uint32_t old_id);
/* Map onto new from now on (b's types read back after copies); what had no
 * counterpart is looked up again, what was found or copied stays */
void lbtfi_typemap_set_new(struct lbtfi_typemap *m, const struct lbtf *new);
const char *lbtfi_typemap_desc(const struct lbtfi_typemap *m, uint32_t id, char *buf, size_t n);

#endif
