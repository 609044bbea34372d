// SPDX-License-Identifier: BSD-2-Clause
/*
 * Writing a .BTF.ext from records: the header with the CO-RE words
 * (hdr_len 32), then one block per kind that has records (rec_size, then
 * per ELF section its name offset, record count and records, sections in
 * the order they were first named). A kind without records gets an empty
 * block (offset, length 0), as libbpf accepts.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct wsec {
	uint32_t name_off;
	uint32_t cnt;
	size_t cap;
	uint32_t *words; /* cnt records of the kind's record words */
};

struct wkind {
	uint32_t sec_cnt;
	size_t cap;
	struct wsec *secs;
};

struct lbtf_ext_writer {
	struct wkind kinds[LBTF_EXT_KIND_CNT];
};

/* words per record: func_info 2, line_info 4, core_relo 4 */
static uint32_t rec_words(enum lbtf_ext_kind kind)
{
	return lbtfi_ext_min_rec(kind) / 4;
}

struct lbtf_ext_writer *lbtf_ext_writer_new(void)
{
	struct lbtf_ext_writer *w = calloc(1, sizeof(*w));

	if (!w)
		lbtfi_err(ENOMEM, "out of memory");
	return w;
}

void lbtf_ext_writer_free(struct lbtf_ext_writer *w)
{
	if (!w)
		return;
	for (int k = 0; k < LBTF_EXT_KIND_CNT; k++) {
		for (uint32_t s = 0; s < w->kinds[k].sec_cnt; s++)
			free(w->kinds[k].secs[s].words);
		free(w->kinds[k].secs);
	}
	free(w);
}

static int add(struct lbtf_ext_writer *w, enum lbtf_ext_kind kind, uint32_t sec_name_off,
	       const uint32_t *rec)
{
	struct wkind *k = &w->kinds[kind];
	uint32_t n = rec_words(kind);
	struct wsec *s = NULL;

	for (uint32_t i = k->sec_cnt; i > 0; i--)
		if (k->secs[i - 1].name_off == sec_name_off) {
			s = &k->secs[i - 1];
			break;
		}
	if (!s) {
		if (LBTFI_GROW_FROM(k->secs, k->cap, (size_t)k->sec_cnt + 1, 4))
			return lbtfi_err(ENOMEM, "out of memory");
		s = &k->secs[k->sec_cnt++];
		memset(s, 0, sizeof(*s));
		s->name_off = sec_name_off;
	}
	if (s->cnt == UINT32_MAX / 16 ||
	    LBTFI_GROW_FROM(s->words, s->cap, ((size_t)s->cnt + 1) * n, 64))
		return lbtfi_err(ENOMEM, "out of memory");
	memcpy(s->words + (size_t)s->cnt * n, rec, n * 4);
	s->cnt++;
	return 0;
}

int lbtf_ext_writer_add_func_info(struct lbtf_ext_writer *w, uint32_t sec_name_off,
				  const struct lbtf_ext_func_info *rec)
{
	uint32_t r[2];

	if (!w || !rec)
		return lbtfi_err(EINVAL, "lbtf_ext_writer_add_func_info: bad arguments");
	r[0] = rec->insn_off;
	r[1] = rec->type_id;
	return add(w, LBTF_EXT_FUNC_INFO, sec_name_off, r);
}

int lbtf_ext_writer_add_line_info(struct lbtf_ext_writer *w, uint32_t sec_name_off,
				  const struct lbtf_ext_line_info *rec)
{
	uint32_t r[4];

	if (!w || !rec)
		return lbtfi_err(EINVAL, "lbtf_ext_writer_add_line_info: bad arguments");
	if (rec->line > 0x3fffff || rec->col > 0x3ff)
		return lbtfi_err(ERANGE, "line_info at insn offset %u: line %u / column %u do not fit (22 / 10 bits)",
				 rec->insn_off, rec->line, rec->col);
	r[0] = rec->insn_off;
	r[1] = rec->file_name_off;
	r[2] = rec->line_off;
	r[3] = rec->line << 10 | rec->col;
	return add(w, LBTF_EXT_LINE_INFO, sec_name_off, r);
}

