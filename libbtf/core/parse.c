// SPDX-License-Identifier: BSD-2-Clause
/*
 * Parsing a BTF blob: the fast sanity layer. Keeps the bytes (copied,
 * borrowed or mmapped), indexes type offsets, and checks every offset and
 * length before anything else reads it. Kernel-exact checks live in verify.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define HDR_MIN_LEN 24u

/*
 * The optional layout section (libbpf 1.8, pahole's --btf_features=layout)
 * sits between the types and the strings, whole entries, 4-byte aligned:
 * libbpf's rules, so that both read the same blobs.
 */
static int check_layout_sec(const struct lbtf_header *h)
{
	if (!h->layout_len)
		return 0;
	if (h->layout_off % 4)
		return lbtfi_err(EINVAL, "layout section offset %u not 4-byte aligned",
				 h->layout_off);
	if (h->layout_len % sizeof(struct lbtf_layout))
		return lbtfi_err(EINVAL, "layout section length %u not a multiple of %zu",
				 h->layout_len, sizeof(struct lbtf_layout));
	if (h->layout_off < (uint64_t)h->type_off + h->type_len)
		return lbtfi_err(EINVAL,
				 "layout section (off %u) not after the type section (off %u, len %u)",
				 h->layout_off, h->type_off, h->type_len);
	if ((uint64_t)h->layout_off + h->layout_len > h->str_off)
		return lbtfi_err(EINVAL,
				 "layout section (off %u, len %u) runs past the start of the strings (off %u)",
				 h->layout_off, h->layout_len, h->str_off);
	return 0;
}

bool lbtfi_header_read(struct lbtf_header *h, const void *data, size_t size)
{
	bool swapped;
	size_t n;

	memset(h, 0, sizeof(*h));
	memcpy(h, data, LBTF_HDR_LEN_V1);
	swapped = h->magic != LBTF_MAGIC;
	n = swapped ? lbtf_bswap32(h->hdr_len) : h->hdr_len;
	if (n > size)
		n = size;
	if (n > sizeof(*h))
		n = sizeof(*h);
	if (n > LBTF_HDR_LEN_V1)
		memcpy((char *)h + LBTF_HDR_LEN_V1, (const char *)data + LBTF_HDR_LEN_V1,
		       n - LBTF_HDR_LEN_V1);
	if (swapped)
		lbtfi_swap_header(h);
	return swapped;
}

static int parse_header(struct lbtf *btf, const unsigned char *data, size_t size)
{
	struct lbtf_header h;
	uint16_t magic;

	/* The magic first: a short file that is not BTF at all is "not BTF". */
	if (size >= sizeof(magic)) {
		memcpy(&magic, data, sizeof(magic));
		if (magic != LBTF_MAGIC && magic != lbtf_bswap16(LBTF_MAGIC))
			return lbtfi_err(EINVAL, "not BTF (bad magic 0x%04x)", magic);
	}
	if (size < HDR_MIN_LEN)
		return lbtfi_err(EINVAL, "too small for a BTF header (%zu bytes, need %u)",
				    size, HDR_MIN_LEN);
	btf->swapped = lbtfi_header_read(&h, data, size);
	if (h.version != LBTF_VERSION)
		return lbtfi_err(ENOTSUP, "unsupported BTF version %u", h.version);
	if (h.hdr_len < HDR_MIN_LEN || h.hdr_len > size)
		return lbtfi_err(EINVAL, "bad header length %u (file is %zu bytes)",
				    h.hdr_len, size);
	if ((uint64_t)h.hdr_len + h.type_off + h.type_len > size)
		return lbtfi_err(EINVAL, "type section (off %u, len %u) exceeds data (%zu bytes)",
				    h.type_off, h.type_len, size);
	if ((uint64_t)h.hdr_len + h.str_off + h.str_len > size)
		return lbtfi_err(EINVAL, "string section (off %u, len %u) exceeds data (%zu bytes)",
				    h.str_off, h.str_len, size);
	if (h.type_off % 4 || h.type_len % 4)
		return lbtfi_err(EINVAL, "type section (off %u, len %u) not 4-byte aligned",
				    h.type_off, h.type_len);
	if (h.type_len && h.str_len &&
	    (uint64_t)h.type_off < (uint64_t)h.str_off + h.str_len &&
	    (uint64_t)h.str_off < (uint64_t)h.type_off + h.type_len)
		return lbtfi_err(EINVAL, "type and string sections overlap");
	btf->hdr = h;
	return check_layout_sec(&h);
}

static void parse_layout(struct lbtf *btf)
{
	const struct lbtf_header *h = &btf->hdr;

	if (!h->layout_len)
		return;
	btf->layout = (const struct lbtf_layout *)(btf->data + h->hdr_len + h->layout_off);
	btf->layout_cnt = h->layout_len / sizeof(struct lbtf_layout);
}

