// SPDX-License-Identifier: BSD-2-Clause
/*
 * The type set of a BPF object: no larger than the one clang emits.
 *
 * A unit's DWARF describes every type its code touches (locals, casts,
 * whole headers such as vmlinux.h reached through pointers); clang's BTF
 * for the same object holds only what the program's interface needs. This
 * pass, run on EM_BPF objects after dedup and pruning, keeps what clang
 * keeps, by clang's rule:
 *
 *  - Roots: every FUNC (and its prototype), VAR and DATASEC.
 *  - A type reached from a root is kept, and so is what it refers to, with
 *    one exception: inside a struct/union member's type, once a pointer
 *    has been passed, a typedef/pointer/modifier/type tag whose target is a
 *    named struct or union does not make that struct complete. Such a
 *    struct stays complete only if some other path reaches it (a FUNC
 *    parameter, a variable, an array element, a function pointer's
 *    prototype, a member embedding it by value); otherwise the reference
 *    goes to a FWD of its name. A member of a variable in .maps is visited
 *    as a root (map key and value types are complete), as clang does.
 *  - When the input already has a .BTF (clang's, or an earlier btfgen
 *    run's), it says what else the program needs and DWARF cannot tell:
 *    CO-RE relocation roots, __builtin_btf_type_id() and
 *    bpf_core_type_exists() types. Every struct/union it has complete is a
 *    root (complete here too); every other named type it has (enum,
 *    typedef, int, ...) is a root visited as if behind a member's pointer,
 *    so it keeps its name without making a struct complete that clang
 *    left a FWD (a typedef of a struct reached through a pointer).
 *    A .BTF that cannot be read adds nothing (the DWARF-only rule).
 *  - A DECL_TAG stays when what it tags stays.
 *
 * With only DWARF (no .BTF), the types clang would add for CO-RE
 * relocations and type-id builtins are unknown: a struct reached only
 * through pointers and used only by CO-RE access is a FWD.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

enum { M_ROOT = 1, M_MEMBER = 2, M_PTR = 4 }; /* visit modes, one bit each */

struct bset {
	struct lbtf *btf;
	uint32_t start, cnt;
	uint8_t *seen;       /* per id - start: the modes it was visited in */
	uint8_t *is_map;     /* per id - start: a VAR of the .maps DATASEC */
	uint32_t *newid;     /* per id - start, 0 dropped */
	struct { uint32_t id; uint8_t mode; } *stack;
	uint32_t sp, cap;
	/* open addressing: aggr key + 1 -> new id. Not util/htab.h: the
	 * key (a name offset and a flavour bit) is a 32-bit value that is
	 * its own hash and sits in the slot, so a probe reads no type
	 * record; sized once for every type of the object (at most half
	 * full), it never grows or deletes, and a lookup that misses
	 * claims the slot (fwd_slot) */
	uint32_t *fwd_key, *fwd_id;
	uint32_t fwd_mask;
	uint32_t *fwds, nfwds; /* the structs FWDs are made for */
	uint32_t next;         /* next new id */
};

static const struct lbtf_type *type_at(const struct bset *s, uint32_t id)
{
	return lbtf_type_by_id(s->btf, id);
}

static bool ours(const struct bset *s, uint32_t id)
{
	return id >= s->start && id < s->cnt;
}

static bool named_aggr(const struct lbtf_type *t)
{
	return t && lbtf_is_composite(t) && t->name_off;
}

static int push(struct bset *s, uint32_t id, uint8_t mode)
{
	if (!ours(s, id) || (s->seen[id - s->start] & mode))
		return 0;
	s->seen[id - s->start] |= mode;
	if (LBTFI_GROW_FROM(s->stack, s->cap, s->sp + 1, 256))
		return lbtfi_err(ENOMEM, "out of memory");
	s->stack[s->sp].id = id;
	s->stack[s->sp++].mode = mode;
	return 0;
}

