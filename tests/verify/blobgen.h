/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Random BTF blob generator for the differential verifier test: type graphs
 * of every kind (mostly well-formed, with controlled mistakes), targeted
 * mutations, header damage and truncations, all from a fixed-seed PRNG.
 */
#ifndef BLOBGEN_H
#define BLOBGEN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

struct rng { uint64_t s; };

static inline uint32_t rnd(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s >> 11);
}
static inline uint32_t rnd_n(struct rng *r, uint32_t n) { return n ? rnd(r) % n : 0; }
static inline int chance(struct rng *r, int pct) { return (int)rnd_n(r, 100) < pct; }
#define PICK(r, arr) ((arr)[rnd_n((r), sizeof(arr) / sizeof((arr)[0]))])

struct gbuf { unsigned char *p; size_t len, cap; };

static inline void gput(struct gbuf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}
static inline void gput32(struct gbuf *b, uint32_t v) { gput(b, &v, 4); }

/* A blob under construction: type words and a string section */
struct gblob {
	struct gbuf types, strs;
	uint32_t nr;  /* types emitted */
	uint32_t planned; /* ids that will exist */
};

static inline uint32_t gstr(struct gblob *g, const char *s)
{
	uint32_t off;

	if (!*s)
		return 0;
	off = g->strs.len;
	gput(&g->strs, s, strlen(s) + 1);
	return off;
}

/* names: mostly valid identifiers, sometimes the edge cases */
static const char *gname(struct rng *r, int kind_pool)
{
	static const char *good[] = { "a", "b", "x", "foo", "_t", ".dot", "s1", "int", "T", "e" };
	static const char *bad[] = { "1a", "a-b", "a b", "\xc0z", "\xd7x", "a\x80", "\x7f", "?", "" };
	static const char *secs[] = { ".data", ".bss", "?. x", "sec\x7f", "a\x85", ".rodata" };
	static char longname[1200];

	if (kind_pool == 2)
		return chance(r, 85) ? secs[rnd_n(r, 2)] : PICK(r, secs);
	if (chance(r, 2)) {
		/* around the 512-byte name limit, or past the 1023-byte log piece */
		size_t n = chance(r, 70) ? 505 + rnd_n(r, 12) : 1000 + rnd_n(r, 150);
		memset(longname, 'a', n);
		longname[n] = 0;
		return longname;
	}
	return chance(r, 92) ? PICK(r, good) : PICK(r, bad);
}

/* a type id reference: usually an existing one */
static uint32_t gref(struct rng *r, struct gblob *g)
{
	uint32_t n = g->planned;

	if (chance(r, 3))
		return PICK(r, ((uint32_t[]){ 0, n + 1, n + 7, 0xfffff, 0x100000, 0xffffffff }));
	return rnd_n(r, n + 1);
}

static void gtype(struct gblob *g, uint32_t name, unsigned int kind, unsigned int vlen, int kflag,
		  uint32_t size_type)
{
	gput32(&g->types, name);
	gput32(&g->types, lbtf_info(kind, vlen, kflag));
	gput32(&g->types, size_type);
	g->nr++;
}

static uint32_t gname_off(struct rng *r, struct gblob *g, int pct_named, int pool)
{
	if (!chance(r, pct_named))
		return 0;
	return gstr(g, gname(r, pool));
}

static void gen_int(struct rng *r, struct gblob *g)
{
	static const uint32_t bits[] = { 8, 16, 32, 64, 128, 1, 7, 24, 0, 129 };
	static const uint32_t encs[] = { 0, 1, 2, 4, 0, 1, 3, 8 };
	uint32_t b = PICK(r, bits), sz = b ? (b + 7) / 8 : 4, off = 0, enc = PICK(r, encs);

	if (chance(r, 10))
		sz = PICK(r, ((uint32_t[]){ 0, 1, 3, 16, 32 }));
	if (chance(r, 8))
		off = rnd_n(r, 70);
	gtype(g, gname_off(r, g, 90, 0), LBTF_KIND_INT, chance(r, 3), chance(r, 3), sz);
	gput32(&g->types, chance(r, 3) ? rnd(r) : (enc << 24) | (off << 16) | b |
						  (chance(r, 3) ? 0x1100 : 0));
}

static void gen_ref(struct rng *r, struct gblob *g, unsigned int kind)
{
	uint32_t name = 0;

	if (kind == LBTF_KIND_TYPEDEF || kind == LBTF_KIND_TYPE_TAG)
		name = chance(r, 95) ? gstr(g, gname(r, 0)) : 0;
	else if (chance(r, 3))
		name = gstr(g, "n");
	gtype(g, name, kind, chance(r, 2), chance(r, kind == LBTF_KIND_TYPE_TAG ? 30 : 2),
	      gref(r, g));
}

