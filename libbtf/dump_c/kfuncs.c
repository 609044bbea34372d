// SPDX-License-Identifier: BSD-2-Clause
/*
 * Optional kfunc prototypes (opts->kfuncs, what bpftool v7.5+ appends to a
 * full vmlinux.h): every FUNC tagged with the whole-function DECL_TAG
 * "bpf_kfunc" becomes `extern <prototype> __weak __ksym;`, sorted by name,
 * with __bpf_fastcall when also tagged "bpf_fastcall"; the block can be
 * switched off with BPF_NO_KFUNC_PROTOTYPES. The fallback definitions of
 * the three macros go into the header's frame.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct kfunc {
	uint32_t func_id;
	const char *name;
	bool fastcall;
};

static int cmp_kfunc(const void *a, const void *b)
{
	const struct kfunc *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : (x->func_id > y->func_id) - (x->func_id < y->func_id);
}

static struct kfunc *find(struct kfunc *k, size_t n, uint32_t func_id)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].func_id == func_id)
			return &k[i];
	return NULL;
}

void lbtfi_dc_put_kfunc_macros(struct lbtfi_dc *d)
{
	lbtfi_dc_puts(&d->out, "#ifndef __ksym\n"
			  "#define __ksym __attribute__((section(\".ksyms\")))\n"
			  "#endif\n\n"
			  "#ifndef __weak\n"
			  "#define __weak __attribute__((weak))\n"
			  "#endif\n\n"
			  "#ifndef __bpf_fastcall\n"
			  "#if __has_attribute(bpf_fastcall)\n"
			  "#define __bpf_fastcall __attribute__((bpf_fastcall))\n"
			  "#else\n"
			  "#define __bpf_fastcall\n"
			  "#endif\n"
			  "#endif\n\n");
}

/* The FUNC t tags as a whole (component -1), or 0. */
static uint32_t tagged_func(struct lbtfi_dc *d, const struct lbtf_type *t)
{
	const struct lbtf_type *f;

	if (lbtf_kind(t) != LBTF_KIND_DECL_TAG || lbtf_decl_tag(t)->component_idx != -1)
		return 0;
	f = lbtfi_dc_type(d, t->type);
	return lbtf_kind(f) == LBTF_KIND_FUNC && lbtf_kind(lbtfi_dc_type(d, f->type)) ==
		LBTF_KIND_FUNC_PROTO ? t->type : 0;
}

static int add_id(struct lbtfi_dc *d, uint32_t **v, size_t *n, size_t *cap, uint32_t id)
{
	if (LBTFI_GROW_FROM(*v, *cap, *n + 1, 64))
		return lbtfi_dc_fail(d, -ENOMEM, "out of memory listing kfuncs", id);
	(*v)[(*n)++] = id;
	return 0;
}

int lbtfi_dc_put_kfuncs(struct lbtfi_dc *d)
{
	struct kfunc *k = NULL;
	uint32_t *fast = NULL;
	size_t n = 0, m, cap = 0, nfast = 0, fast_cap = 0;

	/* one pass: the kfuncs, and the FUNCs tagged bpf_fastcall */
	for (uint32_t id = 1; id < d->nr_types; id++) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);
		uint32_t f = tagged_func(d, t);
		const char *tag;

		if (!f)
			continue;
		tag = lbtfi_dc_str(d, t->name_off);
		if (!strcmp(tag, "bpf_kfunc")) {
			if (LBTFI_GROW_FROM(k, cap, n + 1, 64)) {
				free(k);
				free(fast);
				return lbtfi_dc_fail(d, -ENOMEM, "out of memory listing kfuncs", id);
			}
			k[n++] = (struct kfunc){ f, lbtfi_dc_str(d, lbtfi_dc_type(d, f)->name_off), false };
		} else if (!strcmp(tag, "bpf_fastcall") && add_id(d, &fast, &nfast, &fast_cap, f)) {
			free(k);
			free(fast);
			return d->err;
		}
	}
	if (n)
		qsort(k, n, sizeof(*k), cmp_kfunc);
	/* a FUNC tagged twice is declared once (sorting made copies adjacent) */
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || k[i].func_id != k[m - 1].func_id)
			k[m++] = k[i];
	n = m;
	for (size_t i = 0; i < nfast; i++) {
		struct kfunc *kf = find(k, n, fast[i]);

		if (kf)
			kf->fastcall = true;
	}
	free(fast);
	lbtfi_dc_puts(&d->out, "\n/* BPF kfuncs */\n#ifndef BPF_NO_KFUNC_PROTOTYPES\n");
	for (size_t i = 0; i < n; i++) {
		lbtfi_dc_puts(&d->out, k[i].fastcall ? "extern __bpf_fastcall " : "extern ");
		lbtfi_dc_emit_decl(d, lbtfi_dc_type(d, k[i].func_id)->type, k[i].name, 0);
		lbtfi_dc_puts(&d->out, " __weak __ksym;\n");
	}
	lbtfi_dc_puts(&d->out, "#endif\n\n");
	free(k);
	return d->err;
}