/* The strongest of what a typedef/pointer/modifier passes on */
static int follow(struct bset *s, uint32_t target, uint8_t mode)
{
	/* behind a pointer in a member: a named struct is only pointed at */
	if (mode == M_PTR && ours(s, target) && named_aggr(type_at(s, target)))
		return 0;
	return push(s, target, mode);
}

/* A .maps VAR's struct: its members' types are visited as roots */
static int visit_map_var(struct bset *s, uint32_t type)
{
	const struct lbtf_type *t = type_at(s, type);
	unsigned int i;
	int err = 0;

	while (t && (lbtf_kind(t) == LBTF_KIND_TYPEDEF || lbtf_kind(t) == LBTF_KIND_CONST ||
		     lbtf_kind(t) == LBTF_KIND_VOLATILE || lbtf_kind(t) == LBTF_KIND_RESTRICT))
		t = type_at(s, t->type);
	if (!t || lbtf_kind(t) != LBTF_KIND_STRUCT)
		return 0;
	for (i = 0; !err && i < lbtf_vlen(t); i++)
		err = push(s, lbtf_members(t)[i].type, M_ROOT);
	return err;
}

static int visit(struct bset *s, uint32_t id, uint8_t mode)
{
	const struct lbtf_type *t = type_at(s, id);
	unsigned int i;
	int err = 0;

	switch (lbtf_kind(t)) {
	case LBTF_KIND_PTR:
		return follow(s, t->type, mode == M_ROOT ? M_ROOT : M_PTR);
	case LBTF_KIND_TYPEDEF: case LBTF_KIND_CONST: case LBTF_KIND_VOLATILE:
	case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
		return follow(s, t->type, mode);
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		for (i = 0; !err && i < lbtf_vlen(t); i++)
			err = push(s, lbtf_members(t)[i].type, M_MEMBER);
		return err;
	case LBTF_KIND_ARRAY:
		return push(s, lbtf_array(t)->type, M_ROOT) ?: push(s, lbtf_array(t)->index_type, M_ROOT);
	case LBTF_KIND_FUNC_PROTO:
		err = push(s, t->type, M_ROOT);
		for (i = 0; !err && i < lbtf_vlen(t); i++)
			err = push(s, lbtf_params(t)[i].type, M_ROOT);
		return err;
	case LBTF_KIND_FUNC:
		return push(s, t->type, M_ROOT);
	case LBTF_KIND_VAR:
		if (s->is_map[id - s->start] && (err = visit_map_var(s, t->type)))
			return err;
		return push(s, t->type, M_ROOT);
	case LBTF_KIND_DATASEC:
		for (i = 0; !err && i < lbtf_vlen(t); i++)
			err = push(s, lbtf_secinfos(t)[i].type, M_ROOT);
		return err;
	default:
		return 0;
	}
}

static bool is_sec(const struct lbtf *btf, const struct lbtf_type *t, const char *name)
{
	const char *n = lbtf_name_by_offset(btf, t->name_off);

	return lbtf_kind(t) == LBTF_KIND_DATASEC && n && !strcmp(n, name);
}

/* The roots: FUNC, VAR, DATASEC; with the input's .BTF, its named types */
static int push_roots(struct bset *s, const struct lbtf *prev)
{
	uint32_t id;
	int err = 0;

	for (id = s->start; id < s->cnt; id++) {
		const struct lbtf_type *t = type_at(s, id);
		unsigned int i;

		if (is_sec(s->btf, t, ".maps"))
			for (i = 0; i < lbtf_vlen(t); i++)
				if (ours(s, lbtf_secinfos(t)[i].type))
					s->is_map[lbtf_secinfos(t)[i].type - s->start] = 1;
	}
	for (id = s->start; !err && id < s->cnt; id++) {
		const struct lbtf_type *t = type_at(s, id);
		unsigned int k = lbtf_kind(t);
		const char *name;

		if (k == LBTF_KIND_FUNC || k == LBTF_KIND_VAR || k == LBTF_KIND_DATASEC) {
			err = push(s, id, M_ROOT);
			continue;
		}
		if (!prev || !t->name_off || k == LBTF_KIND_FWD || k == LBTF_KIND_DECL_TAG)
			continue;
		name = lbtf_name_by_offset(s->btf, t->name_off);
		if (name && lbtf_find_by_name_kind(prev, name, k) > 0)
			err = push(s, id, lbtf_is_composite(t) ? M_ROOT : M_PTR);
	}
	return err;
}

