// SPDX-License-Identifier: BSD-2-Clause
/*
 * A target kernel's BTF, indexed once by essential name so that finding a
 * local type's candidates costs a lookup instead of libbpf's walk over every
 * type (a vmlinux has ~130k) for each local root type. The chains keep
 * target id order, which is the order libbpf meets candidates in: the first
 * matching one is the one reported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/htab.h"

struct lbtf_core_target {
	const struct lbtf *btf;
	struct lbtf *owned;
	char *name;
	struct lbtfi_htab names; /* essential-name hash -> first id of the chain */
	uint32_t *next;          /* next[id]: the next id of the same hash, 0 none */
};

static uint32_t hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int build_index(struct lbtf_core_target *t)
{
	uint32_t n = lbtf_type_cnt(t->btf);
	int err;

	t->next = calloc(n ? n : 1, sizeof(*t->next));
	if (!t->next || (err = lbtfi_htab_init(&t->names, n / 2 + 16, 2)))
		return -ENOMEM;
	/* backwards, each id put at its chain's head: chains in id order */
	for (uint32_t id = n; id-- > 1;) {
		const struct lbtf_type *ty = lbtf_type_by_id(t->btf, id);
		const char *name = lbtf_name_by_offset(t->btf, ty->name_off);
		uint32_t h, *head = NULL;
		size_t len;

		if (!name || !*name)
			continue;
		len = relo_essential_len(name);
		h = hash_name(name, len);
		LBTFI_HTAB_FOR_EACH(&t->names, h, i, val) {
			const struct lbtf_type *o = lbtf_type_by_id(t->btf, val);
			const char *on = lbtf_name_by_offset(t->btf, o->name_off);

			if (relo_essential_len(on) == len && !strncmp(on, name, len)) {
				head = &t->names.slots[i].val;
				break;
			}
		}
		if (head) {
			t->next[id] = *head;
			*head = id;
			continue;
		}
		if ((err = lbtfi_htab_reserve(&t->names, 1)))
			return err;
		lbtfi_htab_put(&t->names, h, id);
	}
	return 0;
}

struct lbtf_core_target *lbtf_core_target_new(const struct lbtf *btf, const char *name)
{
	struct lbtf_core_target *t = calloc(1, sizeof(*t));

	if (!t || !(t->name = strdup(name ? name : ""))) {
		free(t);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	t->btf = btf;
	if (build_index(t)) {
		lbtf_core_target_free(t);
		return lbtfi_err_ptr(ENOMEM, "out of memory indexing %s", name ? name : "the target");
	}
	return t;
}

struct lbtf_core_target *lbtf_core_target_open(const char *path)
{
	struct lbtf *btf = lbtf_open(path, NULL);
	struct lbtf_core_target *t;

	if (!btf)
		return NULL;
	if (lbtf_start_id(btf) > 1) {
		lbtf_free(btf);
		return lbtfi_err_ptr(EINVAL, "%s: split BTF (a module's): a CO-RE target is a whole "
					     "kernel's BTF", path);
	}
	t = lbtf_core_target_new(btf, path);
	if (!t) {
		lbtf_free(btf);
		return NULL;
	}
	t->owned = btf;
	return t;
}

const struct lbtf *lbtf_core_target_btf(const struct lbtf_core_target *t)
{
	return t->btf;
}

const char *lbtf_core_target_name(const struct lbtf_core_target *t)
{
	return t->name;
}

void lbtf_core_target_free(struct lbtf_core_target *t)
{
	if (!t)
		return;
	lbtfi_htab_free(&t->names);
	free(t->next);
	free(t->name);
	lbtf_free(t->owned);
	free(t);
}

const struct lbtf *relo_target_btf(const struct lbtf_core_target *t)
{
	return t->btf;
}

int relo_find_cands(const struct lbtf_core_target *t, const struct lbtf *lb, uint32_t local_id,
		    struct relo_cands *out)
{
	const struct lbtf_type *lt = lbtf_type_by_id(lb, local_id);
	const char *lname = lt ? lbtf_name_by_offset(lb, lt->name_off) : NULL;
	uint32_t h, first = 0, cap = 0;
	size_t len;

	out->ids = NULL;
	out->len = 0;
	if (!lname || !*lname)
		return -EINVAL;
	len = relo_essential_len(lname);
	h = hash_name(lname, len);
	LBTFI_HTAB_FOR_EACH(&t->names, h, i, val) {
		const struct lbtf_type *o = lbtf_type_by_id(t->btf, val);
		const char *on = lbtf_name_by_offset(t->btf, o->name_off);

		if (relo_essential_len(on) == len && !strncmp(on, lname, len)) {
			first = val;
			break;
		}
	}
	for (uint32_t id = first; id; id = t->next[id]) {
		if (!relo_kind_compat(lbtf_type_by_id(t->btf, id), lt))
			continue;
		if (out->len == cap) {
			uint32_t *n = realloc(out->ids, (cap = cap ? cap * 2 : 4) * sizeof(*n));

			if (!n) {
				free(out->ids);
				out->ids = NULL;
				return -ENOMEM;
			}
			out->ids = n;
		}
		out->ids[out->len++] = id;
	}
	return 0;
}
