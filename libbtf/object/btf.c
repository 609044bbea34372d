// SPDX-License-Identifier: BSD-2-Clause
/*
 * The object's BTF as libbpf 1.1's btf__new() takes it (the same header,
 * string and type checks, the same errors), kept mutable: fixups write the
 * records in place; adding a type or string switches to own buffers and
 * the canonical layout, as libbpf's btf_ensure_modifiable() does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/keep.h"
#include "util/tls.h"

#define MAX_STR_OFFSET 0x7fffffffu
#define RESOLVE_DEPTH 32

/*
 * The blocks of .BTF's copy and of its type offsets, kept for the thread's
 * next object (util/keep.h); the copy handed out last (to be given back by
 * lbtf_object_btf_free) and its block's size
 */
static LBTFI_TLS struct lbtfi_keep kept_raw, kept_offs;
static LBTFI_TLS struct lbtfi_keep handed;

/* lbtf_type_rec_size(t) from the kind table's rows looked up once per
 * walk (desc[kind], NULL for LBTF_KIND_UNKN): the walk sizes every record
 * of .BTF, two calls a record otherwise */
static size_t rec_size(const struct lbtf_kind_desc *const *desc, const struct lbtf_type *t)
{
	unsigned int k = lbtf_kind(t);
	const struct lbtf_kind_desc *d = k <= LBTF_KIND_MAX ? desc[k] : NULL;

	return d ? sizeof(*t) + d->extra_size + (size_t)d->vlen_elem_size * lbtf_vlen(t) : 0;
}

/* DATASEC id appended to b->dsecs; -ENOMEM */
static int note_datasec(struct obtf *b, uint32_t id)
{
	if (!b->dsecs) {
		b->dsecs = b->dsecs_here;
		b->dsecs_cap = sizeof(b->dsecs_here) / sizeof(b->dsecs_here[0]);
	}
	if (b->nr_dsecs == b->dsecs_cap) {
		uint32_t *d = malloc(b->dsecs_cap * 2 * sizeof(*d));

		if (!d)
			return -ENOMEM;
		memcpy(d, b->dsecs, b->nr_dsecs * sizeof(*d));
		if (b->dsecs != b->dsecs_here)
			free(b->dsecs);
		b->dsecs = d;
		b->dsecs_cap *= 2;
	}
	b->dsecs[b->nr_dsecs++] = id;
	return 0;
}

int lbtfi_obj_btf_init(struct obtf *b, const char *path, const void *data, size_t size,
		       bool in_place)
{
	struct lbtf_header hdr;
	const struct lbtf_header *h = &hdr;
	const struct lbtf_kind_desc *desc[LBTF_NR_KINDS];
	size_t off = 0;

	memset(b, 0, sizeof(*b));
	for (unsigned int k = 0; k < LBTF_NR_KINDS; k++)
		desc[k] = k == LBTF_KIND_UNKN ? NULL : lbtf_kind_desc(k);
	/* libbpf 1.1's header: up to str_len */
	if (size < LBTF_HDR_LEN_V1)
		return lbtfi_err(EINVAL, "%s: .BTF: header not found", path);
	memset(&hdr, 0, sizeof(hdr));
	memcpy(&hdr, data, LBTF_HDR_LEN_V1); /* .BTF may sit anywhere in the file */
	if (h->magic == lbtf_bswap16(LBTF_MAGIC))
		return lbtfi_err(ENOTSUP, "%s: .BTF: the other byte order (libbpf refuses the object)", path);
	if (h->magic != LBTF_MAGIC)
		return lbtfi_err(EINVAL, "%s: .BTF: invalid magic %#x", path, h->magic);
	if (size < h->hdr_len || h->hdr_len < LBTF_HDR_LEN_V1)
		return lbtfi_err(EINVAL, "%s: .BTF: header length %u does not fit", path, h->hdr_len);
	if (size - h->hdr_len < (uint64_t)h->str_off + h->str_len)
		return lbtfi_err(EINVAL, "%s: .BTF: invalid total size %zu", path, size);
	if ((uint64_t)h->type_off + h->type_len > h->str_off)
		return lbtfi_err(EINVAL, "%s: .BTF: types overlap strings", path);
	if (h->type_off % 4)
		return lbtfi_err(EINVAL, "%s: .BTF: type section not 4-byte aligned", path);
	/* (libbpf reads such records unaligned; we refuse them) */
	if (h->hdr_len % 4)
		return lbtfi_err(EINVAL, "%s: .BTF: header length %u not a multiple of 4", path,
				 h->hdr_len);
	if (in_place && !((uintptr_t)data & 3)) {
		/* (the records are read as 32-bit words, hence the alignment;
		 * the caller allowed the writes: data lies in its elf) */
		b->raw = (unsigned char *)(uintptr_t)data;
		b->in_place = true;
	} else {
		b->raw = lbtfi_keep_take(&kept_raw, size, &b->raw_cap);
		if (!b->raw)
			return lbtfi_err(ENOMEM, "%s: out of memory", path);
		memcpy(b->raw, data, size);
	}
	b->raw_size = size;
	b->hdr = *h;
	b->types = b->raw + h->hdr_len + h->type_off;
	b->types_len = h->type_len;
	b->strs = (char *)b->raw + h->hdr_len + h->str_off;
	b->strs_len = h->str_len;
	if (!b->strs_len || b->strs_len - 1 > MAX_STR_OFFSET || b->strs[b->strs_len - 1] ||
	    b->strs[0])
		return lbtfi_err(EINVAL, "%s: .BTF: invalid string section", path);
	/* room for as many types as the section can hold (12 bytes the
	 * least record), so the walk below never grows the array */
	b->offs = lbtfi_keep_take(&kept_offs, (b->types_len / sizeof(struct lbtf_type) + 1) *
					      sizeof(*b->offs), &b->offs_cap);
	if (!b->offs)
		return lbtfi_err(ENOMEM, "%s: out of memory", path);
	b->offs_cap /= sizeof(*b->offs);
	while (off + sizeof(struct lbtf_type) <= b->types_len) {
		size_t rec = rec_size(desc, (const struct lbtf_type *)(b->types + off));

		if (!rec)
			return lbtfi_err(EINVAL, "%s: .BTF: unsupported kind %u", path,
					 lbtf_kind((const struct lbtf_type *)(b->types + off)));
		if (rec > b->types_len - off)
			return lbtfi_err(EINVAL, "%s: .BTF: type [%u] is malformed", path, b->nr + 1);
		b->offs[b->nr++] = off; /* room: see above */
		if (lbtf_kind((const struct lbtf_type *)(b->types + off)) == LBTF_KIND_DATASEC &&
		    note_datasec(b, b->nr))
			return lbtfi_err(ENOMEM, "%s: out of memory", path);
		off += rec;
	}
	if (off != b->types_len)
		return lbtfi_err(EINVAL, "%s: .BTF: types data is malformed", path);
	return 0;
}