static int walk(struct bset *s)
{
	int err = 0;

	while (!err && s->sp) {
		s->sp--;
		err = visit(s, s->stack[s->sp].id, s->stack[s->sp].mode);
	}
	return err;
}

static uint32_t aggr_key(const struct lbtf_type *t)
{
	bool is_union = lbtfi_eq_flavor(t) == LBTFI_FLAVOR_UNION;

	return (t->name_off | (uint32_t)is_union << 31) + 1;
}

/* The slot of key in the name table (a struct/union/FWD by name and flavour) */
static uint32_t *fwd_slot(struct bset *s, uint32_t key)
{
	uint32_t h = (key * 2654435761u) & s->fwd_mask;

	while (s->fwd_key[h] && s->fwd_key[h] != key)
		h = (h + 1) & s->fwd_mask;
	s->fwd_key[h] = key;
	return &s->fwd_id[h];
}

/* A reference of a kept type to a struct left out: to the complete one of
 * its name if one is kept, else to a FWD, numbered after the kept types
 * (s->fwds lists the structs to make them from) */
static int plan_fwd(uint32_t id, void *ctx)
{
	struct bset *s = ctx;
	const struct lbtf_type *t;
	uint32_t *fid;

	if (!ours(s, id) || s->newid[id - s->start])
		return 0;
	t = type_at(s, id);
	if (!named_aggr(t))
		return lbtfi_err(EINVAL, "type %u is referred to but not kept", id);
	fid = fwd_slot(s, aggr_key(t));
	if (!*fid) {
		*fid = s->next++;
		s->fwds[s->nfwds++] = id;
	}
	return 0;
}

static int remap(uint32_t *slot, void *ctx)
{
	struct bset *s = ctx;

	if (!ours(s, *slot))
		return 0;
	*slot = s->newid[*slot - s->start] ?: *fwd_slot(s, aggr_key(type_at(s, *slot)));
	return 0;
}

static bool kept(const struct bset *s, uint32_t id)
{
	return !ours(s, id) || s->seen[id - s->start];
}

/* DECL_TAGs of kept types stay (they refer to nothing else) */
static void keep_tags(struct bset *s)
{
	uint32_t id;

	for (id = s->start; id < s->cnt; id++) {
		const struct lbtf_type *t = type_at(s, id);

		if (lbtf_kind(t) == LBTF_KIND_DECL_TAG && kept(s, t->type))
			s->seen[id - s->start] |= M_ROOT;
	}
}

static struct lbtf_builder *rebuild(struct bset *s, const struct lbtf *base, int *errp)
{
	struct lbtf_builder *nb = lbtf_builder_new(base);
	struct lbtfi_import im = { 0 };
	uint32_t id, i;
	int pass, err = 0;

