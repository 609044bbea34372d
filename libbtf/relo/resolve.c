// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every CO-RE relocation of an object against one target, in .BTF.ext
 * order, as libbpf's bpf_object__relocate_core() does it:
 *  1. the record's instruction must be in a program libbpf loads;
 *  2. the local root type's candidates (target types of its essential name
 *     and a compatible kind) are found once per root type and cached (all
 *     in one walk over the target beforehand: prefetch());
 *  3. the access string is parsed (type_id_local needs nothing more);
 *  4. each candidate is matched; the matching ones must agree on the bit
 *     offset and on the value (or poison), else the load fails; the
 *     non-matching ones are dropped from the cache when one matched;
 *  5. the instruction is checked and patched as bpf_core_patch_insn(): the
 *     compiler's value must be there (unless the kind is not checked), a
 *     load/store offset must fit 16 bits, a size change must be safe.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define INSN_SZ 8

struct walk {
	struct lbtf_core_object *o;
	const struct lbtf_core_target *t;
	struct relo_cands *cache; /* by local type id */
	bool *cached;
	uint32_t ncache;
	struct rspec local, cand, targ;
	bool have_targ;
	relo_cand_fn cand_fn;
	void *ctx;
	int cand_err;
	char path[512], tspec[512], why[512];
};

