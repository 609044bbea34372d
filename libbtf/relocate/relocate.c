// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_relocate(): split BTF built over a distilled base (a module's .BTF
 * over its .BTF.base) moved onto the base it will live with, as libbpf's
 * btf__relocate() and the kernel's module loader do:
 *
 *  1. the distilled base must hold only named INT, FLOAT, FWD, ENUM, STRUCT
 *     and UNION types, and every type id the split types name must exist;
 *  2. each distilled type gets the base type it stands for (match.c);
 *  3. the split types are copied and their ids rewritten: distilled ids to
 *     the matched base ids, the split's own ids moved to follow the base's
 *     last type (in the same order);
 *  4. their string offsets too: a name of a distilled type becomes the
 *     matched base type's name offset, the split's own strings (kept as
 *     they are, after the base's now) move by the difference in length of
 *     the two bases' strings; any other distilled base string is -ENOENT;
 *  5. the copy is parsed as split BTF over the base.
 *
 * Nothing is shared with the input: split, its distilled base and base are
 * only read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int lbtfi_reloc_err(const struct lbtfi_reloc *r, int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lbtfi_err(err, "%s%s%s", r->name ? r->name : "", r->name ? ": " : "", msg);
}

int lbtf_distilled_base_check(const struct lbtf *dist, const char *name)
{
	struct lbtfi_reloc r = { .name = name };
	uint32_t cnt = lbtf_type_cnt(dist);

	if (lbtf_base(dist))
		return lbtfi_reloc_err(&r, EINVAL, "a distilled base is base BTF, this one is split BTF");
	for (uint32_t id = 1; id < cnt; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(dist, id);
		unsigned int k = lbtf_kind(t);

		if (k != LBTF_KIND_INT && k != LBTF_KIND_FLOAT && k != LBTF_KIND_FWD &&
		    k != LBTF_KIND_ENUM && k != LBTF_KIND_STRUCT && k != LBTF_KIND_UNION)
			return lbtfi_reloc_err(&r, EINVAL, "distilled base type [%u] is a %s: a distilled base holds only INT, FLOAT, FWD, ENUM, STRUCT and UNION",
					       id, lbtf_kind_name(k));
		if (!t->name_off)
			return lbtfi_reloc_err(&r, EINVAL, "distilled base type [%u] (%s) is anonymous: a distilled base holds only named types",
					       id, lbtf_kind_name(k));
		if (!lbtf_name_by_offset(dist, t->name_off))
			return lbtfi_reloc_err(&r, EINVAL, "distilled base type [%u] (%s) has name offset %u, past its strings",
					       id, lbtf_kind_name(k), t->name_off);
	}
	return 0;
}

/* Step 1's second half: a type id of a split type that is no type */
static int id_in_range(uint32_t id, void *ctx)
{
	const struct lbtfi_reloc *r = ctx;

	return id < r->nr_split ? 0 : -1;
}

static int check_ids(struct lbtfi_reloc *r)
{
	for (uint32_t id = r->nr_dist; id < r->nr_split; id++)
		if (lbtf_type_read_type_ids(lbtf_type_by_id(r->split, id), id_in_range, r))
			return lbtfi_reloc_err(r, EINVAL, "type [%u] refers to a type id past the last type [%u]",
					       id, r->nr_split - 1);
	return 0;
}

static int rewrite_id(uint32_t *slot, void *ctx)
{
	const struct lbtfi_reloc *r = ctx;

	*slot = r->id_map[*slot];
	return 0;
}

/* Step 4; a failure is reported by the caller, which knows the type */
static int rewrite_str(uint32_t *slot, void *ctx)
{
	const struct lbtfi_reloc *r = ctx;
	uint64_t off = *slot;

	if (!off)
		return 0;
	if (off >= r->dist_str_len) {
		off += (uint64_t)r->base_str_len - r->dist_str_len;
		if (off > UINT32_MAX)
			return -E2BIG;
		*slot = off;
		return 0;
	}
	if (!r->str_map[off])
		return -ENOENT;
	*slot = r->str_map[off];
	return 0;
}

/* Steps 3-5: the result over base */
static struct lbtf *rewrite(struct lbtfi_reloc *r)
{
	size_t size;
	const unsigned char *raw = lbtf_raw_data(r->split, &size);
	const struct lbtf_header *h = lbtf_header(r->split);
	/* lead bytes that put the type records on a 4-byte boundary */
	size_t pad = (4 - (h->hdr_len + h->type_off) % 4) % 4;
	unsigned char *buf = malloc(size + pad), *copy = buf + pad;
	struct lbtf *out;
	int err;

	if (!buf)
		return lbtfi_err_ptr(ENOMEM, "out of memory relocating");
	memcpy(copy, raw, size);
	for (uint32_t id = r->nr_dist; id < r->nr_split; id++) {
		const unsigned char *t = (const unsigned char *)lbtf_type_by_id(r->split, id);
		struct lbtf_type *c = (struct lbtf_type *)(void *)(copy + (t - raw));

		lbtf_type_visit_type_ids(c, rewrite_id, r);
		err = lbtf_type_visit_str_offs(c, rewrite_str, r);
		if (err == -ENOENT) {
			lbtfi_reloc_err(r, ENOENT, "type [%u] names a string of the distilled base that is no distilled type's name: it cannot be relocated",
					id);
			goto fail;
		}
		if (err) {
			lbtfi_reloc_err(r, E2BIG, "type [%u]: its names lie past 4 GiB of strings over this base",
					id);
			goto fail;
		}
	}
	out = lbtf_new(copy, size, r->base);
	if (!out) {
		err = errno;
		lbtfi_reloc_err(r, err, "relocated BTF: %s", lbtf_errmsg());
		free(buf);
		errno = err;
		return NULL;
	}
	free(buf);
	return out;
fail:
	free(buf);
	errno = -err;
	return NULL;
}

/* NULL with errno set from a negative errno */
static void *failed(int err)
{
	errno = -err;
	return NULL;
}

struct lbtf *lbtf_relocate(const struct lbtf *split, const struct lbtf *base,
			   const struct lbtf_relocate_opts *opts)
{
	struct lbtf_relocate_opts o;
	struct lbtfi_reloc r = { 0 };
	struct lbtf *out = NULL;
	int err;

	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_relocate_opts)))
		return failed(err);
	r.name = o.name;
	if (!split || !base)
		return failed(lbtfi_reloc_err(&r, EINVAL, "nothing to relocate, or no base to relocate onto"));
	r.split = split;
	r.dist = lbtf_base(split);
	r.base = base;
	if (!r.dist)
		return failed(lbtfi_reloc_err(&r, EINVAL, "not split BTF: there is no distilled base to relocate from"));
	if (r.dist == base)
		return failed(lbtfi_reloc_err(&r, EINVAL, "the base to relocate onto is the distilled base itself"));
	if (lbtf_base(base))
		return failed(lbtfi_reloc_err(&r, EINVAL, "the base to relocate onto is split BTF itself"));
	if ((err = lbtf_distilled_base_check(r.dist, o.name)))
		return failed(err);
	r.nr_dist = lbtf_type_cnt(r.dist);
	r.nr_split = lbtf_type_cnt(split);
	r.nr_base = lbtf_type_cnt(base);
	lbtf_strings(r.dist, &r.dist_str_len);
	lbtf_strings(base, &r.base_str_len);
	if ((err = check_ids(&r)))
		return failed(err);
	r.id_map = calloc(r.nr_split, sizeof(*r.id_map));
	r.str_map = calloc(r.dist_str_len ? r.dist_str_len : 1, sizeof(*r.str_map));
	if (!r.id_map || !r.str_map) {
		err = lbtfi_reloc_err(&r, ENOMEM, "out of memory relocating");
		goto out;
	}
	for (uint32_t id = r.nr_dist; id < r.nr_split; id++)
		r.id_map[id] = id - r.nr_dist + r.nr_base;
	err = lbtfi_reloc_match(&r);
	if (!err && !(out = rewrite(&r)))
		err = -errno;
out:
	free(r.id_map);
	free(r.str_map);
	if (err)
		errno = -err;
	return out;
}