	if (!nb) {
		*errp = -ENOMEM;
		return NULL;
	}
	s->next = s->start;
	for (id = s->start; id < s->cnt; id++)
		s->newid[id - s->start] = s->seen[id - s->start] ? s->next++ : 0;
	/* a kept struct of the name stands for the copies left out, as the
	 * fixups of clang's BTF writer find it by name; else a kept FWD */
	for (pass = 0; pass < 2; pass++) {
		for (id = s->start; id < s->cnt; id++) {
			const struct lbtf_type *t = type_at(s, id);
			uint32_t *fid;

			if (!s->newid[id - s->start] || !t->name_off ||
			    !(pass ? lbtf_kind(t) == LBTF_KIND_FWD : lbtf_is_composite(t)))
				continue;
			fid = fwd_slot(s, aggr_key(t));
			if (!*fid)
				*fid = s->newid[id - s->start];
		}
	}
	for (id = s->start; !err && id < s->cnt; id++)
		if (s->newid[id - s->start])
			err = lbtf_type_read_type_ids(type_at(s, id), plan_fwd, s);
	if (!err)
		err = lbtfi_import_begin(&im, nb, s->btf, s->next - s->start,
					 lbtf_header(s->btf)->type_len / 4);
	for (id = s->start; !err && id < s->cnt; id++) {
		int nid;

		if (!s->newid[id - s->start])
			continue;
		nid = lbtfi_import_type(&im, id);
		if (nid < 0)
			err = nid;
		else
			lbtf_type_visit_type_ids(lbtf_builder_type_by_id(nb, nid), remap, s);
	}
	lbtfi_import_end(&im);
	for (i = 0; !err && i < s->nfwds; i++) {
		const struct lbtf_type *t = type_at(s, s->fwds[i]);
		int nid = lbtf_builder_add_fwd(nb, lbtf_name_by_offset(s->btf, t->name_off),
				       lbtf_kind(t) == LBTF_KIND_UNION ? LBTF_FWD_UNION : LBTF_FWD_STRUCT);

		if (nid < 0)
			err = nid;
	}
	if (err) {
		lbtf_builder_free(nb);
		*errp = err;
		return NULL;
	}
	return nb;
}

/*
 * Named types the input's .BTF has and the DWARF does not (a struct named
 * only in bpf_core_type_exists() or __builtin_btf_type_id(): clang puts it
 * in .BTF for the CO-RE relocation, but not in DWARF), copied from it with
 * what they refer to; a referenced named type the output has is used.
 */
struct import {
	struct bset *s;
	const struct lbtf *prev;
	struct lbtf_builder *nb;
	uint32_t *memo;        /* per prev id: id in nb, 0 not yet */
};

static int import_type(struct import *im, uint32_t id, uint32_t *out);

struct slot_list {
	uint32_t v[64];
	unsigned int n, i;
};

static int collect_slot(uint32_t *slot, void *ctx)
{
	struct slot_list *l = ctx;

	if (l->n == 64)
		return lbtfi_err(E2BIG, "type with too many references to import");
	l->v[l->n++] = *slot;
	return 0;
}

static int store_slot(uint32_t *slot, void *ctx)
{
	struct slot_list *l = ctx;

	*slot = l->v[l->i++];
	return 0;
}

/* The output's kept type of that name and kind, or 0 */
static uint32_t output_named(struct import *im, const char *name, unsigned int kind)
{
	struct bset *s = im->s;
	int id = lbtf_find_by_name_kind(s->btf, name, kind);

	return id > 0 && ours(s, id) ? s->newid[id - s->start] : 0;
}

static int import_type(struct import *im, uint32_t id, uint32_t *out)
{
	const struct lbtf_type *t = lbtf_type_by_id(im->prev, id);
	struct slot_list l = { .n = 0 };
	const char *name;
	unsigned int i;
	int nid, err;

	if (!id || im->memo[id]) {
		*out = im->memo[id];
		return 0;
	}
	if (!t)
		return lbtfi_err(EINVAL, "input .BTF: no type %u", id);
	name = t->name_off ? lbtf_name_by_offset(im->prev, t->name_off) : NULL;
	if (name && (*out = output_named(im, name, lbtf_kind(t)))) {
		im->memo[id] = *out;
		return 0;
	}
	nid = lbtf_builder_add_type_copy(im->nb, im->prev, id);
	if (nid < 0)
		return nid;
	im->memo[id] = *out = nid;
	err = lbtf_type_visit_type_ids(lbtf_builder_type_by_id(im->nb, nid), collect_slot, &l);
	for (i = 0; !err && i < l.n; i++)
		err = import_type(im, l.v[i], &l.v[i]);
	/* (the record may have moved while the others were added) */
	if (!err)
		lbtf_type_visit_type_ids(lbtf_builder_type_by_id(im->nb, nid), store_slot, &l);
	return err;
}