static void gen_array(struct rng *r, struct gblob *g)
{
	static const uint32_t nel[] = { 0, 1, 2, 4, 16, 0x10000000, 0xffffffff };

	gtype(g, chance(r, 3) ? gstr(g, "a") : 0, LBTF_KIND_ARRAY, chance(r, 2), chance(r, 2),
	      chance(r, 3) ? 4 : 0);
	gput32(&g->types, chance(r, 2) ? 0 : gref(r, g));
	gput32(&g->types, chance(r, 70) ? 1 : gref(r, g));
	gput32(&g->types, PICK(r, nel));
}

static void gen_struct(struct rng *r, struct gblob *g, unsigned int kind)
{
	unsigned int vlen = rnd_n(r, 5);
	int kflag = chance(r, 25);
	uint32_t size = PICK(r, ((uint32_t[]){ 0, 1, 4, 8, 16, 24, 32, 64, 4096 }));
	uint32_t off = 0;

	gtype(g, gname_off(r, g, 70, 0), kind, vlen, kflag, size);
	for (unsigned int i = 0; i < vlen; i++) {
		uint32_t o = kind == LBTF_KIND_UNION && chance(r, 95) ? 0 : off;
		uint32_t bf = kflag && chance(r, 40) ? rnd_n(r, 40) : 0;

		if (chance(r, 5))
			o = rnd(r) % (size * 8 + 16);
		gput32(&g->types, chance(r, 2) ? 0x7fffff00 : gname_off(r, g, 80, 0));
		gput32(&g->types, chance(r, 2) ? 0 : gref(r, g));
		gput32(&g->types, kflag ? (bf << 24) | (o & 0xffffff) : o);
		off += PICK(r, ((uint32_t[]){ 0, 1, 3, 8, 32, 64, 64, 128 }));
	}
}

static void gen_enum(struct rng *r, struct gblob *g, bool is64)
{
	unsigned int vlen = rnd_n(r, 4);
	uint32_t size = chance(r, 85) ? (is64 ? 8 : 4) : PICK(r, ((uint32_t[]){ 0, 1, 2, 3, 8, 16 }));

	gtype(g, gname_off(r, g, 60, 0), is64 ? LBTF_KIND_ENUM64 : LBTF_KIND_ENUM, vlen,
	      chance(r, 40), size);
	for (unsigned int i = 0; i < vlen; i++) {
		gput32(&g->types, chance(r, 2) ? 0x7fffff00 : gname_off(r, g, 97, 0));
		gput32(&g->types, chance(r, 50) ? i : rnd(r));
		if (is64)
			gput32(&g->types, chance(r, 50) ? 0 : rnd(r));
	}
}

static void gen_func_proto(struct rng *r, struct gblob *g)
{
	unsigned int vlen = rnd_n(r, 4);

	gtype(g, chance(r, 2) ? gstr(g, "p") : 0, LBTF_KIND_FUNC_PROTO, vlen, chance(r, 2),
	      chance(r, 30) ? 0 : gref(r, g));
	for (unsigned int i = 0; i < vlen; i++) {
		bool vararg = i == vlen - 1 && chance(r, 20);
		gput32(&g->types, vararg && chance(r, 80) ? 0 : gname_off(r, g, 80, 0));
		gput32(&g->types, vararg ? 0 : gref(r, g));
	}
}

static void gen_var(struct rng *r, struct gblob *g)
{
	gtype(g, gname_off(r, g, 97, 0), LBTF_KIND_VAR, chance(r, 2), chance(r, 2),
	      chance(r, 2) ? 0 : gref(r, g));
	gput32(&g->types, chance(r, 90) ? rnd_n(r, 2) : rnd_n(r, 4));
}

static void gen_datasec(struct rng *r, struct gblob *g)
{
	unsigned int vlen = rnd_n(r, 4);
	uint32_t size = chance(r, 3) ? 0 : PICK(r, ((uint32_t[]){ 4, 8, 16, 64, 0xffffffff }));
	uint32_t off = 0;

	gtype(g, gname_off(r, g, 97, 2), LBTF_KIND_DATASEC, vlen, chance(r, 2), size);
	for (unsigned int i = 0; i < vlen; i++) {
		uint32_t sz = PICK(r, ((uint32_t[]){ 1, 4, 4, 8, 8, 0, 0x20 }));
		if (size == 0xffffffff && chance(r, 30))
			off = 0xfffffff0;
		gput32(&g->types, gref(r, g));
		gput32(&g->types, chance(r, 5) ? rnd_n(r, 32) : off);
		gput32(&g->types, sz);
		off += sz + (chance(r, 20) ? 4 : 0);
	}
}