int lbtf_ext_writer_add_core_relo(struct lbtf_ext_writer *w, uint32_t sec_name_off,
				  const struct lbtf_ext_core_relo *rec)
{
	uint32_t r[4];

	if (!w || !rec)
		return lbtfi_err(EINVAL, "lbtf_ext_writer_add_core_relo: bad arguments");
	r[0] = rec->insn_off;
	r[1] = rec->type_id;
	r[2] = rec->access_str_off;
	r[3] = rec->kind;
	return add(w, LBTF_EXT_CORE_RELO, sec_name_off, r);
}

uint32_t lbtf_ext_writer_rec_cnt(const struct lbtf_ext_writer *w, enum lbtf_ext_kind kind)
{
	uint32_t n = 0;

	if (!w || (unsigned int)kind >= LBTF_EXT_KIND_CNT)
		return 0;
	for (uint32_t s = 0; s < w->kinds[kind].sec_cnt; s++)
		n += w->kinds[kind].secs[s].cnt;
	return n;
}

static size_t block_len(const struct lbtf_ext_writer *w, enum lbtf_ext_kind kind)
{
	const struct wkind *k = &w->kinds[kind];
	size_t len;

	if (!k->sec_cnt)
		return 0;
	len = 4;
	for (uint32_t s = 0; s < k->sec_cnt; s++)
		len += 8 + (size_t)k->secs[s].cnt * lbtfi_ext_min_rec(kind);
	return len;
}

static void put(unsigned char **p, uint32_t v, bool swapped)
{
	if (swapped)
		v = lbtf_bswap32(v);
	memcpy(*p, &v, 4);
	*p += 4;
}

int lbtf_ext_writer_finish(const struct lbtf_ext_writer *w, bool swapped, void **data, size_t *size)
{
	size_t len[LBTF_EXT_KIND_CNT], total = LBTFI_EXT_HDR_CORE, off = 0;
	unsigned char *buf, *p;
	uint16_t magic = 0xeB9F;

	if (!w || !data || !size)
		return lbtfi_err(EINVAL, "lbtf_ext_writer_finish: bad arguments");
	for (int k = 0; k < LBTF_EXT_KIND_CNT; k++) {
		len[k] = block_len(w, (enum lbtf_ext_kind)k);
		total += len[k];
	}
	if (total > UINT32_MAX)
		return lbtfi_err(E2BIG, ".BTF.ext of %zu bytes is too large", total);
	buf = calloc(1, total);
	if (!buf)
		return lbtfi_err(ENOMEM, "out of memory");
	if (swapped)
		magic = (uint16_t)(magic << 8 | magic >> 8);
	memcpy(buf, &magic, 2);
	buf[2] = 1; /* version */
	buf[3] = 0; /* flags */
	p = buf + 4;
	put(&p, LBTFI_EXT_HDR_CORE, swapped);
	for (int k = 0; k < LBTF_EXT_KIND_CNT; k++) {
		put(&p, (uint32_t)off, swapped);
		put(&p, (uint32_t)len[k], swapped);
		off += len[k];
	}
	for (int k = 0; k < LBTF_EXT_KIND_CNT; k++) {
		const struct wkind *wk = &w->kinds[k];
		uint32_t n = rec_words((enum lbtf_ext_kind)k);

		if (!wk->sec_cnt)
			continue;
		put(&p, lbtfi_ext_min_rec((enum lbtf_ext_kind)k), swapped);
		for (uint32_t s = 0; s < wk->sec_cnt; s++) {
			put(&p, wk->secs[s].name_off, swapped);
			put(&p, wk->secs[s].cnt, swapped);
			for (size_t i = 0; i < (size_t)wk->secs[s].cnt * n; i++)
				put(&p, wk->secs[s].words[i], swapped);
		}
	}
	*data = buf;
	*size = total;
	return 0;
}