void lbtfi_obj_btf_free(struct obtf *b)
{
	if (b->grown) {
		free(b->types);
		free(b->strs);
	}
	if (!b->in_place)
		lbtfi_keep_give(&kept_raw, b->raw, b->raw_cap);
	lbtfi_keep_give(&kept_offs, b->offs, b->offs_cap * sizeof(*b->offs));
	if (b->dsecs != b->dsecs_here)
		free(b->dsecs);
	memset(b, 0, sizeof(*b));
}

struct lbtf_type *lbtfi_obj_btf_void(void)
{
	static LBTFI_TLS struct lbtf_type void_type;

	memset(&void_type, 0, sizeof(void_type));
	return &void_type;
}

char *lbtfi_obj_btf_str(const struct obtf *b, uint32_t off)
{
	return off < b->strs_len ? b->strs + off : NULL;
}

/* From here on, own buffers: the raw copy keeps only the header. */
static int grow(struct obtf *b)
{
	unsigned char *t;
	char *s;

	if (b->grown)
		return 0;
	t = malloc(b->types_len + 64);
	s = malloc(b->strs_len + 64);
	if (!t || !s) {
		free(t);
		free(s);
		return lbtfi_err(ENOMEM, "out of memory");
	}
	memcpy(t, b->types, b->types_len);
	memcpy(s, b->strs, b->strs_len);
	b->types = t;
	b->types_cap = b->types_len + 64;
	b->strs = s;
	b->strs_cap = b->strs_len + 64;
	b->grown = true;
	return 0;
}

/* An existing string is reused (its first copy), as libbpf's string set does. */
int lbtfi_obj_btf_add_str(struct obtf *b, const char *s, uint32_t *off)
{
	size_t n = strlen(s) + 1;
	int err;

	for (size_t i = 0; i < b->strs_len; i += strlen(b->strs + i) + 1) {
		if (!strcmp(b->strs + i, s)) {
			*off = i;
			return 0;
		}
	}
	if ((err = grow(b)))
		return err;
	if (LBTFI_GROW(b->strs, b->strs_cap, b->strs_len + n))
		return lbtfi_err(ENOMEM, "out of memory");
	memcpy(b->strs + b->strs_len, s, n);
	*off = b->strs_len;
	b->strs_len += n;
	return 0;
}

int lbtfi_obj_btf_add_type(struct obtf *b, const void *rec, size_t len, uint32_t *id)
{
	int err;

	if ((err = grow(b)))
		return err;
	if (LBTFI_GROW(b->types, b->types_cap, b->types_len + len) ||
	    LBTFI_GROW(b->offs, b->offs_cap, (size_t)b->nr + 1))
		return lbtfi_err(ENOMEM, "out of memory");
	memcpy(b->types + b->types_len, rec, len);
	b->offs[b->nr++] = b->types_len;
	b->types_len += len;
	*id = b->nr;
	if (lbtf_kind(rec) == LBTF_KIND_DATASEC && note_datasec(b, b->nr))
		return lbtfi_err(ENOMEM, "out of memory");
	return 0;
}

