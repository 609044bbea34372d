// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfsig: canonical, id-free signatures of the named types of a BTF file,
 * one line each, for comparing two BTF encodings of the same program (clang's
 * own .BTF vs btfgen's, or pahole's).
 *
 *   btfsig FILE            full signatures (struct/union/enum/typedef/fwd/
 *                          func/var/decl tag/datasec)
 *   btfsig --names FILE    "kind name size" of named struct/union/enum/typedef/func
 *
 * Referenced types are spelled out structurally (named aggregates, enums and
 * typedefs by name, since they get their own line), so type ids and order do
 * not matter. Output is unsorted; pipe through sort -u.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			exit(3);
		if ((size_t)n < b->cap - b->len)
			break;
		b->cap = (b->cap + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			exit(3);
	}
	b->len += n;
}

static struct lbtf *btf;

static const char *name_of(const struct lbtf_type *t)
{
	const char *n = lbtf_type_name(btf, t);

	return n ? n : "?";
}

static void sig(struct buf *b, uint32_t id, int depth);

static void members(struct buf *b, const struct lbtf_type *t, int depth)
{
	unsigned int i;

	put(b, "{");
	for (i = 0; i < lbtf_vlen(t); i++) {
		const struct lbtf_member *m = &lbtf_members(t)[i];

		put(b, "%s%s@%u", i ? "; " : "", lbtf_name_by_offset(btf, m->name_off) ?: "?",
		    lbtf_member_bit_offset(t, i));
		if (lbtf_member_bitfield_size(t, i))
			put(b, ":%u", lbtf_member_bitfield_size(t, i));
		put(b, " ");
		sig(b, m->type, depth + 1);
	}
	put(b, "}");
}

static void enum_values(struct buf *b, const struct lbtf_type *t)
{
	unsigned int i;

	put(b, "{");
	for (i = 0; i < lbtf_vlen(t); i++) {
		if (lbtf_kind(t) == LBTF_KIND_ENUM) {
			const struct lbtf_enum *e = &lbtf_enums(t)[i];

			if (lbtf_kflag(t))
				put(b, "%s%s=%d", i ? "," : "", lbtf_name_by_offset(btf, e->name_off) ?: "?", e->val);
			else
				put(b, "%s%s=%u", i ? "," : "", lbtf_name_by_offset(btf, e->name_off) ?: "?",
				    (uint32_t)e->val);
		} else {
			const struct lbtf_enum64 *e = &lbtf_enums64(t)[i];
			uint64_t v = lbtf_enum64_value(e);

			if (lbtf_kflag(t))
				put(b, "%s%s=%lld", i ? "," : "", lbtf_name_by_offset(btf, e->name_off) ?: "?",
				    (long long)v);
			else
				put(b, "%s%s=%llu", i ? "," : "", lbtf_name_by_offset(btf, e->name_off) ?: "?",
				    (unsigned long long)v);
		}
	}
	put(b, "}");
}

static void proto(struct buf *b, const struct lbtf_type *t, int depth)
{
	unsigned int i;

	put(b, "fn(");
	for (i = 0; i < lbtf_vlen(t); i++) {
		const struct lbtf_param *p = &lbtf_params(t)[i];

		if (i)
			put(b, ", ");
		if (!p->type && !p->name_off) {
			put(b, "...");
			continue;
		}
		put(b, "%s:", lbtf_name_by_offset(btf, p->name_off) ?: "?");
		sig(b, p->type, depth + 1);
	}
	put(b, ")->");
	sig(b, t->type, depth + 1);
}

/* Structural spelling of a referenced type */
static void sig(struct buf *b, uint32_t id, int depth)
{
	const struct lbtf_type *t = lbtf_type_by_id(btf, id);
	const char *n;

	if (!t) {
		put(b, "<bad id %u>", id);
		return;
	}
	if (depth > 64) {
		put(b, "...");
		return;
	}
	n = name_of(t);
	switch (lbtf_kind(t)) {
	case LBTF_KIND_UNKN:
		put(b, "void");
		break;
	case LBTF_KIND_INT:
		put(b, "int(%s,%u,enc%u,bits%u,off%u)", n, t->size, lbtf_int_encoding(t),
		    lbtf_int_bits(t), lbtf_int_offset(t));
		break;
	case LBTF_KIND_FLOAT:
		put(b, "float(%s,%u)", n, t->size);
		break;
	case LBTF_KIND_PTR:
		put(b, "*");
		sig(b, t->type, depth + 1);
		break;
	case LBTF_KIND_CONST:
	case LBTF_KIND_VOLATILE:
	case LBTF_KIND_RESTRICT:
		put(b, "%s ", lbtf_kind_name(lbtf_kind(t)));
		sig(b, t->type, depth + 1);
		break;
	case LBTF_KIND_TYPE_TAG:
		put(b, "tag(%s) ", n);
		sig(b, t->type, depth + 1);
		break;
	case LBTF_KIND_ARRAY:
		put(b, "[%u]", lbtf_array(t)->nelems);
		sig(b, lbtf_array(t)->type, depth + 1);
		break;
	case LBTF_KIND_TYPEDEF:
		put(b, "typedef %s", n);
		break;
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
		if (*n) {
			put(b, "%s %s", lbtf_kind(t) == LBTF_KIND_STRUCT ? "struct" : "union", n);
		} else {
			put(b, "%s(size%u)", lbtf_kind(t) == LBTF_KIND_STRUCT ? "struct" : "union", t->size);
			members(b, t, depth);
		}
		break;
	case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64:
		if (*n) {
			put(b, "enum %s", n);
		} else {
			put(b, "enum(size%u,%s)", t->size, lbtf_kflag(t) ? "signed" : "unsigned");
			enum_values(b, t);
		}
		break;
	case LBTF_KIND_FWD:
		put(b, "%s %s", lbtf_kflag(t) ? "union" : "struct", n);
		break;
	case LBTF_KIND_FUNC_PROTO:
		proto(b, t, depth);
		break;
	default:
		put(b, "%s %s", lbtf_kind_name(lbtf_kind(t)), n);
		break;
	}
}

