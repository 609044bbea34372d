// SPDX-License-Identifier: BSD-2-Clause
/*
 * Rewriting a .BTF.ext onto a new .BTF (the one btfgen made from DWARF in
 * place of clang's): every record stays where it is (so a .rel.BTF.ext,
 * whose relocations patch insn_off words, stays valid); section names,
 * file names, source lines and access strings are interned in the new
 * string section; func_info FUNCs and CO-RE root types are mapped by
 * typemap.c; each access string is walked again over the new types by
 * member name and bit offset, array index and enumerator name, and must
 * reach a field of the same kind and size, or the rewrite fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf_build.h"
#include "internal.h"

#define MAX_STEPS 64

struct remap {
	struct lbtf_ext *out; /* copy of the input, patched in place */
	const struct lbtf *old, *new;
	struct lbtf_builder *b;
	struct lbtfi_typemap tm;
	const char *sec; /* section being rewritten, for messages */
};

static int str(struct remap *r, uint32_t old_off, const char *what, uint32_t *new_off)
{
	const char *s = lbtf_name_by_offset(r->old, old_off);
	int off;

	if (!s)
		return lbtfi_err(EINVAL, "section %s: %s string offset %u is past the old .BTF strings",
				 r->sec ? r->sec : "?", what, old_off);
	off = lbtf_builder_add_str(r->b, s);
	if (off < 0)
		return off;
	*new_off = (uint32_t)off;
	return 0;
}

static int new_type(struct remap *r, uint32_t old_id, const char *what, uint32_t insn_off)
{
	int id = lbtfi_typemap_get(&r->tm, old_id);

	if (id < 0) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
		return lbtfi_err(-id, "section %s, %s at insn offset %u: %s", r->sec, what, insn_off, msg);
	}
	return id;
}

/* Member of new composite t for an old step: same name, same bit offset */
static int find_member(struct remap *r, const struct lbtf_type *t, const struct lbtf_core_step *st)
{
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		const char *n = lbtf_name_by_offset(r->new, lbtf_members(t)[i].name_off);

		if (n && !strcmp(n, st->name) && lbtf_member_bit_offset(t, i) == st->bit_off)
			return (int)i;
	}
	return -1;
}

static bool same_leaf(const struct lbtf *a, uint32_t ida, const struct lbtf *b, uint32_t idb)
{
	const struct lbtf_type *ta = lbtf_type_by_id(a, ida), *tb = lbtf_type_by_id(b, idb);

	if (!ta || !tb || lbtf_kind(ta) != lbtf_kind(tb))
		return false;
	if (lbtf_kind(ta) == LBTF_KIND_INT && lbtf_int_encoding(ta) != lbtf_int_encoding(tb))
		return false;
	if (lbtf_kind(ta) == LBTF_KIND_PTR || lbtf_kind(ta) == LBTF_KIND_FUNC_PROTO ||
	    lbtf_kind(ta) == LBTF_KIND_FWD)
		return true;
	return lbtf_resolve_size(a, ida) == lbtf_resolve_size(b, idb);
}

/*
 * The access string of relocation rel (root already mapped to new_root)
 * spelled for the new types, into buf; 0 or a negative errno naming why.
 */
