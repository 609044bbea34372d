// SPDX-License-Identifier: BSD-2-Clause
/*
 * Appending whole BTF objects, split BTF among them, against libbpf
 * master's btf__add_btf (issue 32; libbpf ddb0c14f "Support appending split
 * BTF"), built by tests/build/check_add_btf.sh (never part of make's
 * build). libbpf writes a base and two "modules" split over it (each
 * referring to base types, to its own types and to strings of both); then
 * both libraries start a split BTF over the same base and append module 1,
 * module 2 and a base-less BTF; the types and strings sections must be the
 * same bytes, and both must refuse split BTF over another base
 * (EOPNOTSUPP). Prints one line per check; exit 0 when all hold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "libbtf.h"
#include "libbtf_build.h"

static int fails;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	fails += !ok;
}

/* a section of a raw blob (header fields as the host reads them) */
static const void *sec(const void *raw, int str, uint32_t *len)
{
	const struct lbtf_header *h = raw;

	*len = str ? h->str_len : h->type_len;
	return (const char *)raw + h->hdr_len + (str ? h->str_off : h->type_off);
}

static void same_sections(const void *a, const void *b, const char *what)
{
	uint32_t la, lb;
	const void *pa, *pb;
	char msg[128];

	for (int str = 0; str < 2; str++) {
		pa = sec(a, str, &la);
		pb = sec(b, str, &lb);
		snprintf(msg, sizeof(msg), "%s: %s section (%u bytes, libbpf %u)", what,
			 str ? "strings" : "types", la, lb);
		check(la == lb && !memcmp(pa, pb, la), msg);
	}
}

/* a module: a struct of its own with a base int and a pointer to a base
 * struct, a typedef of it, a function taking it (names shared with the base
 * and its own) */
static struct btf *module(struct btf *base, const char *own, int ptr_to)
{
	struct btf *m = btf__new_empty_split(base);
	int s = btf__type_cnt(base);

	btf__add_struct(m, own, 16);
	btf__add_field(m, "x", 1, 0, 0);      /* base "int" */
	btf__add_field(m, "next", s + 1, 64, 0);
	btf__add_ptr(m, ptr_to);               /* to a base struct */
	btf__add_typedef(m, "int_t", 1);       /* a name only the modules use */
	btf__add_func_proto(m, 1);
	btf__add_func_param(m, "arg", s);
	btf__add_func(m, own, BTF_FUNC_GLOBAL, s + 3);
	return m;
}

/* b read back from its bytes (split over base when given) */
static struct btf *reparse(const struct btf *b, struct btf *base)
{
	__u32 size;
	const void *d = btf__raw_data(b, &size);

	return base ? btf__new_split(d, size, base) : btf__new(d, size);
}

int main(void)
{
	struct btf *wbase = btf__new_empty(), *other = btf__new_empty(), *w1, *w2, *plain;
	struct btf *base, *m1, *m2, *dst, *dst2;
	struct lbtf *lbase, *lother, *l1, *l2, *lplain, *lm_other;
	struct lbtf_builder *b;
	const void *raw, *ref;
	__u32 size, ref_size;
	void *ours;
	size_t ours_size;
	int first, lfirst;

	libbpf_set_print(NULL);
	btf__add_int(wbase, "int", 4, BTF_INT_SIGNED);       /* [1] */
	btf__add_struct(wbase, "task", 8);                     /* [2] */
	btf__add_field(wbase, "pid", 1, 0, 0);
	btf__add_int(other, "long", 8, BTF_INT_SIGNED);
	w1 = module(wbase, "mod1", 2);
	w2 = module(wbase, "mod2", 2);
	plain = btf__new_empty();                             /* no base: ids from 1 */
	btf__add_int(plain, "char", 1, BTF_INT_CHAR);
	btf__add_ptr(plain, 1);
	btf__add_typedef(plain, "int_t", 2);

	/* both libraries read the same bytes */
	base = reparse(wbase, NULL);
	m1 = reparse(w1, base);
	m2 = reparse(w2, base);
	raw = btf__raw_data(wbase, &size);
	lbase = lbtf_new(raw, size, NULL);
	raw = btf__raw_data(other, &size);
	lother = lbtf_new(raw, size, NULL);
	raw = btf__raw_data(w1, &size);
	l1 = lbtf_new(raw, size, lbase);
	lm_other = lbtf_new(raw, size, lother);
	raw = btf__raw_data(w2, &size);
	l2 = lbtf_new(raw, size, lbase);
	raw = btf__raw_data(plain, &size);
	lplain = lbtf_new(raw, size, NULL);
	if (!base || !m1 || !m2 || !lbase || !lother || !l1 || !l2 || !lplain)
		return fprintf(stderr, "add_btf_ref: cannot set up: %s\n", lbtf_errmsg()), 2;

	dst = btf__new_empty_split(base);
	b = lbtf_builder_new(lbase);
	first = btf__add_btf(dst, m1);
	lfirst = lbtf_builder_add_btf(b, l1);
	check(first == lfirst && first == 3, "module 1: first id as libbpf's");
	first = btf__add_btf(dst, m2);
	lfirst = lbtf_builder_add_btf(b, l2);
	check(first == lfirst, "module 2: first id as libbpf's");
	first = btf__add_btf(dst, plain);
	lfirst = lbtf_builder_add_btf(b, lplain);
	check(first == lfirst, "base-less BTF: first id as libbpf's");
	ref = btf__raw_data(dst, &ref_size);
	if (lbtf_builder_serialize(b, false, &ours, &ours_size))
		return fprintf(stderr, "add_btf_ref: serialize: %s\n", lbtf_errmsg()), 2;
	same_sections(ours, ref, "merged");
	free(ours);

	/* split BTF over another base: refused, the builder untouched */
	dst2 = btf__new_empty_split(other);
	first = btf__add_btf(dst2, m1);
	lfirst = lbtf_builder_add_btf(b, lm_other);
	check(first == -EOPNOTSUPP && lfirst == -EOPNOTSUPP, "another base: EOPNOTSUPP (as libbpf)");
	check(lbtf_builder_type_cnt(b) == (uint32_t)btf__type_cnt(dst), "another base: nothing added");
	lbtf_builder_free(b);
	lbtf_free(lm_other);
	lbtf_free(lplain);
	lbtf_free(l2);
	lbtf_free(l1);
	lbtf_free(lother);
	lbtf_free(lbase);
	btf__free(dst2);
	btf__free(dst);
	btf__free(m2);
	btf__free(m1);
	btf__free(base);
	btf__free(plain);
	btf__free(w2);
	btf__free(w1);
	btf__free(other);
	btf__free(wbase);
	return fails ? 1 : 0;
}