static void gen_one(struct rng *r, struct gblob *g, unsigned int kind)
{
	switch (kind) {
	case LBTF_KIND_INT: gen_int(r, g); break;
	case LBTF_KIND_ARRAY: gen_array(r, g); break;
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION: gen_struct(r, g, kind); break;
	case LBTF_KIND_ENUM: gen_enum(r, g, false); break;
	case LBTF_KIND_ENUM64: gen_enum(r, g, true); break;
	case LBTF_KIND_FUNC_PROTO: gen_func_proto(r, g); break;
	case LBTF_KIND_VAR: gen_var(r, g); break;
	case LBTF_KIND_DATASEC: gen_datasec(r, g); break;
	case LBTF_KIND_FWD:
		gtype(g, gname_off(r, g, 95, 0), kind, chance(r, 2), chance(r, 50),
		      chance(r, 3) ? 1 : 0);
		break;
	case LBTF_KIND_FUNC:
		gtype(g, gname_off(r, g, 95, 0), kind, chance(r, 90) ? rnd_n(r, 2) : rnd_n(r, 4),
		      chance(r, 2), gref(r, g));
		break;
	case LBTF_KIND_FLOAT:
		gtype(g, gname_off(r, g, 80, 0), kind, chance(r, 2), chance(r, 2),
		      PICK(r, ((uint32_t[]){ 2, 4, 8, 12, 16, 4, 8, 3, 0 })));
		break;
	case LBTF_KIND_DECL_TAG:
		gtype(g, chance(r, 95) ? gstr(g, chance(r, 50) ? "tag" : chance(r, 90) ? "x y" : gname(r, 0)) : 0, kind,
		      chance(r, 2), chance(r, 20), gref(r, g));
		gput32(&g->types, PICK(r, ((uint32_t[]){ -1u, -1u, 0, 1, 2, -2u })));
		break;
	default:
		gen_ref(r, g, kind);
	}
}

/* kinds weighted toward the ones with the most checks */
static unsigned int gkind(struct rng *r)
{
	static const unsigned char w[] = {
		LBTF_KIND_INT, LBTF_KIND_INT, LBTF_KIND_INT, LBTF_KIND_PTR, LBTF_KIND_PTR,
		LBTF_KIND_ARRAY, LBTF_KIND_ARRAY, LBTF_KIND_STRUCT, LBTF_KIND_STRUCT, LBTF_KIND_STRUCT,
		LBTF_KIND_UNION, LBTF_KIND_ENUM, LBTF_KIND_FWD, LBTF_KIND_TYPEDEF, LBTF_KIND_TYPEDEF,
		LBTF_KIND_VOLATILE, LBTF_KIND_CONST, LBTF_KIND_CONST, LBTF_KIND_RESTRICT,
		LBTF_KIND_FUNC, LBTF_KIND_FUNC, LBTF_KIND_FUNC_PROTO, LBTF_KIND_FUNC_PROTO,
		LBTF_KIND_VAR, LBTF_KIND_VAR, LBTF_KIND_DATASEC, LBTF_KIND_DATASEC, LBTF_KIND_FLOAT,
		LBTF_KIND_DECL_TAG, LBTF_KIND_DECL_TAG, LBTF_KIND_TYPE_TAG, LBTF_KIND_TYPE_TAG,
		LBTF_KIND_ENUM64,
	};
	return PICK(r, w);
}

/* Assemble header + types + strings into out (malloc'ed). */
static unsigned char *gassemble(struct gblob *g, size_t *len)
{
	struct lbtf_header h = { LBTF_MAGIC, LBTF_VERSION, 0, LBTF_HDR_LEN_V1, 0, 0, 0, 0 };
	unsigned char *out;

	h.type_len = g->types.len;
	h.str_off = g->types.len;
	h.str_len = g->strs.len;
	*len = LBTF_HDR_LEN_V1 + g->types.len + g->strs.len;
	out = malloc(*len);
	if (!out)
		abort();
	memcpy(out, &h, LBTF_HDR_LEN_V1);
	memcpy(out + LBTF_HDR_LEN_V1, g->types.p, g->types.len);
	memcpy(out + LBTF_HDR_LEN_V1 + g->types.len, g->strs.p, g->strs.len);
	return out;
}