static int fail(struct lbtf_core_result *r, char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(struct lbtf_core_result *r, char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	r->outcome = LBTF_CORE_FAILED;
	r->err = err;
	return 0;
}

static const char *kind_str(uint32_t kind)
{
	const char *s = lbtf_core_relo_kind_name(kind);

	return s ? s : "unknown";
}

/* Steps 2-4 for one record: *res and r filled; r->outcome FAILED on error */
static void resolve(struct walk *w, const struct lbtf_ext_core_relo *rec,
		    struct lbtf_core_result *r, struct rres *res)
{
	const struct lbtf *lb = w->o->btf, *tb = relo_target_btf(w->t);
	const struct lbtf_type *lt = lbtf_type_by_id(lb, rec->type_id);
	const char *lname = lt ? lbtf_name_by_offset(lb, lt->name_off) : NULL;
	struct relo_cands *cands = NULL;
	char why[256] = "";
	uint32_t j = 0;
	int err;

	w->have_targ = false;
	if (!lt || !lname) {
		fail(r, w->why, sizeof(w->why), -EINVAL, "local type [%u] does not exist", rec->type_id);
		return;
	}
	if (rec->kind != LBTF_CORE_TYPE_ID_LOCAL) {
		if (rec->type_id >= w->ncache)
			return (void)fail(r, w->why, sizeof(w->why), -EINVAL, "bad type id");
		cands = &w->cache[rec->type_id];
		if (!w->cached[rec->type_id]) {
			err = relo_find_cands(w->t, lb, &rec->type_id, 1, cands);
			if (err) {
				fail(r, w->why, sizeof(w->why), err,
				     "target candidate search failed for [%u] %s %s%s", rec->type_id,
				     lbtf_kind_name(lbtf_kind(lt)), *lname ? lname : "(anon)",
				     *lname ? "" : ": libbpf looks up no anonymous type");
				return;
			}
			w->cached[rec->type_id] = true;
		}
	}
	err = relo_parse_spec(lb, rec->type_id, rec->kind, relo_str(lb, rec->access_str_off), &w->local);
	if (err) {
		fail(r, w->why, sizeof(w->why), -EINVAL, "parsing [%u] %s %s + %s failed: %d",
		     rec->type_id, lbtf_kind_name(lbtf_kind(lt)), *lname ? lname : "<anon>",
		     relo_str(lb, rec->access_str_off), err);
		return;
	}
	if (rec->kind == LBTF_CORE_TYPE_ID_LOCAL) {
		memset(res, 0, sizeof(*res));
		res->orig = res->new = rec->type_id;
		return;
	}
	if (!*lname) {
		fail(r, w->why, sizeof(w->why), -EOPNOTSUPP,
		     "<%s> relocation doesn't support anonymous types", kind_str(rec->kind));
		return;
	}
	r->cands = cands->len;
	for (uint32_t i = 0; i < cands->len; i++) {
		struct rres cres;

		err = relo_spec_match(&w->local, tb, cands->ids[i], &w->cand);
		if (err < 0) {
			fail(r, w->why, sizeof(w->why), err, "error matching candidate [%u]: %d",
			     cands->ids[i], err);
			return;
		}
		if (!err)
			continue;
		if (w->cand_fn && !w->cand_err)
			w->cand_err = w->cand_fn(&w->local, &w->cand, w->ctx);
		if ((err = relo_calc(rec->kind, &w->local, &w->cand, w->o->rules, &cres, why, sizeof(why)))) {
			fail(r, w->why, sizeof(w->why), err, "%s", *why ? why : "cannot compute the value");
			return;
		}
		if (!j) {
			*res = cres;
			w->targ = w->cand;
			w->have_targ = true;
		} else if (w->cand.bit_off != w->targ.bit_off) {
			fail(r, w->why, sizeof(w->why), -EINVAL,
			     "field offset ambiguity: [%u] at bit %u, [%u] at bit %u", w->targ.root_id,
			     w->targ.bit_off, w->cand.root_id, w->cand.bit_off);
			return;
		} else if (cres.poison != res->poison || cres.new != res->new) {
			fail(r, w->why, sizeof(w->why), -EINVAL,
			     "relocation decision ambiguity: [%u] %s %llu, [%u] %s %llu", w->targ.root_id,
			     res->poison ? "failure" : "success", (unsigned long long)res->new,
			     w->cand.root_id, cres.poison ? "failure" : "success",
			     (unsigned long long)cres.new);
			return;
		}
		cands->ids[j++] = cands->ids[i];
	}
	r->matches = j;
	if (j) {
		cands->len = j;
		return;
	}
	if ((err = relo_calc(rec->kind, &w->local, NULL, w->o->rules, res, why, sizeof(why))))
		fail(r, w->why, sizeof(w->why), err, "%s", *why ? why : "cannot compute the value");
}

struct insn {
	uint8_t code, regs;
	int16_t off;
	int32_t imm;
};

static int insn_bytes(uint8_t code)
{
	static const int bytes[4] = { 4, 2, 1, 8 }; /* BPF_W, BPF_H, BPF_B, BPF_DW */

	return bytes[(code >> 3) & 3];
}

/* Step 5: the record's outcome from res and its instruction(s) */
static void patch(struct walk *w, const struct insn *in, uint32_t avail,
		  struct lbtf_core_result *r, const struct rres *res)
{
	uint8_t cls = in->code & 7;

	if (res->poison) {
		r->outcome = LBTF_CORE_POISONED;
		snprintf(w->why, sizeof(w->why), "%s not found: the instruction is made an invalid call "
			 "(the verifier rejects it if it is reachable)",
			 relo_is_enumval(r->kind) ? "enumerator" : "field");
		return;
	}
	switch (cls) {
	case 4: case 7: /* BPF_ALU, BPF_ALU64 */
		if (in->code & 8) /* BPF_X */
			return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
					  "insn #%u: ALU with a register source cannot be relocated",
					  r->insn_idx);
		if (res->validate && (uint64_t)(int64_t)in->imm != res->orig)
			return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
					  "unexpected insn #%u (ALU/ALU64) value: got %d, exp %llu -> %llu",
					  r->insn_idx, in->imm, (unsigned long long)res->orig,
					  (unsigned long long)res->new);
		break;
	case 1: case 2: case 3: /* BPF_LDX, BPF_ST, BPF_STX */
		if (res->validate && (uint64_t)(int64_t)in->off != res->orig)
			return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
					  "unexpected insn #%u (LDX/ST/STX) value: got %d, exp %llu -> %llu",
					  r->insn_idx, in->off, (unsigned long long)res->orig,
					  (unsigned long long)res->new);
		if (res->new > INT16_MAX)
			return (void)fail(r, w->why, sizeof(w->why), -ERANGE,
					  "insn #%u (LDX/ST/STX) value too big: %llu", r->insn_idx,
					  (unsigned long long)res->new);
		if (res->memsz_fail) {
			r->outcome = LBTF_CORE_POISONED;
			snprintf(w->why, sizeof(w->why), "load/store size %u -> %u of a field neither "
				 "pointer nor unsigned integer", res->orig_sz, res->new_sz);
			return;
		}
		if (res->new_sz != res->orig_sz) {
			if (insn_bytes(in->code) != (int)res->orig_sz)
				return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
						  "insn #%u (LDX/ST/STX) unexpected mem size: got %d, exp %u",
						  r->insn_idx, insn_bytes(in->code), res->orig_sz);
			if (res->new_sz != 1 && res->new_sz != 2 && res->new_sz != 4 && res->new_sz != 8)
				return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
						  "insn #%u (LDX/ST/STX) invalid new mem size: %u",
						  r->insn_idx, res->new_sz);
			r->local_mem_sz = res->orig_sz;
			r->target_mem_sz = res->new_sz;
		}
		break;
	case 0: { /* BPF_LD: only ldimm64 */
		uint64_t imm;

		if (in->code != 0x18 || avail < 2 || (in->regs & 0xf0) || in->off || in[1].code ||
		    in[1].regs || in[1].off)
			return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
					  "insn #%u (LDIMM64) has unexpected form", r->insn_idx);
		imm = (uint32_t)in[0].imm | (uint64_t)(uint32_t)in[1].imm << 32;
		if (res->validate && imm != res->orig)
			return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
					  "unexpected insn #%u (LDIMM64) value: got %llu, exp %llu -> %llu",
					  r->insn_idx, (unsigned long long)imm, (unsigned long long)res->orig,
					  (unsigned long long)res->new);
		break;
	}
	default:
		return (void)fail(r, w->why, sizeof(w->why), -EINVAL,
				  "trying to relocate unrecognized insn #%u, code:0x%x", r->insn_idx,
				  in->code);
	}
	r->outcome = LBTF_CORE_RELOCATED;
}

