// SPDX-License-Identifier: BSD-2-Clause
/*
 * C header dump, entry point: checks the input, prints the vmlinux.h frame
 * and drives the per-root ordering/emission (order.c) over all types
 * (id order, or the diffable order of sort.c) or over chosen roots.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Budgets against hostile BTF (nesting makes both exponential):
 * output bytes (a vmlinux.h is about half the size of its BTF) and
 * order/emit visits (a kernel's BTF needs about two per type). */
#define DC_OUT_LIMIT(in_bytes) (16ull * (in_bytes) + (16ull << 20))
#define DC_STEP_LIMIT(nr_types) (256ull * (nr_types) + (1ull << 20))


int lbtfi_dc_fail(struct lbtfi_dc *d, int err, const char *what, uint32_t id)
{
	if (!d->err)
		d->err = lbtfi_err(-err, "C dump: %s at type id %u", what, id);
	return d->err;
}

void *lbtfi_dc_arena(struct lbtfi_dc *d, size_t bytes)
{
	void *p;

	bytes = (bytes + 7) & ~(size_t)7;
	if (bytes > d->arena_len - d->arena_used)
		return NULL;
	p = d->arena + d->arena_used;
	d->arena_used += bytes;
	return p;
}

int lbtfi_dc_push_id_grow(struct lbtfi_dc *d, struct lbtfi_dc_ids *a, size_t first_cap, uint32_t id,
		     const char *what)
{
	if (LBTFI_GROW_FROM(a->ids, a->cap, a->cnt + 1, first_cap))
		return lbtfi_dc_fail(d, -ENOMEM, what, id);
	a->ids[a->cnt++] = id;
	return 0;
}

struct check_ctx {
	uint32_t tags;   /* names that may enter the tag namespace */
	uint32_t idents; /* typedefs and enumerators */
	uint32_t sorted; /* types the sorted order holds */
};

/*
 * t's type ids and name offsets checked: 0 when all are valid, else the
 * first type id (in the order of lbtf_type_read_type_ids()) that is not a
 * valid id; *bad_name when a name offset is outside the strings (end: the
 * end of the string offsets of the BTF and its bases). Marks the ids that
 * count as references. One pass over the vlen elements for both.
 */
static uint32_t scan_refs(struct lbtfi_dc *d, const struct lbtf_type *t, const struct lbtf_kind_desc *kd,
			  uint32_t end, bool *bad_name)
{
	uint32_t nr = d->nr_types;
	bool proto = lbtf_kind(t) == LBTF_KIND_FUNC_PROTO;
	const char *e = (const char *)(t + 1) + kd->extra_size;
	int type_at = kd->elem_type_off, name_at = kd->elem_name_off;
	unsigned int vlen = lbtf_vlen(t), step = kd->vlen_elem_size;
	bool bad = t->name_off >= end;

	*bad_name = bad;
	if (kd->type_field) {
		if (t->type >= nr)
			return t->type;
		/* a prototype's return type is no reference (bpftool's rule) */
		if (!proto)
			d->st[t->type].referenced = 1;
	}
	if (lbtf_kind(t) == LBTF_KIND_ARRAY) {
		const struct lbtf_array *a = lbtf_array(t);

		if (a->type >= nr || a->index_type >= nr)
			return a->type >= nr ? a->type : a->index_type;
		d->st[a->type].referenced = 1;
		d->st[a->index_type].referenced = 1;
	}
	if (!step)
		return 0;
	if (type_at < 0) { /* enumerators: names only */
		for (unsigned int i = 0; name_at >= 0 && i < vlen; i++, e += step)
			bad |= *(const uint32_t *)(e + name_at) >= end;
		*bad_name = bad;
		return 0;
	}
	for (unsigned int i = 0; i < vlen; i++, e += step) {
		uint32_t id = *(const uint32_t *)(e + type_at);

		if (id >= nr)
			return id;
		d->st[id].referenced = 1;
		if (name_at >= 0)
			bad |= *(const uint32_t *)(e + name_at) >= end;
	}
	*bad_name = bad;
	return 0;
}

/* The names that may enter each namespace, at most (not FUNCs, VARs...:
 * the tables stay small), and the types a sort orders */
static void count_names(struct check_ctx *c, const struct lbtf_type *t)
{
	unsigned int kind = lbtf_kind(t);

	c->sorted += lbtfi_dc_sorts(t);
	if (kind == LBTF_KIND_TYPEDEF)
		c->idents++;
	else if (lbtf_is_enum(t))
		c->idents += lbtf_vlen(t), c->tags++;
	else if (t->name_off && (lbtf_is_composite(t) || kind == LBTF_KIND_FWD ||
				 kind == LBTF_KIND_INT || kind == LBTF_KIND_FLOAT))
		c->tags++;
}