static int remap_access(struct remap *r, const struct lbtf_ext_core_relo *rel, const char *acc,
			uint32_t new_root, char *buf, size_t size)
{
	struct lbtf_core_step st[MAX_STEPS];
	char d[160];
	int n, oid, nid;
	size_t len = 0;

	n = lbtf_core_access_resolve(r->old, rel->type_id, rel->kind, acc, st, MAX_STEPS);
	if (n < 0 || n > MAX_STEPS)
		return lbtfi_err(n < 0 ? -n : E2BIG, "section %s, CO-RE relocation at insn offset %u: access '%s' does not resolve in the old .BTF",
				 r->sec, rel->insn_off, acc);
	oid = lbtf_resolve_type(r->old, rel->type_id);
	nid = lbtf_resolve_type(r->new, new_root);
	if (oid < 0 || nid < 0 || !same_leaf(r->old, (uint32_t)oid, r->new, (uint32_t)nid))
		goto differ;
	if (rel->kind >= LBTF_CORE_TYPE_ID_LOCAL && rel->kind <= LBTF_CORE_TYPE_SIZE)
		return snprintf(buf, size, "0") < 0 ? -EINVAL : 0;
	if (rel->kind == LBTF_CORE_TYPE_MATCHES)
		return snprintf(buf, size, "0") < 0 ? -EINVAL : 0;
	if (rel->kind == LBTF_CORE_ENUMVAL_EXISTS || rel->kind == LBTF_CORE_ENUMVAL_VALUE) {
		const struct lbtf_type *t = lbtf_type_by_id(r->new, (uint32_t)nid);

		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			uint32_t no = lbtf_kind(t) == LBTF_KIND_ENUM ? lbtf_enums(t)[i].name_off :
								     lbtf_enums64(t)[i].name_off;

			const char *nn = lbtf_name_by_offset(r->new, no);

			if (nn && !strcmp(nn, st[0].name)) {
				snprintf(buf, size, "%u", i);
				return 0;
			}
		}
		return lbtfi_err(ENOENT, "section %s, CO-RE relocation at insn offset %u: enumerator %s of %s is not in the new BTF",
				 r->sec, rel->insn_off, st[0].name, lbtfi_typemap_desc(&r->tm, rel->type_id, d, sizeof(d)));
	}
	len = (size_t)snprintf(buf, size, "%u", st[0].idx);
	for (int i = 1; i < n; i++) {
		const struct lbtf_type *ot = lbtf_type_by_id(r->old, (uint32_t)oid);
		const struct lbtf_type *nt = lbtf_type_by_id(r->new, (uint32_t)nid);
		uint32_t idx = st[i].idx, oref, nref;

		if (st[i].name) {
			int j;

			if (!lbtf_is_composite(nt) || lbtf_kind(nt) != lbtf_kind(ot))
				goto differ;
			j = find_member(r, nt, &st[i]);
			if (j < 0)
				return lbtfi_err(ENOENT, "section %s, CO-RE relocation at insn offset %u: access '%s' of %s: member '%s' at bit %u (step %d) is not in the new BTF's type",
						 r->sec, rel->insn_off, acc, lbtfi_typemap_desc(&r->tm, rel->type_id, d, sizeof(d)),
						 st[i].name, st[i].bit_off, i);
			if (lbtf_member_bitfield_size(nt, (unsigned int)j) != lbtf_member_bitfield_size(ot, idx))
				goto differ;
			oref = lbtf_members(ot)[idx].type;
			nref = lbtf_members(nt)[j].type;
			idx = (uint32_t)j;
		} else {
			if (lbtf_kind(nt) != LBTF_KIND_ARRAY || lbtf_kind(ot) != LBTF_KIND_ARRAY ||
			    lbtf_array(nt)->nelems != lbtf_array(ot)->nelems)
				goto differ;
			oref = lbtf_array(ot)->type;
			nref = lbtf_array(nt)->type;
		}
		oid = lbtf_resolve_type(r->old, oref);
		nid = lbtf_resolve_type(r->new, nref);
		if (oid < 0 || nid < 0 || !same_leaf(r->old, (uint32_t)oid, r->new, (uint32_t)nid))
			goto differ;
		len += (size_t)snprintf(buf + (len < size ? len : size), len < size ? size - len : 0, ":%u", idx);
	}
	if (len >= size)
		return lbtfi_err(E2BIG, "section %s: access string '%s' too long", r->sec, acc);
	return 0;
differ:
	return lbtfi_err(ENOENT, "section %s, CO-RE relocation at insn offset %u (%s): access '%s' of %s reaches a type of another kind or size in the new BTF",
			 r->sec, rel->insn_off, lbtf_core_relo_kind_name(rel->kind) ? lbtf_core_relo_kind_name(rel->kind) : "?",
			 acc, lbtfi_typemap_desc(&r->tm, rel->type_id, d, sizeof(d)));
}