/* A random type graph of n types; the first is usually a plain int. */
static unsigned char *gen_graph(struct rng *r, uint32_t n, size_t *len)
{
	struct gblob g;
	unsigned char *out;

	memset(&g, 0, sizeof(g));
	gput(&g.strs, "", 1);
	g.planned = n;
	for (uint32_t i = 0; i < n; i++) {
		if (i == 0 && chance(r, 80)) {
			gtype(&g, gstr(&g, "int"), LBTF_KIND_INT, 0, 0, 4);
			gput32(&g.types, (1u << 24) | 32);
			continue;
		}
		gen_one(r, &g, gkind(r));
	}
	out = gassemble(&g, len);
	free(g.types.p);
	free(g.strs.p);
	return out;
}

/* ---- well-formed graphs: references chosen by the planned kind ---- */

enum { REF_ANY, REF_SIZED, REF_INT, REF_PROTO, REF_VAR, REF_TAGGABLE };

static bool kind_fits(unsigned int k, int want)
{
	switch (want) {
	case REF_SIZED:
		return k == LBTF_KIND_INT || k == LBTF_KIND_PTR || k == LBTF_KIND_ARRAY ||
		       k == LBTF_KIND_STRUCT || k == LBTF_KIND_UNION || k == LBTF_KIND_ENUM ||
		       k == LBTF_KIND_TYPEDEF || k == LBTF_KIND_CONST || k == LBTF_KIND_VOLATILE ||
		       k == LBTF_KIND_FLOAT || k == LBTF_KIND_ENUM64 || k == LBTF_KIND_TYPE_TAG;
	case REF_INT: return k == LBTF_KIND_INT;
	case REF_PROTO: return k == LBTF_KIND_FUNC_PROTO;
	case REF_VAR: return k == LBTF_KIND_VAR;
	case REF_TAGGABLE:
		return k == LBTF_KIND_FUNC || k == LBTF_KIND_STRUCT || k == LBTF_KIND_UNION ||
		       k == LBTF_KIND_VAR || k == LBTF_KIND_TYPEDEF;
	default:
		return k != LBTF_KIND_VAR && k != LBTF_KIND_DATASEC && k != LBTF_KIND_DECL_TAG;
	}
}

/* an id (1-based) whose planned kind fits, else any id */
static uint32_t pref_(struct rng *r, const unsigned char *plan, uint32_t n, int want, uint32_t cur)
{
	for (int tries = 0; tries < 16; tries++) {
		/* mostly backward references: fewer loops, deeper checks */
		uint32_t id = cur > 1 && chance(r, 85) ? 1 + rnd_n(r, cur - 1) : 1 + rnd_n(r, n);
		if (kind_fits(plan[id - 1], want))
			return id;
	}
	return want == REF_ANY && chance(r, 50) ? 0 : 1;
}

