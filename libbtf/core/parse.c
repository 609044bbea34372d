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
	memcpy(&h, data, sizeof(h));
	if (h.magic == LBTF_MAGIC) {
		btf->swapped = false;
	} else if (h.magic == lbtf_bswap16(LBTF_MAGIC)) {
		btf->swapped = true;
		lbtfi_swap_header(&h);
	} else {
		return lbtfi_err(EINVAL, "not BTF (bad magic 0x%04x)", h.magic);
	}
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
	return 0;
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

	if (size < HDR_MIN_LEN)
		return lbtfi_err(EINVAL, "too small for a BTF header (%zu bytes, need %u)", size,
				 HDR_MIN_LEN);
	memcpy(&h, p, sizeof(h));
	if (h.magic == LBTF_MAGIC)
		return 0;
	if (h.magic != lbtf_bswap16(LBTF_MAGIC))
		return lbtfi_err(EINVAL, "not BTF (bad magic 0x%04x)", h.magic);
	lbtfi_swap_header(&h);
	memcpy(p, &h, sizeof(h));
	/* a type section out of range stays as it is: the verifier says so */
	if (h.hdr_len <= size && (uint64_t)h.hdr_len + h.type_off + h.type_len <= size) {
		unsigned char *t = p + h.hdr_len + h.type_off;

		for (uint32_t i = 0; i + 4 <= h.type_len; i += 4) {
			uint32_t w;

			memcpy(&w, t + i, 4); /* the section need not be aligned in memory */
			w = lbtf_bswap32(w);
			memcpy(t + i, &w, 4);
		}
	}
	return 1;
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
	 * the room left over are never touched */
	if (h->type_len >= sizeof(struct lbtf_type) &&
	    LBTFI_GROW(offs, cap, h->type_len / sizeof(struct lbtf_type)))
		return lbtfi_err(ENOMEM, "out of memory indexing types");
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
			free(offs);
			return lbtfi_err(EINVAL, "type %u has unknown kind %u",
					    btf->start_id + n, lbtf_kind(t));
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
			memcpy(copy_data, &btf->hdr, sizeof(btf->hdr));
			lbtfi_swap_type_words(copy_data + btf->hdr.hdr_len + btf->hdr.type_off,
				   btf->hdr.type_len);
		}
	}
	btf->data = data;
	btf->size = size;
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