/*
 * The parser checked record bounds; the dumper follows type ids and names
 * everywhere, so check every one of them once up front. The same pass
 * marks the types other types refer to (an anonymous enum that nothing
 * refers to is a set of global constants and is printed at top level; one
 * that is referenced is printed inline where it is used) and counts what
 * the later arrays are sized by (*c).
 */
static int scan_types(struct lbtfi_dc *d, struct check_ctx *c)
{
	const struct lbtf *btf = d->btf;
	const struct lbtf_kind_desc *kds[LBTF_KIND_MAX + 1];
	uint32_t str_end = btf->start_str_off + btf->hdr.str_len;

	for (unsigned int k = 0; k <= LBTF_KIND_MAX; k++)
		kds[k] = lbtf_kind_desc(k);
	for (uint32_t id = 1; id < d->nr_types; id++) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);
		uint32_t bad;
		bool bad_name;

		if (!t)
			return lbtfi_err(EINVAL, "C dump: type id %u missing", id);
		/* a kind of a newer encoder (sized by the layout section) or
		 * kind 0 past id 0 has no C spelling: refused, as libbpf's
		 * btf_dump__new() refuses such BTF */
		if (lbtf_kind(t) == LBTF_KIND_UNKN || lbtf_kind(t) > LBTF_KIND_MAX)
			return lbtfi_err(EINVAL, "C dump: type %u is of kind %u, unknown to this "
					 "library: no C for it", id, lbtf_kind(t));
		if ((bad = scan_refs(d, t, kds[lbtf_kind(t)], str_end, &bad_name)))
			return lbtfi_err(EINVAL, "C dump: type %u refers to type id %u (only %u types)",
					 id, bad, d->nr_types);
		if (bad_name)
			return lbtfi_err(EINVAL, "C dump: type %u has a name offset outside the strings",
					 id);
		count_names(c, t);
	}
	return 0;
}

/*
 * The arrays sized up front, in one block: the per-type state, then one
 * room used twice: by the sort (its keys, whose first bytes end up holding
 * the sorted ids, and its memo), then, after the ids, by the queue and the
 * name entries. A vmlinux's block is under 2 MiB: one huge page, or 500
 * first touches of 4 KiB pages (microseconds each in a virtual machine)
 * instead of the 1,200 of separate arrays. The per-type state comes first
 * (the scan marks references in it), the room is sized by what the scan
 * counted: a kernel-sized BTF takes the huge page at once, the room fits
 * in it; else the block is made again at its size (arena_rest()).
 */
static size_t after_ids(uint32_t sorted)
{
	return ((size_t)sorted * sizeof(uint32_t) + 7) & ~(size_t)7;
}

static size_t later_bytes(const struct lbtfi_dc *d, const struct check_ctx *c)
{
	return (size_t)d->nr_types * sizeof(*d->queue.ids) +
	       ((size_t)c->tags + c->idents) * sizeof(struct lbtfi_dc_name) + 3 * 8;
}

/* A block for len bytes: from 256 KiB on, 2 MiB, so that the room fits
 * beside the state without a second block; a whole huge page where big
 * blocks go on them (util/grow.c: where a fault and a 2 MiB clear cost
 * what 64-85 faults of 4 KiB pages do), else pages only as touched */
static void *arena_block(size_t len)
{
	return lbtfi_malloc_big(len >= (256u << 10) && len < LBTFI_BIG_BYTES ? LBTFI_BIG_BYTES
									     : len);
}

static size_t state_bytes(const struct lbtfi_dc *d)
{
	return 2 * (((size_t)d->nr_types + 7) & ~(size_t)7);
}

/* The per-type state and alignments, zeroed */
static int arena_state(struct lbtfi_dc *d)
{
	size_t nr = d->nr_types, len = state_bytes(d);
	/* 64 KiB of state are 32,768 types: a kernel's, its room follows */
	size_t cap = len >= (64u << 10) && len < LBTFI_BIG_BYTES ? LBTFI_BIG_BYTES : len;

	d->arena = lbtfi_malloc_big(cap);
	if (!d->arena)
		return -ENOMEM;
	d->arena_len = cap;
	d->st = lbtfi_dc_arena(d, nr * sizeof(*d->st));
	d->align = lbtfi_dc_arena(d, nr * sizeof(*d->align));
	memset(d->arena, 0, d->arena_used);
	return 0;
}