#define pref(r, plan, n, want) pref_(r, plan, n, want, g->nr + 1)
static void gen_planned_one(struct rng *r, struct gblob *g, const unsigned char *plan, uint32_t n,
			    unsigned int k)
{
	uint32_t nm = gstr(g, PICK(r, ((const char *[]){ "a", "b", "foo", "_x", "s.t", "T" })));

	switch (k) {
	case LBTF_KIND_INT: {
		uint32_t bits = PICK(r, ((uint32_t[]){ 8, 16, 32, 64, 32, 3 }));
		gtype(g, nm, k, 0, 0, bits == 3 ? 1 : bits / 8);
		gput32(&g->types, (PICK(r, ((uint32_t[]){ 0, 1, 2, 4 })) << 24) | bits);
		break;
	}
	case LBTF_KIND_PTR: case LBTF_KIND_CONST: case LBTF_KIND_VOLATILE: case LBTF_KIND_RESTRICT:
		gtype(g, 0, k, 0, 0, chance(r, 10) ? 0 : pref(r, plan, n, REF_ANY));
		break;
	case LBTF_KIND_TYPEDEF: case LBTF_KIND_TYPE_TAG:
		gtype(g, nm, k, 0, k == LBTF_KIND_TYPE_TAG && chance(r, 20), pref(r, plan, n, REF_ANY));
		break;
	case LBTF_KIND_ARRAY:
		gtype(g, 0, k, 0, 0, 0);
		gput32(&g->types, pref(r, plan, n, REF_SIZED));
		gput32(&g->types, pref(r, plan, n, REF_INT));
		gput32(&g->types, rnd_n(r, 5));
		break;
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION: {
		unsigned int vlen = rnd_n(r, 4);
		int kflag = chance(r, 20);
		gtype(g, chance(r, 70) ? nm : 0, k, vlen, kflag, PICK(r, ((uint32_t[]){ 256, 256, 256, 64, 4 })));
		for (unsigned int i = 0; i < vlen; i++) {
			uint32_t o = k == LBTF_KIND_UNION ? 0 : i * 64;
			gput32(&g->types, chance(r, 50) ? gstr(g, "m") : 0);
			gput32(&g->types, pref(r, plan, n, REF_SIZED));
			gput32(&g->types, kflag && chance(r, 30) ? (PICK(r, ((uint32_t[]){ 1, 3, 8, 33 })) << 24) | o : o);
		}
		break;
	}
	case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
		gtype(g, nm, k, 1, chance(r, 50), k == LBTF_KIND_ENUM ? 4 : 8);
		gput32(&g->types, gstr(g, "E1"));
		gput32(&g->types, rnd(r));
		if (k == LBTF_KIND_ENUM64)
			gput32(&g->types, rnd(r));
		break;
	case LBTF_KIND_FWD:
		gtype(g, nm, k, 0, chance(r, 50), 0);
		break;
	case LBTF_KIND_FUNC:
		gtype(g, nm, k, rnd_n(r, 2), 0, pref(r, plan, n, REF_PROTO));
		break;
	case LBTF_KIND_FUNC_PROTO: {
		unsigned int vlen = rnd_n(r, 3);
		gtype(g, 0, k, vlen, 0, chance(r, 40) ? 0 : pref(r, plan, n, REF_SIZED));
		for (unsigned int i = 0; i < vlen; i++) {
			bool va = i == vlen - 1 && chance(r, 15);
			gput32(&g->types, va || chance(r, 10) ? 0 : gstr(g, "p"));
			gput32(&g->types, va ? 0 : pref(r, plan, n, REF_SIZED));
		}
		break;
	}
	case LBTF_KIND_VAR:
		gtype(g, nm, k, 0, 0, pref(r, plan, n, REF_SIZED));
		gput32(&g->types, rnd_n(r, 2));
		break;
	case LBTF_KIND_DATASEC: {
		unsigned int vlen = rnd_n(r, 3);
		gtype(g, gstr(g, ".data"), k, vlen, 0, 64);
		for (unsigned int i = 0; i < vlen; i++) {
			gput32(&g->types, pref(r, plan, n, REF_VAR));
			gput32(&g->types, i * 16);
			gput32(&g->types, PICK(r, ((uint32_t[]){ 1, 4, 8, 16 })));
		}
		break;
	}
	case LBTF_KIND_FLOAT:
		gtype(g, nm, k, 0, 0, PICK(r, ((uint32_t[]){ 4, 8, 16, 2 })));
		break;
	case LBTF_KIND_DECL_TAG:
		gtype(g, gstr(g, "tag"), k, 0, chance(r, 10), pref(r, plan, n, REF_TAGGABLE));
		gput32(&g->types, PICK(r, ((uint32_t[]){ -1u, -1u, 0, 1 })));
		break;
	}
}

/* A graph whose references mostly make sense: deep into pass 2. */
static unsigned char *gen_planned(struct rng *r, uint32_t n, size_t *len)
{
	unsigned char plan[64];
	struct gblob g;
	unsigned char *out;

	if (n > sizeof(plan))
		n = sizeof(plan);
	memset(&g, 0, sizeof(g));
	gput(&g.strs, "", 1);
	g.planned = n;
	for (uint32_t i = 0; i < n; i++)
		plan[i] = i == 0 ? LBTF_KIND_INT : gkind(r);
	for (uint32_t i = 0; i < n; i++)
		gen_planned_one(r, &g, plan, n, plan[i]);
	out = gassemble(&g, len);
	free(g.types.p);
	free(g.strs.p);
	return out;
}

/* ---- special fields: bpf_spin_lock & co., graph roots, kptrs ---- */

