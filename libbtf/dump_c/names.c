// SPDX-License-Identifier: BSD-2-Clause
/*
 * Name clash renaming. C has one namespace for struct/union/enum tags and
 * one for ordinary identifiers (typedefs, enumerators); BTF may hold several
 * different types with the same name. The n-th definition of a name in a
 * namespace, in emission order, is printed as name___n (n > 1). Counting
 * happens when a name is first needed, so the numbering follows emission
 * order exactly like bpftool's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int lbtfi_dc_names_reserve(struct lbtfi_dc_names *n, uint32_t expected, struct lbtfi_dc_name *room)
{
	if (room && !n->ent) {
		n->ent = room;
		n->cap = expected;
		n->ent_lent = true;
	}
	if (!n->tab.slots)
		return lbtfi_htab_init(&n->tab, expected < 512 ? 512 : expected, 3);
	return lbtfi_htab_reserve(&n->tab, expected > n->tab.cnt ? expected - n->tab.cnt : 0);
}

/* Room for one more entry (lent room is full: a block of its own) */
static int grow_ents(struct lbtfi_dc_names *n)
{
	struct lbtfi_dc_name *lent = n->ent;

	if (n->cnt < n->cap)
		return 0;
	if (!n->ent_lent)
		return LBTFI_GROW_FROM(n->ent, n->cap, n->cnt + 1, 512);
	n->ent = NULL;
	n->cap = 0;
	if (LBTFI_GROW_FROM(n->ent, n->cap, n->cnt + 1, 512)) {
		n->ent = lent;
		n->cap = n->cnt;
		return -ENOMEM;
	}
	memcpy(n->ent, lent, n->cnt * sizeof(*n->ent));
	n->ent_lent = false;
	return 0;
}

/* A name's hash, 8 bytes a step (names are counted 33,000 times in a
 * vmlinux.h; a byte a step was 4M instructions) */
static uint32_t name_hash(const struct lbtfi_dc *d, uint32_t off)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	bool ended = false;

	for (size_t pos = 0; !ended; pos += 8) {
		h = (h ^ lbtfi_dc_name_chunk(d, off, pos, &ended)) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (uint32_t)h;
}

uint32_t lbtfi_dc_names_bump(const struct lbtfi_dc *d, struct lbtfi_dc_names *n, uint32_t off)
{
	const char *name = lbtfi_dc_str(d, off);
	uint32_t h = name_hash(d, off);

	if (!n->tab.slots && lbtfi_dc_names_reserve(n, 0, NULL))
		return 0;
	/* deduplicated BTF strings: equal names usually are the same offset */
	LBTFI_HTAB_FOR_EACH(&n->tab, h, slot, i) {
		struct lbtfi_dc_name *e = &n->ent[i];

		if (e->off == off || !strcmp(lbtfi_dc_str(d, e->off), name))
			return ++e->count;
	}
	if (grow_ents(n) || lbtfi_htab_add(&n->tab, h, (uint32_t)n->cnt))
		return 0;
	n->ent[n->cnt++] = (struct lbtfi_dc_name){ off, 1 };
	return 1;
}

void lbtfi_dc_names_free(struct lbtfi_dc_names *n)
{
	lbtfi_htab_free(&n->tab);
	if (!n->ent_lent)
		free(n->ent);
	memset(n, 0, sizeof(*n));
}

/* Decides once per type whether its name needs a ___N suffix. */
static __attribute__((noinline)) void resolve(struct lbtfi_dc *d, uint32_t id,
					       struct lbtfi_dc_names *names)
{
	const struct lbtf_type *t = lbtfi_dc_type(d, id);
	uint32_t cnt;

	d->st[id].name_resolved = 1;
	/* forward declarations never define anything, so never clash */
	if (lbtf_kind(t) == LBTF_KIND_FWD || (lbtf_kind(t) == LBTF_KIND_ENUM && !lbtf_vlen(t)))
		return;
	cnt = lbtfi_dc_names_bump(d, names, t->name_off);
	if (!cnt) {
		lbtfi_dc_fail(d, -ENOMEM, "out of memory counting names", id);
		return;
	}
	if (cnt == 1)
		return;
	/* the few renamed types keep their ___N in a table by id (the id
	 * is the key's hash: equal hashes are equal ids) */
	if ((!d->renames.slots && lbtfi_htab_init(&d->renames, 64, 2)) ||
	    lbtfi_htab_add(&d->renames, id, cnt))
		lbtfi_dc_fail(d, -ENOMEM, "out of memory counting names", id);
	else
		d->st[id].renamed = 1;
}

static uint32_t suffix_of(const struct lbtfi_dc *d, uint32_t id)
{
	LBTFI_HTAB_FOR_EACH(&d->renames, id, i, n)
		return n;
	return 0;
}

/*
 * The printed name. Renamed names are capped at DC_NAME_MAX - 1 bytes, as
 * the reference does; the usual unrenamed case points into the BTF strings.
 */
static inline __attribute__((always_inline)) const char *
name_of(struct lbtfi_dc *d, uint32_t id, struct lbtfi_dc_names *names, char buf[DC_NAME_MAX])
{
	const struct lbtf_type *t = lbtfi_dc_type(d, id);

	if (!t->name_off)
		return "";
	if (!d->st[id].name_resolved) /* (once a type: the counting) */
		resolve(d, id, names);
	if (!d->st[id].renamed)
		return lbtfi_dc_str(d, t->name_off);
	snprintf(buf, DC_NAME_MAX, "%s___%u", lbtfi_dc_str(d, t->name_off), suffix_of(d, id));
	return buf;
}

const char *lbtfi_dc_ident_name(struct lbtfi_dc *d, uint32_t id, char buf[DC_NAME_MAX])
{
	return name_of(d, id, &d->ident_names, buf);
}

const char *lbtfi_dc_type_name(struct lbtfi_dc *d, uint32_t id, char buf[DC_NAME_MAX])
{
	return name_of(d, id, &d->type_names, buf);
}

void lbtfi_dc_put_type_name(struct lbtfi_dc *d, uint32_t id)
{
	char buf[DC_NAME_MAX];

	lbtfi_dc_puts(&d->out, name_of(d, id, &d->type_names, buf));
}

void lbtfi_dc_put_ident_name(struct lbtfi_dc *d, uint32_t id)
{
	char buf[DC_NAME_MAX];

	lbtfi_dc_puts(&d->out, name_of(d, id, &d->ident_names, buf));
}
