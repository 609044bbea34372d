// SPDX-License-Identifier: BSD-2-Clause
/*
 * The copy of a blob the verifier judges: the BTF as the kernel gets it
 * from libbpf (externs resolved), without the layout section the running
 * kernel's rules predate.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * Extern VARs and FUNCs (a BPF object's kfuncs, __ksym and __kconfig, as
 * clang emits them too) are resolved by libbpf before the BTF is loaded,
 * which rewrites them and the .ksyms/.kconfig DATASECs (size 0 in the
 * object; an extern map's .maps DATASEC, all externs, is resolved by
 * `bpftool gen object`). BPF_BTF_LOAD refuses them as they are in the object, so in the
 * copy that is verified, records of the same sizes stand for them: an
 * extern VAR becomes an INT of its name, an extern FUNC a TYPEDEF of its
 * proto (still verified), such a DATASEC (or one listing only externs) an
 * anonymous ENUM64 naming its entries. The rules for externs themselves are
 * libbpf's.
 */
static bool is_extern_sec(const char *strs, uint32_t str_len, uint32_t off)
{
	static const char *const names[] = { ".ksyms", ".kconfig" };

	for (size_t i = 0; i < 2; i++)
		if (off < str_len && !strncmp(strs + off, names[i], str_len - off) &&
		    strlen(names[i]) < str_len - off)
			return true;
	return false;
}

/* Whether the header of a blob is sound (else the verifier says what is
 * wrong), read into h */
static bool sound_header(const void *data, size_t size, struct lbtf_header *h)
{
	if (size < LBTF_HDR_LEN_V1)
		return false;
	memcpy(h, data, LBTF_HDR_LEN_V1); /* the fields read here */
	return h->hdr_len <= size && h->type_off <= size - h->hdr_len &&
	       h->type_len <= size - h->hdr_len - h->type_off && h->str_off <= size - h->hdr_len &&
	       h->str_len <= size - h->hdr_len - h->str_off && !(h->hdr_len & 3) &&
	       !(h->type_off & 3);
}

/* The size of the record at p, 0 when it does not fit before e */
static size_t rec_len(const uint8_t *p, const uint8_t *e)
{
	size_t len = (size_t)(e - p) >= sizeof(struct lbtf_type)
			     ? lbtf_type_rec_size((const struct lbtf_type *)p) : 0;

	return len <= (size_t)(e - p) && !(len & 3) ? len : 0;
}

static bool is_extern(const struct lbtf_type *t)
{
	return (lbtf_kind(t) == LBTF_KIND_VAR && lbtf_var(t)->linkage == LBTF_LINKAGE_EXTERN) ||
	       (lbtf_kind(t) == LBTF_KIND_FUNC && lbtf_vlen(t) == LBTF_LINKAGE_EXTERN);
}

/* Whether externs_as_loaded() changes anything: an extern VAR or FUNC, a
 * DATASEC named .ksyms or .kconfig. The blob is copied only then (a
 * vmlinux's has none). */
bool lbtfi_encode_has_externs(const void *data, size_t size)
{
	const uint8_t *p = (const uint8_t *)data, *e;
	struct lbtf_header h;
	const char *strs;
	size_t len;

	if (!sound_header(data, size, &h))
		return false;
	strs = (const char *)data + h.hdr_len + h.str_off;
	p += h.hdr_len + h.type_off;
	e = p + h.type_len;
	for (; (len = rec_len(p, e)); p += len) {
		const struct lbtf_type *t = (const struct lbtf_type *)p;

		if (is_extern(t) ||
		    (lbtf_kind(t) == LBTF_KIND_DATASEC && is_extern_sec(strs, h.str_len, t->name_off)))
			return true;
	}
	return false;
}