static unsigned char *gen_special(struct rng *r, size_t *len)
{
	static const struct { const char *name; uint32_t size; } sp[] = {
		{ "bpf_spin_lock", 4 }, { "bpf_res_spin_lock", 4 }, { "bpf_timer", 16 },
		{ "bpf_list_head", 16 }, { "bpf_list_node", 24 }, { "bpf_rb_root", 16 },
		{ "bpf_rb_node", 32 }, { "bpf_refcount", 4 }, { "bpf_wq", 16 },
	};
	static const char *tags[] = { "kptr", "kptr_untrusted", "percpu_kptr", "uptr", "user" };
	static const char *targets[] = { "task_struct", "node", "cgroup", "file", "bpf_cpumask",
					 "sk_buff", "bpf_crypto_ctx" };
	const uint32_t nsp = sizeof(sp) / sizeof(sp[0]);
	uint32_t id_sp = 2, id_tgt = 2 + nsp, id_tag, id_ptr, id_arr, id_user, id_node;
	struct gblob g;
	unsigned char *out;
	unsigned int nm;

	memset(&g, 0, sizeof(g));
	gput(&g.strs, "", 1);
	g.planned = 64;
	/* [1] int */
	gtype(&g, gstr(&g, "int"), LBTF_KIND_INT, 0, 0, 4);
	gput32(&g.types, (1u << 24) | 32);
	/* [2..] the special structs, sometimes with a wrong size */
	for (uint32_t i = 0; i < nsp; i++) {
		uint32_t sz = chance(r, 90) ? sp[i].size : sp[i].size + 4;
		gtype(&g, gstr(&g, sp[i].name), LBTF_KIND_STRUCT, 1, 0, sz);
		gput32(&g.types, gstr(&g, "v"));
		gput32(&g.types, 1);
		gput32(&g.types, 0);
	}
	/* a kptr target: struct of some name with one int */
	gtype(&g, gstr(&g, PICK(r, targets)), LBTF_KIND_STRUCT, 1, 0, chance(r, 90) ? 8 : 0);
	gput32(&g.types, gstr(&g, "x"));
	gput32(&g.types, 1);
	gput32(&g.types, 0);
	/* tag -> target, ptr -> tag, array of special */
	id_tag = id_tgt + 1;
	gtype(&g, gstr(&g, PICK(r, tags)), LBTF_KIND_TYPE_TAG, 0, chance(r, 5),
	      chance(r, 90) ? id_tgt : 1);
	id_ptr = id_tag + 1;
	gtype(&g, 0, LBTF_KIND_PTR, 0, 0, id_tag);
	id_arr = id_ptr + 1;
	gtype(&g, 0, LBTF_KIND_ARRAY, 0, 0, 0);
	gput32(&g.types, chance(r, 50) ? id_ptr : id_sp + rnd_n(r, nsp));
	gput32(&g.types, 1);
	gput32(&g.types, PICK(r, ((uint32_t[]){ 0, 1, 2, 3, 12 })));
	/* the node struct "node" and the user struct with random special members */
	id_node = id_arr + 1;
	id_user = id_node + 1;
	for (int k = 0; k < 2; k++) {
		unsigned int vlen = 1 + rnd_n(r, 5);
		uint32_t off = 0;

		gtype(&g, gstr(&g, k ? "user" : "node"), LBTF_KIND_STRUCT, vlen, 0, 512);
		for (unsigned int i = 0; i < vlen; i++) {
			uint32_t what = rnd_n(r, 10), t;
			if (what < 6)
				t = id_sp + rnd_n(r, nsp);
			else if (what < 8)
				t = id_ptr;
			else if (what < 9)
				t = id_arr;
			else
				t = k ? id_node : 1;
			gput32(&g.types, gstr(&g, PICK(r, ((const char *[]){ "a", "n", "r", "l" }))));
			gput32(&g.types, t);
			gput32(&g.types, off * 8 + (chance(r, 3) ? 4 * 8 : 0));
			off += PICK(r, ((uint32_t[]){ 0, 4, 8, 16, 32, 64 }));
		}
	}
	/* "contains:" tags on members of user and node */
	for (nm = rnd_n(r, 4); nm; nm--) {
		gtype(&g, gstr(&g, PICK(r, ((const char *[]){ "contains:node:n", "contains:node:l",
			"contains:user:n", "contains:node", "contains:nope:n", "contains:node:" }))),
		      LBTF_KIND_DECL_TAG, 0, 0, chance(r, 70) ? id_user : id_node);
		gput32(&g.types, rnd_n(r, 3));
	}
	out = gassemble(&g, len);
	free(g.types.p);
	free(g.strs.p);
	return out;
}

/* A longer header (hdr_len 25..32, so types may be unaligned), with a zero
 * tail or, sometimes, a non-zero one. Returns a new blob. */
