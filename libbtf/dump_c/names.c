// SPDX-License-Identifier: BSD-2-Clause
/*
 * Name clash renaming. C has one namespace for struct/union/enum tags and
 * one for ordinary identifiers (typedefs, enumerators); BTF may hold several
 * different types with the same name. The n-th definition of a name in a
 * namespace, in emission order, is printed as name___n (n > 1). Counting
 * happens when a name is first needed, so the numbering follows emission
 * order exactly like bpftool's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int resize(struct dc_names *n, uint32_t cap)
{
	struct dc_name_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < n->cap; i++) {
		uint32_t j;

		if (!n->slots[i].key)
			continue;
		for (j = n->slots[i].hash & (cap - 1); slots[j].key; j = (j + 1) & (cap - 1))
			;
		slots[j] = n->slots[i];
	}
	free(n->slots);
	n->slots = slots;
	n->cap = cap;
	return 0;
}

int dci_names_reserve(struct dc_names *n, uint32_t expected)
{
	uint32_t cap = 1024;

	while (cap / 2 < expected && cap < (1u << 30))
		cap *= 2;
	return cap > n->cap ? resize(n, cap) : 0;
}

uint32_t dci_names_bump(struct dc_names *n, const char *name)
{
	uint32_t h = str_hash(name), j;

	if (n->used * 2 >= n->cap && resize(n, n->cap ? n->cap * 2 : 1024))
		return 0;
	/* deduplicated BTF strings: equal names usually are the same pointer */
	for (j = h & (n->cap - 1); n->slots[j].key; j = (j + 1) & (n->cap - 1)) {
		struct dc_name_slot *s = &n->slots[j];

		if (s->hash == h && (s->key == name || !strcmp(s->key, name)))
			return ++s->count;
	}
	n->slots[j] = (struct dc_name_slot){ name, h, 1 };
	n->used++;
	return 1;
}

void dci_names_free(struct dc_names *n)
{
	free(n->slots);
	memset(n, 0, sizeof(*n));
}

/* Decides once per type whether its name needs a ___N suffix. */
static void resolve(struct dc *d, uint32_t id, struct dc_names *names)
{
	const struct lbtf_type *t = dci_type(d, id);
	uint32_t cnt;

	if (d->st[id].name_resolved || !t->name_off)
		return;
	d->st[id].name_resolved = 1;
	/* forward declarations never define anything, so never clash */
	if (lbtf_kind(t) == LBTF_KIND_FWD || (lbtf_kind(t) == LBTF_KIND_ENUM && !lbtf_vlen(t)))
		return;
	cnt = dci_names_bump(names, dci_str(d, t->name_off));
	if (!cnt)
		dci_fail(d, -ENOMEM, "out of memory counting names", id);
	d->suffix[id] = cnt > 1 ? cnt : 0;
}

/*
 * The printed name. Renamed names are capped at DC_NAME_MAX - 1 bytes, as
 * the reference does; the usual unrenamed case points into the BTF strings.
 */
static const char *name_of(struct dc *d, uint32_t id, struct dc_names *names,
			   char buf[DC_NAME_MAX])
{
	const struct lbtf_type *t = dci_type(d, id);

	if (!t->name_off)
		return "";
	resolve(d, id, names);
	if (!d->suffix[id])
		return dci_str(d, t->name_off);
	snprintf(buf, DC_NAME_MAX, "%s___%u", dci_str(d, t->name_off), d->suffix[id]);
	return buf;
}

const char *dci_ident_name(struct dc *d, uint32_t id, char buf[DC_NAME_MAX])
{
	return name_of(d, id, &d->ident_names, buf);
}

const char *dci_type_name(struct dc *d, uint32_t id, char buf[DC_NAME_MAX])
{
	return name_of(d, id, &d->type_names, buf);
}

void dci_put_type_name(struct dc *d, uint32_t id)
{
	char buf[DC_NAME_MAX];

	dci_puts(&d->out, name_of(d, id, &d->type_names, buf));
}

void dci_put_ident_name(struct dc *d, uint32_t id)
{
	char buf[DC_NAME_MAX];

	dci_puts(&d->out, name_of(d, id, &d->ident_names, buf));
}