static int remap_sec(struct remap *r, enum lbtf_ext_kind kind, uint32_t s)
{
	const struct lbtfi_ext_kind *k = &r->out->kinds[kind];
	const struct lbtfi_ext_sec *sec = &k->secs[s];
	uint32_t off;
	int err, id;

	r->sec = lbtf_name_by_offset(r->old, sec->name_off);
	if (!r->sec)
		return lbtfi_err(EINVAL, ".BTF.ext: section name offset %u is past the old .BTF strings",
				 sec->name_off);
	if ((err = str(r, sec->name_off, "section name", &off)))
		return err;
	lbtfi_ext_set_word(r->out, sec->name_pos, off);
	for (uint32_t i = 0; i < sec->rec_cnt; i++) {
		size_t p = sec->rec_off + (size_t)i * k->rec_size;
		uint32_t insn = lbtfi_ext_word(r->out, p);

		switch (kind) {
		case LBTF_EXT_FUNC_INFO: {
			const struct lbtf_type *t = lbtf_type_by_id(r->old, lbtfi_ext_word(r->out, p + 4));

			if (!t || lbtf_kind(t) != LBTF_KIND_FUNC)
				return lbtfi_err(EINVAL, "section %s, func_info at insn offset %u: type [%u] is not a FUNC",
						 r->sec, insn, lbtfi_ext_word(r->out, p + 4));
			if ((id = new_type(r, lbtfi_ext_word(r->out, p + 4), "func_info", insn)) < 0)
				return id;
			lbtfi_ext_set_word(r->out, p + 4, (uint32_t)id);
			break;
		}
		case LBTF_EXT_LINE_INFO:
			if ((err = str(r, lbtfi_ext_word(r->out, p + 4), "line_info file name", &off)))
				return err;
			lbtfi_ext_set_word(r->out, p + 4, off);
			if ((err = str(r, lbtfi_ext_word(r->out, p + 8), "line_info line", &off)))
				return err;
			lbtfi_ext_set_word(r->out, p + 8, off);
			break;
		case LBTF_EXT_CORE_RELO: {
			struct lbtf_ext_core_relo rel;
			const char *acc;
			char buf[512];

			rel.insn_off = insn;
			rel.type_id = lbtfi_ext_word(r->out, p + 4);
			rel.access_str_off = lbtfi_ext_word(r->out, p + 8);
			rel.kind = lbtfi_ext_word(r->out, p + 12);
			acc = lbtf_name_by_offset(r->old, rel.access_str_off);
			if (!acc || rel.kind >= LBTF_CORE_RELO_KIND_CNT)
				return lbtfi_err(EINVAL, "section %s, CO-RE relocation at insn offset %u: bad access string offset %u or kind %u",
						 r->sec, insn, rel.access_str_off, rel.kind);
			if ((id = new_type(r, rel.type_id, "CO-RE relocation root", insn)) < 0)
				return id;
			if ((err = remap_access(r, &rel, acc, (uint32_t)id, buf, sizeof(buf))))
				return err;
			if ((err = lbtf_builder_add_str(r->b, buf)) < 0)
				return err;
			lbtfi_ext_set_word(r->out, p + 4, (uint32_t)id);
			lbtfi_ext_set_word(r->out, p + 8, (uint32_t)err);
			break;
		}
		default:
			break;
		}
	}
	return 0;
}

/* The builder's types as parsed BTF */
static struct lbtf *read_back(struct lbtf_builder *b)
{
	struct lbtf *btf;
	void *data;
	size_t size;
	int err = lbtf_builder_serialize(b, false, &data, &size);

	if (err) {
		errno = -err;
		return NULL;
	}
	btf = lbtf_new(data, size, NULL);
	free(data);
	return btf;
}

/* CO-RE root types the new BTF lacks (clang adds types DWARF does not
 * have, e.g. the argument of bpf_core_type_exists()) come from the old */
static int copy_missing_roots(struct remap *r)
{
	const struct lbtfi_ext_kind *k = &r->out->kinds[LBTF_EXT_CORE_RELO];

	for (uint32_t s = 0; s < k->sec_cnt; s++)
		for (uint32_t i = 0; i < k->secs[s].rec_cnt; i++) {
			size_t p = k->secs[s].rec_off + (size_t)i * k->rec_size;
			int id = lbtfi_typemap_get_or_copy(&r->tm, r->b, lbtfi_ext_word(r->out, p + 4));

			if (id < 0 && id != -ENOTUNIQ && id != -ENOENT)
				return id;
		}
	return 0;
}

int lbtf_ext_remap(const struct lbtf_ext *ext, const struct lbtf *old_btf, struct lbtf_builder *b,
		   void **data, size_t *size)
{
	struct remap r = { .old = old_btf, .b = b };
	struct lbtf *new_btf;
	int err;

	if (!ext || !old_btf || !b || !data || !size)
		return lbtfi_err(EINVAL, "lbtf_ext_remap: bad arguments");
	new_btf = read_back(b);
	if (!new_btf)
		return -errno;
	r.out = lbtf_ext_new(ext->data, ext->size);
	if (!r.out) {
		lbtf_free(new_btf);
		return -errno;
	}
	r.new = new_btf;
	err = lbtfi_typemap_init(&r.tm, old_btf, new_btf);
	if (!err)
		err = copy_missing_roots(&r);
	if (!err && r.tm.copied) {
		lbtf_free(new_btf);
		r.new = new_btf = read_back(b);
		if (!new_btf)
			err = -errno;
		else
			lbtfi_typemap_set_new(&r.tm, new_btf);
	}
	for (unsigned int k = 0; !err && k < LBTF_EXT_KIND_CNT; k++)
		for (uint32_t s = 0; !err && s < r.out->kinds[k].sec_cnt; s++)
			err = remap_sec(&r, (enum lbtf_ext_kind)k, s);
	lbtfi_typemap_free(&r.tm);
	lbtf_free(new_btf);
	if (err) {
		lbtf_ext_free(r.out);
		return err;
	}
	*data = r.out->data;
	*size = r.out->size;
	r.out->data = NULL;
	lbtf_ext_free(r.out);
	return 0;
}