/* Room after the state for the sort, the queue and the names */
static int arena_rest(struct lbtfi_dc *d, const struct check_ctx *c, bool sort)
{
	size_t room = later_bytes(d, c), len;
	char *grown;

	if (sort && room + after_ids(c->sorted) < lbtfi_dc_sort_bytes(c->sorted))
		room = lbtfi_dc_sort_bytes(c->sorted);
	else if (sort)
		room += after_ids(c->sorted);
	len = state_bytes(d) + room;
	if (len <= d->arena_len) {
		d->arena_len = len;
		return 0;
	}
	grown = arena_block(len);
	if (!grown)
		return -ENOMEM;
	memcpy(grown, d->arena, d->arena_used);
	d->st = (struct lbtfi_dc_tstate *)(void *)(grown + ((char *)d->st - d->arena));
	d->align = (int8_t *)(grown + ((char *)d->align - d->arena));
	free(d->arena);
	d->arena = grown;
	d->arena_len = len;
	return 0;
}

/* The queue and the name entries, after the sorted ids (if any) */
static int alloc_later(struct lbtfi_dc *d, const struct check_ctx *c, size_t room, bool sorted)
{
	d->arena_used = room + (sorted ? after_ids(c->sorted) : 0);
	d->queue.ids = lbtfi_dc_arena(d, (size_t)d->nr_types * sizeof(*d->queue.ids));
	d->queue.cap = d->queue.ids ? d->nr_types : 0;
	if (!d->queue.ids ||
	    lbtfi_dc_names_reserve(&d->type_names, c->tags,
			      lbtfi_dc_arena(d, c->tags * sizeof(struct lbtfi_dc_name))) ||
	    lbtfi_dc_names_reserve(&d->ident_names, c->idents,
			      lbtfi_dc_arena(d, c->idents * sizeof(struct lbtfi_dc_name))))
		return -ENOMEM;
	return 0;
}

static uint64_t input_size(const struct lbtf *btf)
{
	uint64_t total = 0;
	size_t sz;

	for (; btf; btf = lbtf_base(btf)) {
		lbtf_raw_data(btf, &sz);
		total += sz;
	}
	return total;
}

static void put_frame_head(struct lbtfi_dc_out *o)
{
	lbtfi_dc_puts(o, "#ifndef __VMLINUX_H__\n"
		    "#define __VMLINUX_H__\n"
		    "\n"
		    "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n"
		    "#pragma clang attribute push (__attribute__((preserve_access_index)), "
		    "apply_to = record)\n"
		    "#endif\n\n");
}

static void put_frame_tail(struct lbtfi_dc_out *o)
{
	lbtfi_dc_puts(o, "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n"
		    "#pragma clang attribute pop\n"
		    "#endif\n"
		    "\n"
		    "#endif /* __VMLINUX_H__ */\n");
}

static void dc_free(struct lbtfi_dc *d)
{
	free(d->arena);
	free(d->stack.ids);
	free(d->jobs.v);
	free(d->ords.v);
	free(d->tops.v);
	free(d->aligns.v);
	lbtfi_dc_names_free(&d->type_names);
	lbtfi_dc_names_free(&d->ident_names);
	lbtfi_htab_free(&d->renames);
	free(d);
}

/* The types to dump, in order: chosen roots, the sorted list, or all ids. */
struct roots {
	const uint32_t *ids; /* NULL: ids 1..cnt */
	size_t cnt;
};

static int pick_roots(struct lbtfi_dc *d, const struct lbtf_dump_c_opts *o, uint32_t sorted,
		      struct roots *r)
{
	uint32_t cnt;

	memset(r, 0, sizeof(*r));
	if (o && o->root_cnt) {
		r->ids = o->root_ids;
		r->cnt = o->root_cnt;
	} else if (o && o->sort) {
		r->ids = lbtfi_dc_sorted_ids(d, sorted, &cnt);
		if (!r->ids)
			return lbtfi_err(ENOMEM, "C dump: out of memory sorting types");
		r->cnt = cnt;
	} else {
		r->cnt = d->nr_types - 1;
	}
	return 0;
}

/*
 * Orders all roots without printing, so that BTF C cannot express (a type
 * cycle, a walk over budget) is reported before any output. Ordering never
 * looks at what emission did, so the queue of all roots, emitted in one go
 * afterwards, prints what ordering and emitting each root in turn would.
 * The visit budget (d->steps) goes on counting through the emission.
 */
static int order_roots(struct lbtfi_dc *d, const struct roots *r)
{
	return lbtfi_dc_order_roots(d, r->ids, r->cnt);
}