static int parse_strings(struct lbtf *btf)
{
	const struct lbtf_header *h = &btf->hdr;

	btf->strs = (const char *)btf->data + h->hdr_len + h->str_off;
	if (!btf->base) {
		if (h->str_len == 0 || btf->strs[0] != '\0')
			return lbtfi_err(EINVAL, "string section must start with an empty string");
	}
	if (h->str_len && btf->strs[h->str_len - 1] != '\0')
		return lbtfi_err(EINVAL, "string section is not NUL-terminated");
	return 0;
}

void lbtfi_swap_header(struct lbtf_header *h)
{
	h->magic = lbtf_bswap16(h->magic);
	h->hdr_len = lbtf_bswap32(h->hdr_len);
	h->type_off = lbtf_bswap32(h->type_off);
	h->type_len = lbtf_bswap32(h->type_len);
	h->str_off = lbtf_bswap32(h->str_off);
	h->str_len = lbtf_bswap32(h->str_len);
	h->layout_off = lbtf_bswap32(h->layout_off);
	h->layout_len = lbtf_bswap32(h->layout_len);
}

/* The layout entries' one 16-bit field, flags (info_sz, elem_sz are bytes). */
static void swap_layout(unsigned char *layout, size_t len)
{
	for (size_t i = 0; i + sizeof(struct lbtf_layout) <= len; i += sizeof(struct lbtf_layout)) {
		uint16_t f;

		memcpy(&f, layout + i + offsetof(struct lbtf_layout, flags), sizeof(f));
		f = lbtf_bswap16(f);
		memcpy(layout + i + offsetof(struct lbtf_layout, flags), &f, sizeof(f));
	}
}

void lbtfi_swap_type_words(void *types, size_t len)
{
	uint32_t *w = types;

	for (size_t i = 0; i < len / 4; i++)
		w[i] = lbtf_bswap32(w[i]);
}

int lbtf_bytes_to_host(void *data, size_t size)
{
	unsigned char *p = data;
	struct lbtf_header h;
	size_t n;

	if (size < HDR_MIN_LEN)
		return lbtfi_err(EINVAL, "too small for a BTF header (%zu bytes, need %u)", size,
				 HDR_MIN_LEN);
	memcpy(&h.magic, p, sizeof(h.magic));
	if (h.magic == LBTF_MAGIC)
		return 0;
	if (h.magic != lbtf_bswap16(LBTF_MAGIC))
		return lbtfi_err(EINVAL, "not BTF (bad magic 0x%04x)", h.magic);
	lbtfi_header_read(&h, p, size);
	/* the fields the header holds, never past the data */
	n = lbtfi_header_bytes(&h) < LBTF_HDR_LEN_V1 ? LBTF_HDR_LEN_V1 : lbtfi_header_bytes(&h);
	memcpy(p, &h, n < size ? n : size);
	/* a section out of range stays as it is: the verifier says so */
	if (h.hdr_len <= size && (uint64_t)h.hdr_len + h.type_off + h.type_len <= size) {
		unsigned char *t = p + h.hdr_len + h.type_off;

		for (uint32_t i = 0; i + 4 <= h.type_len; i += 4) {
			uint32_t w;

			memcpy(&w, t + i, 4); /* the section need not be aligned in memory */
			w = lbtf_bswap32(w);
			memcpy(t + i, &w, 4);
		}
	}
	if (h.hdr_len <= size && (uint64_t)h.hdr_len + h.layout_off + h.layout_len <= size)
		swap_layout(p + h.hdr_len + h.layout_off, h.layout_len);
	return 1;
}

/* Why an unknown kind was not sized, for the message. */
static const char *unsized_why(const struct lbtf *btf, const struct lbtf_type *t)
{
	uint32_t cnt;
	const struct lbtf_layout *l = lbtfi_layout_for(btf, &cnt);

	if (btf->swapped)
		return "in BTF of the other byte order (its fields' widths are unknown)";
	if (!l)
		return "and no layout section to size it";
	if (lbtf_kind(t) >= cnt)
		return "past the layout section's kinds";
	return "whose layout sizes are not multiples of 4";
}