void lbtfi_encode_externs_as_loaded(void *data, size_t size)
{
	uint32_t n = 0, cap = 1024, **recs = malloc(cap * sizeof(*recs));
	uint8_t *ext = calloc(cap, 1); /* ext[id]: id was an extern VAR/FUNC */
	uint8_t *p = data, *e;
	struct lbtf_header h;
	const char *strs;
	size_t len;

	if (!recs || !ext || !sound_header(data, size, &h))
		goto out;
	strs = (const char *)data + h.hdr_len + h.str_off;
	p += h.hdr_len + h.type_off;
	e = p + h.type_len;
	recs[n++] = NULL; /* void */
	for (; (len = rec_len(p, e)); p += len) {
		struct lbtf_type *t = (struct lbtf_type *)p;

		if (n == cap) {
			uint32_t **r = realloc(recs, 2 * cap * sizeof(*recs));
			uint8_t *x;

			if (!r)
				goto out;
			recs = r;
			x = realloc(ext, 2 * cap);
			if (!x)
				goto out;
			ext = x;
			memset(ext + cap, 0, cap);
			cap *= 2;
		}
		ext[n] = is_extern(t);
		recs[n++] = (uint32_t *)p;
		if (lbtf_kind(t) == LBTF_KIND_VAR && lbtf_var(t)->linkage == LBTF_LINKAGE_EXTERN) {
			/* VAR (name, info, type, linkage) -> INT of the same size */
			t->info = lbtf_info(LBTF_KIND_INT, 0, false);
			t->size = 4;
			((uint32_t *)(t + 1))[0] = 32;
		} else if (lbtf_kind(t) == LBTF_KIND_FUNC && lbtf_vlen(t) == LBTF_LINKAGE_EXTERN) {
			/* FUNC (name, info, proto) -> TYPEDEF of its proto */
			t->info = lbtf_info(LBTF_KIND_TYPEDEF, 0, false);
		}
	}
	for (uint32_t id = 1; id < n; id++) {
		struct lbtf_type *t = (struct lbtf_type *)recs[id];
		uint32_t *ent = (uint32_t *)(t + 1);

		bool all_ext = lbtf_vlen(t) > 0;

		if (lbtf_kind(t) != LBTF_KIND_DATASEC)
			continue;
		for (uint32_t i = 0; i < lbtf_vlen(t); i++)
			all_ext &= ent[3 * i] && ent[3 * i] < n && ext[ent[3 * i]];
		if (!all_ext && !is_extern_sec(strs, h.str_len, t->name_off))
			continue;
		/* entries (type, offset, size) -> enumerators (name, lo32, hi32) */
		for (uint32_t i = 0; i < lbtf_vlen(t); i++) {
			uint32_t tid = ent[3 * i];

			ent[3 * i] = tid && tid < n ? recs[tid][0] : 0; /* the extern's name */
			ent[3 * i + 1] = i;
			ent[3 * i + 2] = 0;
		}
		t->name_off = 0;
		t->info = lbtf_info(LBTF_KIND_ENUM64, lbtf_vlen(t), false);
		t->size = 8;
	}
out:
	free(recs);
	free(ext);
}

/*
 * BTF written with a layout section (--layout) is verified as the BTF it
 * carries, with the 24-byte header: the running kernel's rules predate the
 * section and refuse its header as unknown, while the types and strings
 * they check are the same. A host-order copy (malloc'ed) or NULL when the
 * blob has no layout section (or bounds the verifier should judge).
 */
void *lbtfi_encode_without_layout(const void *data, size_t *size)
{
	struct lbtf_header h;
	unsigned char *out;
	size_t n;

	if (*size < sizeof(h))
		return NULL;
	memcpy(&h, data, sizeof(h));
	if (h.hdr_len < sizeof(h) || !h.layout_len || h.hdr_len > *size ||
	    (uint64_t)h.type_off + h.type_len > *size - h.hdr_len ||
	    (uint64_t)h.str_off + h.str_len > *size - h.hdr_len)
		return NULL;
	n = LBTF_HDR_LEN_V1 + (size_t)h.type_len + h.str_len;
	out = malloc(n);
	if (!out)
		return NULL;
	memcpy(out + LBTF_HDR_LEN_V1, (const unsigned char *)data + h.hdr_len + h.type_off,
	       h.type_len);
	memcpy(out + LBTF_HDR_LEN_V1 + h.type_len,
	       (const unsigned char *)data + h.hdr_len + h.str_off, h.str_len);
	h.hdr_len = LBTF_HDR_LEN_V1;
	h.type_off = 0;
	h.str_off = h.type_len;
	memcpy(out, &h, LBTF_HDR_LEN_V1);
	*size = n;
	return out;
}