static unsigned char *gextend_hdr(struct rng *r, const unsigned char *b, size_t *len)
{
	uint32_t extra = 1 + rnd_n(r, 8), hl = LBTF_HDR_LEN_V1 + extra;
	unsigned char *out = calloc(1, *len + extra);

	if (!out)
		abort();
	memcpy(out, b, LBTF_HDR_LEN_V1);
	memcpy(out + hl, b + LBTF_HDR_LEN_V1, *len - LBTF_HDR_LEN_V1);
	memcpy(out + 4, &hl, 4);
	if (chance(r, 15))
		out[LBTF_HDR_LEN_V1 + rnd_n(r, extra)] = 1;
	*len += extra;
	return out;
}

/* ---- targeted shapes the random graphs rarely reach ---- */

static unsigned char *gen_targeted(struct rng *r, size_t *len)
{
	struct gblob g;
	unsigned char *out;
	unsigned int what = rnd_n(r, 6);

	memset(&g, 0, sizeof(g));
	gput(&g.strs, "", 1);
	g.planned = 64;
	if (what == 0) { /* deep chains of modifiers, pointers, arrays or structs */
		uint32_t n = 28 + rnd_n(r, 10), k = rnd_n(r, 4);
		for (uint32_t i = 1; i <= n; i++) {
			if (k == 1 && i % 5 == 0) {
				gtype(&g, 0, LBTF_KIND_PTR, 0, 0, i + 1);
			} else if (k == 2) {
				gtype(&g, 0, LBTF_KIND_ARRAY, 0, 0, 0);
				gput32(&g.types, i + 1);
				gput32(&g.types, n + 1);
				gput32(&g.types, 1);
			} else if (k == 3) {
				gtype(&g, gstr(&g, "s"), LBTF_KIND_STRUCT, 1, 0, 4);
				gput32(&g.types, 0);
				gput32(&g.types, i + 1);
				gput32(&g.types, 0);
			} else {
				gtype(&g, 0, PICK(r, ((unsigned int[]){ LBTF_KIND_CONST, LBTF_KIND_VOLATILE })),
				      0, 0, i + 1);
			}
		}
		gtype(&g, gstr(&g, "int"), LBTF_KIND_INT, 0, 0, 4);
		gput32(&g.types, 32);
	} else if (what == 1) { /* members: floats, kflag ints, int bit offsets */
		uint32_t fsz = PICK(r, ((uint32_t[]){ 2, 4, 8, 12, 16 }));
		uint32_t ssz = chance(r, 20) ? 0x20000000 : 64;
		int kflag = chance(r, 50);
		gtype(&g, gstr(&g, "f"), LBTF_KIND_FLOAT, 0, 0, fsz);
		gtype(&g, gstr(&g, "i"), LBTF_KIND_INT, 0, 0, 16);
		gput32(&g.types, (rnd_n(r, 3) << 16) | PICK(r, ((uint32_t[]){ 8, 32, 64, 125, 128 })));
		gtype(&g, gstr(&g, "s"), LBTF_KIND_STRUCT, 2, kflag, ssz);
		for (int m = 0; m < 2; m++) {
			uint32_t off = ssz == 64 ? rnd_n(r, 64 * 8) : 0xffffffffu - rnd_n(r, 3);
			gput32(&g.types, 0);
			gput32(&g.types, 1 + rnd_n(r, 2));
			gput32(&g.types, kflag ? (rnd_n(r, 3) ? 0 : rnd_n(r, 40) << 24) | (off & 0xffffff) : off);
		}
	} else if (what == 5) { /* two structs owning each other (graph roots and nodes) */
		const char *lock = chance(r, 80) ? "bpf_spin_lock" : "bpf_res_spin_lock";
		gtype(&g, gstr(&g, "int"), LBTF_KIND_INT, 0, 0, 4);
		gput32(&g.types, (1u << 24) | 32);
		gtype(&g, gstr(&g, lock), LBTF_KIND_STRUCT, 1, 0, 4);
		gput32(&g.types, gstr(&g, "v"));
		gput32(&g.types, 1);
		gput32(&g.types, 0);
		gtype(&g, gstr(&g, chance(r, 70) ? "bpf_list_head" : "bpf_rb_root"), LBTF_KIND_STRUCT, 0, 0, 16);
		gtype(&g, gstr(&g, chance(r, 70) ? "bpf_list_node" : "bpf_rb_node"), LBTF_KIND_STRUCT, 0, 0,
		      chance(r, 50) ? 24 : 32);
		gtype(&g, gstr(&g, "bpf_refcount"), LBTF_KIND_STRUCT, 0, 0, 4);
		for (int k = 0; k < 2; k++) { /* [6] A, [7] B: lock, head, node, refcount */
			unsigned int vlen = 0;
			uint32_t mem[4][3];
			if (chance(r, 85))
				memcpy(mem[vlen++], (uint32_t[]){ gstr(&g, "l"), 2, 0 }, 12);
			if (chance(r, 80))
				memcpy(mem[vlen++], (uint32_t[]){ gstr(&g, "h"), 3, 64 }, 12);
			if (chance(r, 80))
				memcpy(mem[vlen++], (uint32_t[]){ gstr(&g, k ? "n" : "n2"), 4, 192 }, 12);
			if (chance(r, 30))
				memcpy(mem[vlen++], (uint32_t[]){ gstr(&g, "r"), 5, 448 }, 12);
			gtype(&g, gstr(&g, k ? "B" : "A"), LBTF_KIND_STRUCT, vlen, 0, 64);
			gput(&g.types, mem, vlen * 12);
		}
		for (int k = 0; k < 2; k++) {
			gtype(&g, gstr(&g, PICK(r, ((const char *[]){ "contains:B:n", "contains:A:n2",
				"contains:A:n", "contains:B:n2", "contains:B:r" }))),
			      LBTF_KIND_DECL_TAG, 0, 0, 6 + rnd_n(r, 2));
			gput32(&g.types, rnd_n(r, 3));
		}
	} else if (what == 2) { /* DATASEC entries whose sizes add up past the section */
		uint32_t size = PICK(r, ((uint32_t[]){ 8, 16, 0xffffffff }));
		gtype(&g, gstr(&g, "int"), LBTF_KIND_INT, 0, 0, 4);
		gput32(&g.types, 32);
		gtype(&g, gstr(&g, "v"), LBTF_KIND_VAR, 0, 0, 1);
		gput32(&g.types, 1);
		gtype(&g, gstr(&g, ".data"), LBTF_KIND_DATASEC, 2, 0, size);
		for (int m = 0; m < 2; m++) {
			gput32(&g.types, 2);
			gput32(&g.types, m ? rnd_n(r, 40) : (size == 0xffffffff ? 0xfffffff0 : 0));
			gput32(&g.types, PICK(r, ((uint32_t[]){ 4, 8, 16, 0x20, 0xfffffff0 })));
		}
	} else { /* strings before types: alignment and emptiness of the types */
		struct lbtf_header h = { LBTF_MAGIC, 1, 0, 24, 0, 0, 0, 0 };
		uint32_t slen = 1 + rnd_n(r, 8), tl = what == 3 ? 0 : 16;
		*len = 24 + slen + tl;
		out = calloc(1, *len);
		if (!out)
			abort();
		h.str_off = 0;
		h.str_len = slen;
		h.type_off = slen;
		h.type_len = tl;
		memcpy(out, &h, 24);
		if (tl)
			memcpy(out + 24 + slen, (uint32_t[]){ 0, lbtf_info(LBTF_KIND_INT, 0, 0), 4, 32 }, 16);
		free(g.strs.p);
		return out;
	}
	out = gassemble(&g, len);
	free(g.types.p);
	free(g.strs.p);
	return out;
}