/* What a decl tag is attached to */
static void target(struct buf *b, uint32_t id)
{
	const struct lbtf_type *t = lbtf_type_by_id(btf, id);

	if (!t) {
		put(b, "<bad id %u>", id);
		return;
	}
	put(b, "%s %s", lbtf_kind_name(lbtf_kind(t)), name_of(t));
}

static void line(uint32_t id, const struct lbtf_type *t)
{
	const char *n = name_of(t);
	struct buf b = { 0 };
	unsigned int i;

	switch (lbtf_kind(t)) {
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
		if (!*n)
			return;
		put(&b, "%s %s size=%u ", lbtf_kind(t) == LBTF_KIND_STRUCT ? "struct" : "union", n, t->size);
		members(&b, t, 0);
		break;
	case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64:
		if (!*n)
			return;
		/* an enum forward declaration is an ENUM with no values */
		put(&b, "enum %s size=%u %s %s ", n, t->size, lbtf_kind_name(lbtf_kind(t)),
		    lbtf_kflag(t) ? "signed" : "unsigned");
		enum_values(&b, t);
		break;
	case LBTF_KIND_FWD:
		put(&b, "fwd %s %s", lbtf_kflag(t) ? "union" : "struct", n);
		break;
	case LBTF_KIND_TYPEDEF:
		put(&b, "typedef %s = ", n);
		sig(&b, t->type, 0);
		break;
	case LBTF_KIND_FUNC:
		put(&b, "func %s linkage=%u ", n, lbtf_vlen(t));
		sig(&b, t->type, 0);
		break;
	case LBTF_KIND_VAR:
		put(&b, "var %s linkage=%u ", n, lbtf_var(t)->linkage);
		sig(&b, t->type, 0);
		break;
	case LBTF_KIND_DECL_TAG:
		put(&b, "decl_tag %s idx=%d on ", n, lbtf_decl_tag(t)->component_idx);
		target(&b, t->type);
		break;
	case LBTF_KIND_DATASEC:
		put(&b, "datasec %s size=%u {", n, t->size);
		for (i = 0; i < lbtf_vlen(t); i++) {
			const struct lbtf_var_secinfo *v = &lbtf_secinfos(t)[i];
			const struct lbtf_type *vt = lbtf_type_by_id(btf, v->type);

			put(&b, "%s%s@%u+%u", i ? "; " : "", vt ? name_of(vt) : "?", v->offset, v->size);
		}
		put(&b, "}");
		break;
	default:
		return;
	}
	(void)id;
	printf("%s\n", b.p);
	free(b.p);
}

static void name_line(const struct lbtf_type *t)
{
	const char *n = name_of(t);
	unsigned int k = lbtf_kind(t);

	if (!*n)
		return;
	switch (k) {
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
	case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64:
		printf("%s %s %u\n", k == LBTF_KIND_STRUCT ? "struct" : k == LBTF_KIND_UNION ? "union" : "enum",
		       n, t->size);
		break;
	case LBTF_KIND_TYPEDEF:
		printf("typedef %s\n", n);
		break;
	case LBTF_KIND_FUNC:
		printf("func %s\n", n);
		break;
	default:
		break;
	}
}

int main(int argc, char **argv)
{
	bool names = argc == 3 && !strcmp(argv[1], "--names");
	const char *path = argv[argc - 1];
	uint32_t id;

	if (argc != 2 && !names) {
		fprintf(stderr, "usage: btfsig [--names] FILE\n");
		return 2;
	}
	btf = lbtf_open(path, NULL);
	if (!btf) {
		fprintf(stderr, "btfsig: %s: %s\n", path, lbtf_errmsg());
		return 1;
	}
	for (id = lbtf_start_id(btf); id < lbtf_type_cnt(btf); id++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, id);

		if (names)
			name_line(t);
		else
			line(id, t);
	}
	lbtf_free(btf);
	return 0;
}
