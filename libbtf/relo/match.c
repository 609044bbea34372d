// SPDX-License-Identifier: BSD-2-Clause
/*
 * Does a target candidate fit a local spec? libbpf's three relations:
 *  - field compatibility (field kinds): structs and unions mix, pointers and
 *    floats always fit, enums and forward declarations by essential name
 *    (or one anonymous), integers unless bitfield-like (offset != 0),
 *    arrays by element type;
 *  - type compatibility (type_exists, type_size, target_type_id): the same
 *    kind (enum and enum64 mix), pointers, arrays and prototypes recursively,
 *    names ignored below the root;
 *  - type match (type_matches): names, sizes, signedness and members all
 *    the way down, a struct behind a pointer by name and kind only.
 * Each returns 1 (fits), 0 (does not) or a negative errno.
 */
#include <errno.h>
#include <string.h>
#include "internal.h"

#define MAX_DEPTH 32

static size_t essential_len(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (name[i] != '_' && name[i + 1] == '_' && name[i + 2] == '_' &&
		    name[i + 3] == '_' && name[i + 4] != '_')
			return i + 1;
	return n;
}

size_t relo_essential_len(const char *name)
{
	return essential_len(name);
}

static int types_compat(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid,
			int level)
{
	const struct lbtf_type *lt = lbtf_type_by_id(lb, lid), *tt = lbtf_type_by_id(tb, tid);

	if (!lt || !tt || !relo_kind_compat(lt, tt))
		return 0;
	for (int depth = MAX_DEPTH; depth-- > 0;) {
		lt = relo_skip(lb, &lid);
		tt = relo_skip(tb, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!relo_kind_compat(lt, tt))
			return 0;
		switch (lbtf_kind(lt)) {
		case LBTF_KIND_UNKN: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		case LBTF_KIND_ENUM: case LBTF_KIND_FWD: case LBTF_KIND_ENUM64:
			return 1;
		case LBTF_KIND_INT:
			return lbtf_int_offset(lt) == 0 && lbtf_int_offset(tt) == 0;
		case LBTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			break;
		case LBTF_KIND_ARRAY:
			lid = lbtf_array(lt)->type;
			tid = lbtf_array(tt)->type;
			break;
		case LBTF_KIND_FUNC_PROTO: {
			const struct lbtf_param *lp = lbtf_params(lt), *tp = lbtf_params(tt);

			if (lbtf_vlen(lt) != lbtf_vlen(tt))
				return 0;
			for (unsigned int i = 0; i < lbtf_vlen(lt); i++) {
				uint32_t a = lp[i].type, b = tp[i].type;
				int err;

				if (level <= 0)
					return -EINVAL;
				relo_skip(lb, &a);
				relo_skip(tb, &b);
				err = types_compat(lb, a, tb, b, level - 1);
				if (err <= 0)
					return err;
			}
			lid = lt->type;
			tid = tt->type;
			relo_skip(lb, &lid);
			relo_skip(tb, &tid);
			break;
		}
		default:
			return 0;
		}
	}
	return -EINVAL;
}

static bool names_essentially_equal(const char *a, const char *b)
{
	size_t la = essential_len(a), lb = essential_len(b);

	return la == lb && !strncmp(a, b, la);
}

static int fields_compat(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid)
{
	for (;;) {
		const struct lbtf_type *lt = relo_skip(lb, &lid), *tt = relo_skip(tb, &tid);

		if (!lt || !tt)
			return -EINVAL;
		if (lbtf_is_composite(lt) && lbtf_is_composite(tt))
			return 1;
		if (!relo_kind_compat(lt, tt))
			return 0;
		switch (lbtf_kind(lt)) {
		case LBTF_KIND_PTR: case LBTF_KIND_FLOAT:
			return 1;
		case LBTF_KIND_FWD: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: {
			const char *ln = relo_str(lb, lt->name_off), *tn = relo_str(tb, tt->name_off);

			return !essential_len(ln) || !essential_len(tn) || names_essentially_equal(ln, tn);
		}
		case LBTF_KIND_INT:
			return lbtf_int_offset(lt) == 0 && lbtf_int_offset(tt) == 0;
		case LBTF_KIND_ARRAY:
			lid = lbtf_array(lt)->type;
			tid = lbtf_array(tt)->type;
			break;
		default:
			return 0;
		}
	}
}

/*
 * The member of target type tid that local accessor la names, searched
 * through anonymous members depth first; its steps pushed onto targ and its
 * type in *next. 1 found (and compatible), 0 not, <0 error.
 */