static bool importable(const struct lbtf_type *t)
{
	switch (lbtf_kind(t)) {
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION: case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64: case LBTF_KIND_TYPEDEF:
		return t->name_off;
	default:
		return false;
	}
}

static int import_missing(struct bset *s, const struct lbtf *prev, struct lbtf_builder *nb)
{
	struct import im = { .s = s, .prev = prev, .nb = nb };
	uint32_t id, cnt = lbtf_type_cnt(prev), nid;
	int err = 0;

	im.memo = calloc(cnt, sizeof(*im.memo));
	if (!im.memo)
		return lbtfi_err(ENOMEM, "out of memory");
	for (id = 1; !err && id < cnt; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(prev, id);
		const char *name;

		if (!importable(t))
			continue;
		name = lbtf_name_by_offset(prev, t->name_off);
		/* (any type of the name in the output, kept or not: the
		 * DWARF had it, and the walk decided) */
		if (name && lbtf_find_by_name_kind(s->btf, name, lbtf_kind(t)) <= 0)
			err = import_type(&im, id, &nid);
	}
	free(im.memo);
	return err;
}

/* The input's own .BTF if it has one that reads, else NULL */
static struct lbtf *input_btf(const char *path)
{
	if (lbtf_elf_has_section(path, ".BTF") <= 0)
		return NULL;
	return lbtf_open_elf(path, NULL);
}

int lbtfi_dw_bpf_typeset(struct lbtf_builder **pb, const char *path, const struct lbtf *base,
		   uint32_t *dropped)
{
	struct bset s = { 0 };
	struct lbtf_builder *nb;
	struct lbtf *prev = NULL;
	void *data = NULL;
	size_t size, n, cap;
	uint32_t id;
	int err;

	*dropped = 0;
	err = lbtf_builder_serialize(*pb, false, &data, &size);
	if (err)
		return err;
	s.btf = lbtf_new_borrowed(data, size, base);
	if (!s.btf) {
		err = -errno;
		goto out;
	}
	prev = input_btf(path);
	s.start = lbtf_start_id(s.btf);
	s.cnt = lbtf_type_cnt(s.btf);
	n = s.cnt - s.start;
	for (cap = 64; cap < n * 2; cap <<= 1)
		;
	s.seen = calloc(n + 1, 1);
	s.is_map = calloc(n + 1, 1);
	s.newid = calloc(n + 1, sizeof(*s.newid));
	s.fwd_key = calloc(cap, sizeof(*s.fwd_key));
	s.fwd_id = calloc(cap, sizeof(*s.fwd_id));
	s.fwd_mask = cap - 1;
	s.fwds = calloc(n + 1, sizeof(*s.fwds));
	if (!s.seen || !s.is_map || !s.newid || !s.fwd_key || !s.fwd_id || !s.fwds) {
		err = lbtfi_err(ENOMEM, "out of memory");
		goto out;
	}
	err = push_roots(&s, prev) ?: walk(&s);
	if (err)
		goto out;
	keep_tags(&s);
	for (id = s.start; id < s.cnt; id++)
		*dropped += !s.seen[id - s.start];
	if (!*dropped && !prev)
		goto out;
	nb = rebuild(&s, base, &err);
	if (!nb) {
		*dropped = 0;
		goto out;
	}
	if (prev && (err = import_missing(&s, prev, nb))) {
		lbtf_builder_free(nb);
		*dropped = 0;
		goto out;
	}
	lbtf_builder_free(*pb);
	*pb = nb;
out:
	lbtf_free(prev);
	lbtf_free(s.btf);
	free(data);
	free(s.seen);
	free(s.is_map);
	free(s.newid);
	free(s.stack);
	free(s.fwd_key);
	free(s.fwd_id);
	free(s.fwds);
	return err;
}