/* Damage a blob in one targeted way (header fields, info bits, a word). */
static void gmutate(struct rng *r, unsigned char *b, size_t len)
{
	uint32_t *w;
	size_t nw;

	if (len < LBTF_HDR_LEN_V1)
		return;
	switch (rnd_n(r, 8)) {
	case 0: { /* a header field */
		static const uint32_t vals[] = { 0, 1, 3, 4, 8, 23, 25, 32, 0x80000000, 0xffffffff };
		uint32_t *f = (uint32_t *)b + 1 + rnd_n(r, 5);
		if (chance(r, 50))
			*f = PICK(r, vals);
		else
			*f += (int)rnd_n(r, 9) - 4;
		break;
	}
	case 1:
		b[rnd_n(r, 4)] ^= 1u << rnd_n(r, 8);
		break;
	default: { /* a word in the type section: info bits, ids, sizes, offsets */
		nw = (len - LBTF_HDR_LEN_V1) / 4;
		if (!nw)
			return;
		w = (uint32_t *)(b + LBTF_HDR_LEN_V1) + rnd_n(r, nw);
		switch (rnd_n(r, 6)) {
		case 0: *w ^= 1u << rnd_n(r, 32); break;
		case 1: *w ^= 0x80000000; break;
		case 2: *w = (*w & 0xe0ffffff) | (rnd_n(r, 21) << 24); break;
		case 3: *w += (int)rnd_n(r, 5) - 2; break;
		case 4: *w = rnd_n(r, 40); break;
		default: *w = rnd(r);
		}
	}
	}
}

#endif