static int match_member(const struct lbtf *lb, const struct racc *la, const struct lbtf *tb,
			uint32_t tid, struct rspec *targ, uint32_t *next)
{
	const struct lbtf_type *tt = relo_skip(tb, &tid), *lt;
	const struct lbtf_member *lm;
	const char *lname;

	if (!tt)
		return -EINVAL;
	if (!lbtf_is_composite(tt))
		return 0;
	lt = lbtf_type_by_id(lb, la->type_id);
	lm = &lbtf_members(lt)[la->idx];
	lname = relo_str(lb, lm->name_off);
	for (unsigned int i = 0; i < lbtf_vlen(tt); i++) {
		const struct lbtf_member *m = &lbtf_members(tt)[i];
		uint32_t bit_off = lbtf_member_bit_offset(tt, i);
		const char *tname;
		int found;

		if (targ->raw_len == RELO_SPEC_MAX)
			return -E2BIG;
		targ->bit_off += bit_off;
		targ->raw[targ->raw_len++] = i;
		tname = relo_str(tb, m->name_off);
		if (!*tname) {
			found = match_member(lb, la, tb, m->type, targ, next);
			if (found)
				return found;
		} else if (!strcmp(lname, tname)) {
			struct racc *ta = &targ->acc[targ->len++];

			ta->type_id = tid;
			ta->idx = i;
			ta->name = tname;
			*next = m->type;
			found = fields_compat(lb, lm->type, tb, m->type);
			if (!found)
				targ->len--;
			return found;
		}
		targ->bit_off -= bit_off;
		targ->raw_len--;
	}
	return 0;
}

static int enumval_match(const struct rspec *local, const struct lbtf *tb, uint32_t tid,
			 struct rspec *targ)
{
	const struct lbtf_type *tt = relo_skip(tb, &tid);
	const char *lname = local->acc[0].name;
	size_t llen = essential_len(lname);

	if (!tt || !lbtf_is_enum(tt))
		return 0;
	for (unsigned int i = 0; i < lbtf_vlen(tt); i++) {
		const char *tname = relo_str(tb, lbtf_kind(tt) == LBTF_KIND_ENUM ?
						     lbtf_enums(tt)[i].name_off :
						     lbtf_enums64(tt)[i].name_off);

		if (essential_len(tname) != llen || strncmp(lname, tname, llen))
			continue;
		targ->acc[0] = (struct racc){ .type_id = tid, .idx = i, .name = tname };
		targ->len = 1;
		targ->raw[0] = i;
		targ->raw_len = 1;
		return 1;
	}
	return 0;
}

int relo_spec_match(const struct rspec *local, const struct lbtf *tb, uint32_t tid,
		    struct rspec *targ)
{
	memset(targ, 0, sizeof(*targ));
	targ->btf = tb;
	targ->root_id = tid;
	targ->kind = local->kind;
	if (relo_is_type(local->kind)) {
		if (local->kind == LBTF_CORE_TYPE_MATCHES)
			return relo_types_match(local->btf, local->root_id, tb, tid);
		return relo_types_compat(local->btf, local->root_id, tb, tid);
	}
	if (relo_is_enumval(local->kind))
		return enumval_match(local, tb, tid, targ);
	if (!relo_is_field(local->kind))
		return -EINVAL;
	for (int i = 0; i < local->len; i++) {
		const struct racc *la = &local->acc[i];
		const struct lbtf_type *tt = relo_skip(tb, &tid);
		int64_t sz;

		if (!tt)
			return -EINVAL;
		if (la->name) {
			int m = match_member(local->btf, la, tb, tid, targ, &tid);

			if (m <= 0)
				return m;
			continue;
		}
		if (i > 0) {
			const struct lbtf_array *a;
			bool flex;

			if (lbtf_kind(tt) != LBTF_KIND_ARRAY)
				return 0;
			a = lbtf_array(tt);
			flex = relo_is_flex(tb, &targ->acc[targ->len - 1], a);
			if (!flex && la->idx >= a->nelems)
				return 0;
			tid = a->type;
			if (!relo_skip(tb, &tid))
				return -EINVAL;
		}
		if (targ->raw_len == RELO_SPEC_MAX)
			return -E2BIG;
		targ->acc[targ->len++] = (struct racc){ .type_id = tid, .idx = la->idx, .name = NULL };
		targ->raw[targ->raw_len++] = la->idx;
		if ((sz = lbtf_resolve_size(tb, tid)) < 0)
			return (int)sz;
		targ->bit_off += (uint32_t)(la->idx * sz * 8);
	}
	return 1;
}

int relo_types_compat(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid)
{
	return types_compat(lb, lid, tb, tid, MAX_DEPTH);
}

/* ---- type_matches ---- */

static int match(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid,
		 bool behind_ptr, int level);