/* libbpf's btf__resolve_size() with 8-byte pointers */
int lbtfi_obj_btf_resolve_size(const struct obtf *b, uint32_t id, int64_t *size)
{
	uint64_t nelems = 1;

	for (int depth = 0; depth < RESOLVE_DEPTH; depth++) {
		const struct lbtf_type *t = lbtfi_obj_btf_type(b, id);

		if (!t)
			return -EINVAL;
		switch (lbtf_kind(t)) {
		case LBTF_KIND_INT: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_DATASEC:
		case LBTF_KIND_FLOAT:
			*size = (int64_t)(nelems * t->size);
			return nelems * t->size > INT32_MAX ? -E2BIG : 0;
		case LBTF_KIND_PTR:
			*size = (int64_t)(nelems * 8);
			return 0;
		case LBTF_KIND_TYPEDEF: case LBTF_KIND_VOLATILE: case LBTF_KIND_CONST:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_VAR: case LBTF_KIND_DECL_TAG:
		case LBTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case LBTF_KIND_ARRAY:
			if (nelems && lbtf_array(t)->nelems > UINT32_MAX / nelems)
				return -E2BIG;
			nelems *= lbtf_array(t)->nelems;
			id = lbtf_array(t)->type;
			break;
		default:
			return -EINVAL;
		}
	}
	return -EINVAL;
}

/* libbpf's btf__align_of() with 8-byte pointers */
int lbtfi_obj_btf_align_of(const struct obtf *b, uint32_t id)
{
	const struct lbtf_type *t = lbtfi_obj_btf_type(b, id);
	int max = 1;

	if (!t)
		return -EINVAL;
	switch (lbtf_kind(t)) {
	case LBTF_KIND_INT: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_FLOAT:
		return t->size < 8 ? (int)t->size : 8;
	case LBTF_KIND_PTR:
		return 8;
	case LBTF_KIND_TYPEDEF: case LBTF_KIND_VOLATILE: case LBTF_KIND_CONST:
	case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
		return lbtfi_obj_btf_align_of(b, t->type);
	case LBTF_KIND_ARRAY:
		return lbtfi_obj_btf_align_of(b, lbtf_array(t)->type);
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			int a = lbtfi_obj_btf_align_of(b, lbtf_members(t)[i].type);

			if (a <= 0)
				return a;
			if (a > max)
				max = a;
		}
		return max;
	default:
		return -EINVAL;
	}
}

/* The first INT of 32 bits (libbpf's find_int_btf_id), 0 if none */
uint32_t lbtfi_obj_btf_find_int32(const struct obtf *b)
{
	for (uint32_t id = 1; id <= b->nr; id++) {
		const struct lbtf_type *t = lbtfi_obj_btf_type(b, id);

		if (lbtf_kind(t) == LBTF_KIND_INT && lbtf_int_bits(t) == 32)
			return id;
	}
	return 0;
}

int lbtfi_obj_btf_output(struct obtf *b, void **data, size_t *size, bool *in_elf)
{
	struct lbtf_header h = b->hdr;
	unsigned char *p;
	size_t n;

	*in_elf = false;
	if (!b->grown && b->in_place) {
		/* the caller's .BTF, fixed where it lies: nothing to hand over */
		*data = b->raw;
		*size = b->raw_size;
		*in_elf = true;
		return 0;
	}
	if (!b->grown) {
		/* unchanged in size: the fixed copy itself, handed over */
		*data = b->raw;
		*size = b->raw_size;
		handed.p = b->raw;
		handed.cap = b->raw_cap;
		b->raw = NULL;
		return 0;
	}
	n = h.hdr_len + b->types_len + b->strs_len;
	p = malloc(n);
	if (!p)
		return lbtfi_err(ENOMEM, "out of memory");
	h.type_off = 0;
	h.type_len = b->types_len;
	h.str_off = b->types_len;
	h.str_len = b->strs_len;
	memcpy(p, b->raw, h.hdr_len);
	memcpy(p, &h, LBTF_HDR_LEN_V1); /* libbpf 1.1's fields; the rest as read */
	memcpy(p + h.hdr_len, b->types, b->types_len);
	memcpy(p + h.hdr_len + b->types_len, b->strs, b->strs_len);
	*data = p;
	*size = n;
	return 0;
}

void lbtfi_obj_btf_data_give(void *data, size_t size)
{
	/* the copy handed out last has a block perhaps larger than its BTF */
	size_t cap = data && data == handed.p ? handed.cap : size;

	if (data == handed.p)
		handed.p = NULL;
	lbtfi_keep_give(&kept_raw, data, cap);
}