/* One record: the result, through fn and spec_fn */
static int one(struct walk *w, const char *sec_name, uint32_t s, uint32_t i,
	       const struct lbtf_ext_core_relo *rec, lbtf_core_result_fn fn)
{
	const struct lbtf *lb = w->o->btf;
	struct lbtf_core_result r = {
		.sz = sizeof(r), .sec_name = sec_name, .sec = s, .relo_idx = i,
		.insn_idx = rec->insn_off / INSN_SZ, .kind = rec->kind, .local_id = rec->type_id,
		.access = relo_str(lb, rec->access_str_off), .path = w->path, .target_spec = "",
		.why = w->why,
	};
	const struct relo_prog *prog = NULL;
	struct lbtfi_shdr sh;
	size_t shndx = lbtfi_elf_find(&w->o->elf, sec_name, &sh);
	struct rres res = { 0 };

	w->why[0] = '\0';
	w->have_targ = false;
	if (lbtf_core_relo_path(lb, rec, w->path, sizeof(w->path)))
		w->path[0] = '\0';
	if (rec->insn_off % INSN_SZ)
		fail(&r, w->why, sizeof(w->why), -EINVAL, "insn_off %u is not a multiple of %d",
		     rec->insn_off, INSN_SZ);
	else if (!shndx || !lbtfi_elf_sec_data(&w->o->elf, &sh))
		fail(&r, w->why, sizeof(w->why), -EINVAL, "no section '%s' with instructions", sec_name);
	else if (!(prog = relo_find_prog(w->o, shndx, r.insn_idx))) {
		r.outcome = LBTF_CORE_SKIPPED;
		snprintf(w->why, sizeof(w->why), "insn #%u is in no program (an eliminated weak "
			 "subprogram): libbpf skips it", r.insn_idx);
	} else if (!(w->o->rules == LBTF_CORE_RULES_LIBBPF_1_1 ? prog->autoload : prog->autoload_18)) {
		r.outcome = LBTF_CORE_SKIPPED;
		snprintf(w->why, sizeof(w->why), "%s: libbpf skips it", prog->st_used ?
			 "struct_ops program only maps not created by default use "
			 "(SEC(\"?.struct_ops\"))" : "program not loaded by default (SEC(\"?...\"))");
	} else {
		resolve(w, rec, &r, &res);
		if (r.outcome != LBTF_CORE_FAILED) {
			struct insn in[2] = { 0 };
			uint32_t avail = prog->first + prog->cnt - r.insn_idx;
			const unsigned char *code = lbtfi_elf_sec_data(&w->o->elf, &sh);

			memcpy(in, code + (size_t)r.insn_idx * INSN_SZ, avail > 1 ? 16 : 8);
			patch(w, in, avail, &r, &res);
			r.local_val = res.orig;
			r.target_val = res.new;
		}
		if (w->have_targ) {
			relo_format_raw(&w->targ, w->tspec, sizeof(w->tspec));
			r.target_spec = w->tspec;
			r.target_id = w->targ.root_id;
		}
	}
	if (r.outcome == LBTF_CORE_RELOCATED)
		w->why[0] = '\0';
	if (w->cand_err)
		return w->cand_err;
	return fn ? fn(&r, w->ctx) : 0;
}