static int index_types(struct lbtf *btf)
{
	const struct lbtf_header *h = &btf->hdr;
	uint32_t off = 0, n = 0, cap = 0;
	uint32_t *offs = NULL;

	btf->types = btf->data + h->hdr_len + h->type_off;
	/* room for as many types as the section could hold (a record is 12
	 * bytes at least) at once: no doublings copied into fresh pages (a
	 * module's run parses its ~100k-type vmlinux base), and the pages of
	 * the room left over are never touched. Exactly that bound, from
	 * plain malloc (its own mapping for a vmlinux): rounded up to a
	 * power of two it crossed LBTFI_BIG_BYTES and became a 32 MiB
	 * reservation on huge pages, whose first 2 MiB page was cleared
	 * whole for the ~0.6 MB a vmlinux's offsets use */
	if (h->type_len >= sizeof(struct lbtf_type)) {
		cap = h->type_len / sizeof(struct lbtf_type);
		offs = malloc((size_t)cap * sizeof(*offs));
		if (!offs)
			return lbtfi_err(ENOMEM, "out of memory indexing types");
	}
	while (off < h->type_len) {
		const struct lbtf_type *t = (const void *)(btf->types + off);
		size_t rec;

		if (h->type_len - off < sizeof(*t)) {
			free(offs);
			return lbtfi_err(EINVAL, "type %u truncated at type section offset %u",
					    btf->start_id + n, off);
		}
		rec = lbtf_type_rec_size(t);
		if (!rec) {
			/* a kind of a newer encoder, sized by the layout section
			 * (not in the other byte order: libbpf refuses it too) */
			rec = btf->swapped ? 0 : lbtf_type_size(btf, t);
			if (!rec) {
				free(offs);
				return lbtfi_err(EINVAL, "type %u has unknown kind %u %s",
						 btf->start_id + n, lbtf_kind(t), unsized_why(btf, t));
			}
		}
		if (rec > h->type_len - off) {
			free(offs);
			return lbtfi_err(EINVAL,
					    "type %u (%s, vlen %u) truncated: needs %zu bytes, %u left",
					    btf->start_id + n, lbtf_kind_name(lbtf_kind(t)),
					    lbtf_vlen(t), rec, h->type_len - off);
		}
		if (LBTFI_GROW_FROM(offs, cap, (size_t)n + 1, 1024)) {
			free(offs);
			return lbtfi_err(ENOMEM, "out of memory indexing types");
		}
		offs[n++] = off;
		off += rec;
	}
	if ((uint64_t)btf->start_id + n > 0x7fffffffu) {
		free(offs);
		return lbtfi_err(E2BIG, "too many types");
	}
	btf->type_offs = offs;
	btf->nr_types = n;
	return 0;
}

/*
 * Parse data (size bytes). If own is set, data is a malloc'ed buffer that
 * the object takes over; if map is set, an mmap to unmap on free.
 */
static struct lbtf *parse(const void *data, size_t size, const struct lbtf *base,
			  bool copy, void *map, size_t map_len)
{
	struct lbtf *btf = calloc(1, sizeof(*btf));
	int err;

	if (!btf)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	pthread_mutex_init(&btf->derived_mu, NULL);
	btf->base = base;
	btf->map = map;
	btf->map_len = map_len;
	btf->ptr_size = base ? base->ptr_size : 8;
	btf->start_id = base ? lbtf_type_cnt(base) : 1;
	btf->start_str_off = base ? base->start_str_off + base->hdr.str_len : 0;
	err = parse_header(btf, data, size);
	if (err)
		goto fail;
	/* Copy when asked, when the bytes must be swapped, or when type records
	 * would be misaligned. */
	if (copy || btf->swapped || ((uintptr_t)data + btf->hdr.hdr_len + btf->hdr.type_off) % 4) {
		/* lead pad bytes so that the type section lands 4-byte aligned
		 * even when hdr_len is not a multiple of 4 */
		size_t pad = (4 - (btf->hdr.hdr_len + btf->hdr.type_off) % 4) % 4;
		unsigned char *copy_data;

		btf->owned = malloc(size + pad ? size + pad : 1);
		if (!btf->owned) {
			err = lbtfi_err(ENOMEM, "out of memory");
			goto fail;
		}
		copy_data = (unsigned char *)btf->owned + pad;
		memcpy(copy_data, data, size);
		data = copy_data;
		if (btf->swapped) {
			memcpy(copy_data, &btf->hdr, lbtfi_header_bytes(&btf->hdr));
			lbtfi_swap_type_words(copy_data + btf->hdr.hdr_len + btf->hdr.type_off,
				   btf->hdr.type_len);
			swap_layout(copy_data + btf->hdr.hdr_len + btf->hdr.layout_off,
				    btf->hdr.layout_len);
		}
	}
	btf->data = data;
	btf->size = size;
	parse_layout(btf);
	if ((err = parse_strings(btf)) || (err = index_types(btf)))
		goto fail;
	return btf;
fail:
	btf->map = NULL; /* the caller still owns it on failure */
	lbtf_free(btf);
	errno = -err;
	return NULL;
}

struct lbtf *lbtf_new(const void *data, size_t size, const struct lbtf *base)
{
	return parse(data, size, base, true, NULL, 0);
}

struct lbtf *lbtf_new_borrowed(const void *data, size_t size, const struct lbtf *base)
{
	return parse(data, size, base, false, NULL, 0);
}

/* Used by the file openers: takes over an mmap (unmapped by lbtf_free). */
struct lbtf *lbtfi_new_mapped(void *map, size_t size, const struct lbtf *base)
{
	return parse(map, size, base, false, map, size);
}