static bool names_match(const struct lbtf *lb, uint32_t loff, const struct lbtf *tb, uint32_t toff)
{
	const char *ln = relo_str(lb, loff), *tn = relo_str(tb, toff);

	if (!*tn)
		return !*ln;
	return names_essentially_equal(ln, tn);
}

static uint32_t enum_name_off(const struct lbtf_type *t, unsigned int i)
{
	return lbtf_kind(t) == LBTF_KIND_ENUM ? lbtf_enums(t)[i].name_off : lbtf_enums64(t)[i].name_off;
}

static int enums_match(const struct lbtf *lb, const struct lbtf_type *lt, const struct lbtf *tb,
		       const struct lbtf_type *tt)
{
	if (lt->size != tt->size || lbtf_vlen(lt) > lbtf_vlen(tt))
		return 0;
	for (unsigned int i = 0; i < lbtf_vlen(lt); i++) {
		bool found = false;

		for (unsigned int j = 0; j < lbtf_vlen(tt) && !found; j++)
			found = names_match(lb, enum_name_off(lt, i), tb, enum_name_off(tt, j));
		if (!found)
			return 0;
	}
	return 1;
}

static int composites_match(const struct lbtf *lb, const struct lbtf_type *lt, const struct lbtf *tb,
			    const struct lbtf_type *tt, bool behind_ptr, int level)
{
	if (lbtf_vlen(lt) > lbtf_vlen(tt))
		return 0;
	for (unsigned int i = 0; i < lbtf_vlen(lt); i++) {
		const struct lbtf_member *lm = &lbtf_members(lt)[i];
		bool found = false;

		for (unsigned int j = 0; j < lbtf_vlen(tt) && !found; j++) {
			const struct lbtf_member *tm = &lbtf_members(tt)[j];
			int err;

			if (!names_match(lb, lm->name_off, tb, tm->name_off))
				continue;
			err = match(lb, lm->type, tb, tm->type, behind_ptr, level - 1);
			if (err < 0)
				return err;
			found = err > 0;
		}
		if (!found)
			return 0;
	}
	return 1;
}

static int match(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid,
		 bool behind_ptr, int level)
{
	if (level <= 0)
		return -EINVAL;
	for (int depth = MAX_DEPTH; depth-- > 0;) {
		const struct lbtf_type *lt = relo_skip(lb, &lid), *tt = relo_skip(tb, &tid);
		unsigned int lk, tk;

		if (!lt || !tt)
			return -EINVAL;
		if (!names_match(lb, lt->name_off, tb, tt->name_off))
			return 0;
		lk = lbtf_kind(lt);
		tk = lbtf_kind(tt);
		switch (lk) {
		case LBTF_KIND_UNKN:
			return lk == tk;
		case LBTF_KIND_FWD:
			if (behind_ptr && lk != tk)
				return (tk == LBTF_KIND_STRUCT && !lbtf_kflag(lt)) ||
				       (tk == LBTF_KIND_UNION && lbtf_kflag(lt));
			return lk == tk && lbtf_kflag(lt) == lbtf_kflag(tt);
		case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
			return lbtf_is_enum(tt) && enums_match(lb, lt, tb, tt);
		case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
			if (behind_ptr) {
				if (lk == tk)
					return 1;
				return tk == LBTF_KIND_FWD && (lk == LBTF_KIND_UNION) == lbtf_kflag(tt);
			}
			return lk == tk && composites_match(lb, lt, tb, tt, behind_ptr, level);
		case LBTF_KIND_INT:
			return lk == tk && lt->size == tt->size &&
			       (lbtf_int_encoding(lt) & LBTF_INT_SIGNED) ==
				       (lbtf_int_encoding(tt) & LBTF_INT_SIGNED);
		case LBTF_KIND_PTR:
			if (lk != tk)
				return 0;
			behind_ptr = true;
			lid = lt->type;
			tid = tt->type;
			break;
		case LBTF_KIND_ARRAY:
			if (lk != tk || lbtf_array(lt)->nelems != lbtf_array(tt)->nelems)
				return 0;
			lid = lbtf_array(lt)->type;
			tid = lbtf_array(tt)->type;
			break;
		case LBTF_KIND_FUNC_PROTO:
			if (lk != tk || lbtf_vlen(lt) != lbtf_vlen(tt))
				return 0;
			for (unsigned int i = 0; i < lbtf_vlen(lt); i++) {
				int err = match(lb, lbtf_params(lt)[i].type, tb, lbtf_params(tt)[i].type,
						behind_ptr, level - 1);
				if (err <= 0)
					return err;
			}
			lid = lt->type;
			tid = tt->type;
			break;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

int relo_types_match(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid)
{
	return match(lb, lid, tb, tid, false, MAX_DEPTH);
}
