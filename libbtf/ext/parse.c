// SPDX-License-Identifier: BSD-2-Clause
/* Parsing .BTF.ext bytes: the header, then each info block's sections. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char *const kind_names[LBTF_EXT_KIND_CNT] = {
	"func_info", "line_info", "core_relo",
};

uint32_t lbtfi_ext_min_rec(enum lbtf_ext_kind kind)
{
	return kind == LBTF_EXT_FUNC_INFO ? 8 : 16;
}

uint32_t lbtfi_ext_word(const struct lbtf_ext *ext, size_t off)
{
	uint32_t v;

	memcpy(&v, ext->data + off, 4);
	return ext->swapped ? lbtf_bswap32(v) : v;
}

void lbtfi_ext_set_word(struct lbtf_ext *ext, size_t off, uint32_t v)
{
	if (ext->swapped)
		v = lbtf_bswap32(v);
	memcpy(ext->data + off, &v, 4);
}

/* One info block: [start, start + len) of the bytes */
static int parse_block(struct lbtf_ext *ext, enum lbtf_ext_kind kind, uint32_t off, uint32_t len)
{
	struct lbtfi_ext_kind *k = &ext->kinds[kind];
	uint64_t start = (uint64_t)ext->hdr_len + off, end = start + len, pos;
	uint32_t cap = 0;

	if (!len)
		return 0;
	if (end > ext->size || len < 4)
		return lbtfi_err(EINVAL, ".BTF.ext: %s block (offset %u, %u bytes) is past the end (%zu bytes)",
				 kind_names[kind], off, len, ext->size);
	if (start % 4)
		return lbtfi_err(EINVAL, ".BTF.ext: %s block is not 4-byte aligned", kind_names[kind]);
	k->rec_size = lbtfi_ext_word(ext, start);
	if (k->rec_size < lbtfi_ext_min_rec(kind) || k->rec_size % 4 || k->rec_size > 1024)
		return lbtfi_err(EINVAL, ".BTF.ext: %s record size %u (at least %u, a multiple of 4)",
				 kind_names[kind], k->rec_size, lbtfi_ext_min_rec(kind));
	for (pos = start + 4; pos < end;) {
		struct lbtfi_ext_sec *s;
		uint32_t cnt;

		if (end - pos < 8)
			return lbtfi_err(EINVAL, ".BTF.ext: %s: section header at %llu is cut off",
					 kind_names[kind], (unsigned long long)pos);
		cnt = lbtfi_ext_word(ext, pos + 4);
		if (!cnt)
			return lbtfi_err(EINVAL, ".BTF.ext: %s: section %u has no records",
					 kind_names[kind], k->sec_cnt);
		if ((uint64_t)cnt * k->rec_size > end - pos - 8)
			return lbtfi_err(EINVAL, ".BTF.ext: %s: section %u's %u records are past the block's end",
					 kind_names[kind], k->sec_cnt, cnt);
		if (LBTFI_GROW_FROM(k->secs, cap, (size_t)k->sec_cnt + 1, 8))
			return lbtfi_err(ENOMEM, "out of memory");
		s = &k->secs[k->sec_cnt++];
		s->name_pos = (uint32_t)pos;
		s->name_off = lbtfi_ext_word(ext, pos);
		s->rec_cnt = cnt;
		s->rec_off = (uint32_t)(pos + 8);
		pos += 8 + (uint64_t)cnt * k->rec_size;
	}
	return 0;
}

static int parse(struct lbtf_ext *ext)
{
	uint16_t magic;
	uint32_t w[6] = { 0 };
	int err;

	if (ext->size < LBTFI_EXT_HDR_MIN)
		return lbtfi_err(EINVAL, ".BTF.ext: %zu bytes, shorter than a header", ext->size);
	memcpy(&magic, ext->data, 2);
	if (magic == lbtf_bswap16(LBTF_MAGIC))
		ext->swapped = true;
	else if (magic != LBTF_MAGIC)
		return lbtfi_err(EINVAL, ".BTF.ext: bad magic 0x%04x", magic);
	if (ext->data[2] != 1)
		return lbtfi_err(EINVAL, ".BTF.ext: version %u (this library reads 1)", ext->data[2]);
	ext->hdr_len = lbtfi_ext_word(ext, 4);
	if (ext->hdr_len < LBTFI_EXT_HDR_MIN || ext->hdr_len > ext->size || ext->hdr_len % 4)
		return lbtfi_err(EINVAL, ".BTF.ext: header length %u (file %zu bytes)", ext->hdr_len,
				 ext->size);
	for (unsigned int i = 0; i < 6 && 8 + 4 * i + 4 <= ext->hdr_len; i++)
		w[i] = lbtfi_ext_word(ext, 8 + 4 * i);
	for (unsigned int k = 0; k < LBTF_EXT_KIND_CNT; k++)
		if ((err = parse_block(ext, (enum lbtf_ext_kind)k, w[2 * k], w[2 * k + 1])))
			return err;
	return 0;
}

struct lbtf_ext *lbtf_ext_new(const void *data, size_t size)
{
	struct lbtf_ext *ext;
	int err;

