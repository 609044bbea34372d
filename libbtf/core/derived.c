// SPDX-License-Identifier: BSD-2-Clause
/*
 * What other modules derive from one BTF object alone, kept on the object
 * and freed with it: the index of its strings (builder/strtab.c), which
 * every builder over that base shares, and dedup's candidate table of its
 * types. Each is made on first use, under the object's lock (builders over
 * one base may be made by several threads at once), and read-only after.
 * Nothing lives beyond the object: no table of objects by address.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

struct lbtfi_derived {
	const void *key;
	void *data;
	void (*drop)(void *);
	struct lbtfi_derived *next;
};

const void *lbtfi_derived_get(const struct lbtf *cbtf, const void *key, void *(*make)(void *ctx),
			      void *ctx, void (*drop)(void *))
{
	/* the object's types and strings stay const: only this cache changes */
	struct lbtf *btf = (struct lbtf *)(uintptr_t)cbtf;
	struct lbtfi_derived *a;
	void *data = NULL;

	pthread_mutex_lock(&btf->derived_mu);
	for (a = btf->derived; a && a->key != key; a = a->next)
		;
	if (a) {
		data = a->data;
	} else if ((a = calloc(1, sizeof(*a)))) {
		data = make(ctx);
		if (data) {
			*a = (struct lbtfi_derived){ key, data, drop, btf->derived };
			btf->derived = a;
		} else {
			free(a);
		}
	}
	pthread_mutex_unlock(&btf->derived_mu);
	return data;
}

void lbtfi_derived_free(struct lbtf *btf)
{
	while (btf->derived) {
		struct lbtfi_derived *a = btf->derived;

		btf->derived = a->next;
		a->drop(a->data);
		free(a);
	}
	pthread_mutex_destroy(&btf->derived_mu);
}