int lbtf_dump_c(const struct lbtf *btf, FILE *out, const struct lbtf_dump_c_opts *opts)
{
	struct lbtf_dump_c_opts o;
	struct check_ctx cc = { 0 };
	struct roots roots;
	size_t room;
	bool kfuncs;
	struct lbtfi_dc *d;
	int err;

	if (!btf || !out)
		return lbtfi_err(EINVAL, "C dump: no BTF or no output");
	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_dump_c_opts)))
		return err;
	d = calloc(1, sizeof(*d));
	if (!d)
		return lbtfi_err(ENOMEM, "C dump: out of memory");
	d->btf = btf;
	d->types = btf->types;
	d->type_offs = btf->type_offs;
	d->strs = btf->strs;
	d->start_id = btf->start_id;
	d->own_types = btf->nr_types;
	d->start_str_off = btf->start_str_off;
	d->str_len = btf->hdr.str_len;
	d->nr_types = lbtf_type_cnt(btf);
	d->ptr_sz = lbtf_pointer_size(btf) > 0 ? lbtf_pointer_size(btf) : (int)sizeof(void *);
	d->attr_type_tags = o.attr_type_tags;
	d->out.f = out;
	d->out.limit = DC_OUT_LIMIT(input_size(btf));
	d->step_limit = DC_STEP_LIMIT(d->nr_types);
	if (arena_state(d)) {
		dc_free(d);
		return lbtfi_err(ENOMEM, "C dump: out of memory for %u types", d->nr_types);
	}
	err = scan_types(d, &cc);
	if (!err && arena_rest(d, &cc, o.sort && !o.root_cnt))
		err = lbtfi_err(ENOMEM, "C dump: out of memory for %u types", d->nr_types);
	for (size_t i = 0; !err && i < o.root_cnt; i++)
		if (o.root_ids[i] >= d->nr_types)
			err = lbtfi_err(EINVAL, "C dump: root type id %u out of range",
					o.root_ids[i]);
	if (err) {
		dc_free(d);
		return err;
	}
	d->st[0].order = DC_ORDERED; /* void needs no definition */
	d->st[0].emit = DC_EMITTED;

	room = d->arena_used;
	err = pick_roots(d, &o, cc.sorted, &roots);
	if (!err && alloc_later(d, &cc, room, o.sort && !o.root_cnt))
		err = lbtfi_err(ENOMEM, "C dump: out of memory for %u types", d->nr_types);
	if (!err)
		err = order_roots(d, &roots);
	if (err) {
		dc_free(d);
		return err;
	}
	kfuncs = o.kfuncs && !o.root_cnt;
	if (!o.no_frame)
		put_frame_head(&d->out);
	if ((kfuncs || o.macros) && !o.no_frame)
		lbtfi_dc_put_kfunc_macros(d);
	lbtfi_dc_emit_queue(d);
	err = d->err;
	if (!err && kfuncs)
		err = lbtfi_dc_put_kfuncs(d);
	if (!err && !o.no_frame)
		put_frame_tail(&d->out);
	lbtfi_dc_flush(&d->out);
	if (!err && d->out.err == -EFBIG)
		err = lbtfi_err(EFBIG, "C dump: output would exceed %llu bytes "
				"(anonymous types nested too deeply?)",
				(unsigned long long)d->out.limit);
	else if (!err && (d->out.err || fflush(out)))
		err = lbtfi_err(EIO, "C dump: writing the output failed");
	dc_free(d);
	return err;
}

/* Kinds a C name can select, by the tag written before it. */
static bool kind_matches(const char *tag, const struct lbtf_type *t)
{
	unsigned int k = lbtf_kind(t);

	if (!tag)
		return k == LBTF_KIND_STRUCT || k == LBTF_KIND_UNION || k == LBTF_KIND_ENUM ||
		       k == LBTF_KIND_ENUM64 || k == LBTF_KIND_FWD || k == LBTF_KIND_TYPEDEF ||
		       k == LBTF_KIND_INT || k == LBTF_KIND_FLOAT;
	if (!strcmp(tag, "struct"))
		return k == LBTF_KIND_STRUCT || (k == LBTF_KIND_FWD && !lbtf_kflag(t));
	if (!strcmp(tag, "union"))
		return k == LBTF_KIND_UNION || (k == LBTF_KIND_FWD && lbtf_kflag(t));
	return lbtf_is_enum(t); /* "enum" */
}

int lbtf_dump_c_find_types(const struct lbtf *btf, const char *cname, uint32_t *ids, size_t cap)
{
	static const char *const tags[] = { "struct", "union", "enum" };
	const char *tag = NULL, *name = cname;
	uint32_t n = lbtf_type_cnt(btf);
	int found = 0;

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t l = strlen(tags[i]);

		if (!strncmp(cname, tags[i], l) && cname[l] == ' ') {
			tag = tags[i];
			name = cname + l + 1;
			while (*name == ' ')
				name++;
		}
	}
	if (!*name)
		return lbtfi_err(EINVAL, "empty type name '%s'", cname);
	for (uint32_t id = 1; id < n; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, id);
		const char *s = lbtf_type_name(btf, t);

		if (!s || strcmp(s, name) || !kind_matches(tag, t))
			continue;
		if ((size_t)found < cap)
			ids[found] = id;
		if (found == INT32_MAX)
			break;
		found++;
	}
	return found;
}