	if (!data && size)
		return lbtfi_err_ptr(EINVAL, ".BTF.ext: no data");
	ext = calloc(1, sizeof(*ext));
	if (!ext || !(ext->data = malloc(size ? size : 1))) {
		free(ext);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	if (size)
		memcpy(ext->data, data, size);
	ext->size = size;
	err = parse(ext);
	if (err) {
		lbtf_ext_free(ext);
		errno = -err;
		return NULL;
	}
	return ext;
}

void lbtf_ext_free(struct lbtf_ext *ext)
{
	if (!ext)
		return;
	for (unsigned int k = 0; k < LBTF_EXT_KIND_CNT; k++)
		free(ext->kinds[k].secs);
	free(ext->data);
	free(ext);
}

bool lbtf_ext_is_swapped(const struct lbtf_ext *ext)
{
	return ext->swapped;
}

uint32_t lbtf_ext_sec_cnt(const struct lbtf_ext *ext, enum lbtf_ext_kind kind)
{
	if (!ext || (unsigned int)kind >= LBTF_EXT_KIND_CNT)
		return 0;
	return ext->kinds[kind].sec_cnt;
}

int lbtf_ext_sec(const struct lbtf_ext *ext, enum lbtf_ext_kind kind, uint32_t idx,
		 struct lbtf_ext_sec *sec)
{
	const struct lbtfi_ext_kind *k;

	if (!ext || !sec || (unsigned int)kind >= LBTF_EXT_KIND_CNT)
		return lbtfi_err(EINVAL, "lbtf_ext_sec: bad arguments");
	k = &ext->kinds[kind];
	if (idx >= k->sec_cnt)
		return lbtfi_err(ERANGE, ".BTF.ext: %s has %u sections, not %u", kind_names[kind],
				 k->sec_cnt, idx + 1);
	sec->sec_name_off = k->secs[idx].name_off;
	sec->rec_cnt = k->secs[idx].rec_cnt;
	sec->rec_size = k->rec_size;
	return 0;
}

/* Offset of record i of section sec of a kind, or a negative errno */
static int64_t rec_pos(const struct lbtf_ext *ext, enum lbtf_ext_kind kind, uint32_t sec, uint32_t i)
{
	const struct lbtfi_ext_kind *k;

	if (!ext)
		return lbtfi_err(EINVAL, "lbtf_ext: no .BTF.ext");
	k = &ext->kinds[kind];
	if (sec >= k->sec_cnt || i >= k->secs[sec].rec_cnt)
		return lbtfi_err(ERANGE, ".BTF.ext: no %s record %u in section %u", kind_names[kind], i, sec);
	return k->secs[sec].rec_off + (int64_t)i * k->rec_size;
}

int lbtf_ext_func_info(const struct lbtf_ext *ext, uint32_t sec, uint32_t i,
		       struct lbtf_ext_func_info *rec)
{
	int64_t p = rec_pos(ext, LBTF_EXT_FUNC_INFO, sec, i);

	if (p < 0)
		return (int)p;
	rec->insn_off = lbtfi_ext_word(ext, (size_t)p);
	rec->type_id = lbtfi_ext_word(ext, (size_t)p + 4);
	return 0;
}

int lbtf_ext_line_info(const struct lbtf_ext *ext, uint32_t sec, uint32_t i,
		       struct lbtf_ext_line_info *rec)
{
	int64_t p = rec_pos(ext, LBTF_EXT_LINE_INFO, sec, i);
	uint32_t lc;

	if (p < 0)
		return (int)p;
	rec->insn_off = lbtfi_ext_word(ext, (size_t)p);
	rec->file_name_off = lbtfi_ext_word(ext, (size_t)p + 4);
	rec->line_off = lbtfi_ext_word(ext, (size_t)p + 8);
	lc = lbtfi_ext_word(ext, (size_t)p + 12);
	rec->line = lc >> 10;
	rec->col = lc & 0x3ff;
	return 0;
}

int lbtf_ext_core_relo(const struct lbtf_ext *ext, uint32_t sec, uint32_t i,
		       struct lbtf_ext_core_relo *rec)
{
	int64_t p = rec_pos(ext, LBTF_EXT_CORE_RELO, sec, i);

	if (p < 0)
		return (int)p;
	rec->insn_off = lbtfi_ext_word(ext, (size_t)p);
	rec->type_id = lbtfi_ext_word(ext, (size_t)p + 4);
	rec->access_str_off = lbtfi_ext_word(ext, (size_t)p + 8);
	rec->kind = lbtfi_ext_word(ext, (size_t)p + 12);
	return 0;
}

const char *lbtf_core_relo_kind_name(uint32_t kind)
{
	static const char *const names[LBTF_CORE_RELO_KIND_CNT] = {
		"byte_off", "byte_sz", "field_exists", "signed", "lshift_u64", "rshift_u64",
		"local_type_id", "target_type_id", "type_exists", "type_size",
		"enumval_exists", "enumval_value", "type_matches",
	};

	return kind < LBTF_CORE_RELO_KIND_CNT ? names[kind] : NULL;
}