/* The candidates of every named local root type the records name, found in
 * one walk over the target's types (the others are looked up when met, and
 * fail there as libbpf's search fails) */
static int prefetch(struct walk *w)
{
	const struct lbtf *lb = w->o->btf;
	uint32_t *ids = NULL, n = 0, cap = 0;
	struct relo_cands *got;
	int err = 0;

	for (uint32_t s = 0; !err && s < lbtf_ext_sec_cnt(w->o->ext, LBTF_EXT_CORE_RELO); s++) {
		struct lbtf_ext_sec sec;

		if (lbtf_ext_sec(w->o->ext, LBTF_EXT_CORE_RELO, s, &sec))
			break;
		for (uint32_t i = 0; !err && i < sec.rec_cnt; i++) {
			struct lbtf_ext_core_relo rec;
			const struct lbtf_type *lt;
			const char *name;

			if (lbtf_ext_core_relo(w->o->ext, s, i, &rec) || rec.type_id >= w->ncache ||
			    rec.kind == LBTF_CORE_TYPE_ID_LOCAL || w->cached[rec.type_id])
				continue;
			lt = lbtf_type_by_id(lb, rec.type_id);
			name = lt ? lbtf_name_by_offset(lb, lt->name_off) : NULL;
			if (!name || !*name)
				continue;
			if (n == cap) {
				uint32_t *v = realloc(ids, (cap = cap ? cap * 2 : 16) * sizeof(*v));

				if (!v) {
					err = -ENOMEM;
					break;
				}
				ids = v;
			}
			ids[n++] = rec.type_id;
			w->cached[rec.type_id] = true; /* once in ids */
		}
	}
	got = err || !n ? NULL : calloc(n, sizeof(*got));
	if (!err && n && !got)
		err = -ENOMEM;
	if (!err && n)
		err = relo_find_cands(w->t, lb, ids, n, got);
	for (uint32_t i = 0; i < n; i++) {
		if (!err)
			w->cache[ids[i]] = got[i];
		else
			w->cached[ids[i]] = false;
	}
	free(got);
	free(ids);
	return err;
}

int relo_walk(struct lbtf_core_object *o, const struct lbtf_core_target *t,
	      lbtf_core_result_fn fn, relo_cand_fn cand_fn, void *ctx)
{
	struct walk *w = calloc(1, sizeof(*w));
	int err = 0;

	if (!w)
		return lbtfi_err(ENOMEM, "out of memory");
	w->o = o;
	w->t = t;
	w->cand_fn = cand_fn;
	w->ctx = ctx;
	w->ncache = lbtf_type_cnt(o->btf);
	w->cache = calloc(w->ncache, sizeof(*w->cache));
	w->cached = calloc(w->ncache, sizeof(*w->cached));
	if (!w->cache || !w->cached || prefetch(w))
		err = lbtfi_err(ENOMEM, "out of memory");
	for (uint32_t s = 0; !err && s < lbtf_ext_sec_cnt(o->ext, LBTF_EXT_CORE_RELO); s++) {
		struct lbtf_ext_sec sec;
		const char *name;

		if ((err = lbtf_ext_sec(o->ext, LBTF_EXT_CORE_RELO, s, &sec)))
			break;
		name = relo_str(o->btf, sec.sec_name_off);
		if (!*name) {
			err = lbtfi_err(EINVAL, "%s: .BTF.ext CO-RE section %u has no name", o->path, s);
			break;
		}
		for (uint32_t i = 0; !err && i < sec.rec_cnt; i++) {
			struct lbtf_ext_core_relo rec;

			err = lbtf_ext_core_relo(o->ext, s, i, &rec);
			if (!err)
				err = one(w, name, s, i, &rec, fn);
		}
	}
	for (uint32_t i = 0; w->cache && i < w->ncache; i++)
		free(w->cache[i].ids);
	free(w->cache);
	free(w->cached);
	free(w);
	return err;
}

int lbtf_core_relocate(struct lbtf_core_object *o, const struct lbtf_core_target *t,
		       lbtf_core_result_fn fn, void *ctx)
{
	if (!o || !t)
		return lbtfi_err(EINVAL, "lbtf_core_relocate: no object or target");
	return relo_walk(o, t, fn, NULL, ctx);
}

const char *lbtf_core_outcome_name(enum lbtf_core_outcome o)
{
	static const char *const names[] = { "relocated", "poisoned", "failed", "skipped" };

	return (unsigned int)o < 4 ? names[o] : "unknown";
}
