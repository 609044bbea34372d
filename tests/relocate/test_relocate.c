// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_relocate() on hand-built blobs: split BTF over a distilled base moved
 * onto a real base (ids after the base's, distilled ids replaced, names
 * joined), and libbpf's matching rules one by one: embedded composites by
 * size, pointed-to ones by name, several composites of one name by size,
 * INT by encoding, ENUM onto ENUM64, FWD against the base's kind flag,
 * ambiguity; and what a distilled base may hold, unmapped strings, ids past
 * the end, loops, options.
 */
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "../parse/blob.h"

/* Ids of the base */
enum { B_INT = 1, B_CHAR, B_DEV, B_LIST, B_E64, B_OPAQUE, B_PTR, B_U, B_DOUBLE, B_NR };
/* Ids of the distilled base */
enum { D_INT = 1, D_DEV, D_LIST, D_E, D_OPAQUE, D_U, D_DOUBLE, D_CHAR, D_NR };
/* Ids of the split types (after the distilled base's) */
enum { X_MINE = D_NR, X_LISTP, X_OPQ_T, X_DEVS, X_E_T, X_PROTO, X_NR };

/* What a case changes in the three blobs (all zero: they relocate) */
struct shape {
	uint32_t dev_size;       /* the distilled 'dev' (else 16, the base's) */
	uint32_t list_size;      /* the distilled 'list', only pointed to (else 8) */
	bool base_opaque_struct; /* the base's 'opaque' a STRUCT, not a FWD */
	bool base_opaque_kflag;  /* ... with its kind flag set (bitfields) */
	bool char_plain;         /* the distilled 'char' without SIGNED */
	bool base_two_lists;     /* a second base 'list' (id B_NR) */
	uint32_t second_list_size;
	unsigned int dist_bad_kind; /* the distilled 'double' of this kind */
	bool dist_anon;          /* the distilled 'double' without a name */
	bool split_orphan_name;  /* a split type named with a distilled string no type has */
	uint32_t split_bad_id;   /* a member's type id (0: the pointer) */
	bool split_loop;         /* the member typedefs loop */
};

struct trio {
	struct lbtf *base, *dist, *split;
	uint32_t base_str_len, dist_str_len;
};

static struct lbtf *open_blob(struct blob *b, const struct lbtf *base)
{
	struct lbtf *btf = blob_parse(b, base);

	if (!btf)
		fail_msg("blob did not parse: %s", lbtf_errmsg());
	return btf;
}

static struct blob *new_blob(uint32_t str_base)
{
	struct blob *b = malloc(sizeof(*b));

	assert_non_null(b);
	blob_init(b, str_base);
	return b;
}

static void build_base(struct trio *t, const struct shape *s)
{
	struct blob *b = new_blob(0);
	uint32_t n_list = blob_str(b, "list");

	blob_type(b, blob_str(b, "int"), LBTF_KIND_INT, 0, 0, 4);      /* 1 */
	blob_words(b, 1, (LBTF_INT_SIGNED << 24) | 32);
	blob_type(b, blob_str(b, "char"), LBTF_KIND_INT, 0, 0, 1);     /* 2 */
	blob_words(b, 1, (LBTF_INT_SIGNED << 24) | 8);
	blob_type(b, blob_str(b, "dev"), LBTF_KIND_STRUCT, 1, 0, 16);  /* 3 */
	blob_words(b, 3, blob_str(b, "x"), B_INT, 0);
	blob_type(b, n_list, LBTF_KIND_STRUCT, 0, 0, 8);               /* 4 */
	blob_type(b, blob_str(b, "e"), LBTF_KIND_ENUM64, 0, 0, 8);     /* 5 */
	if (s->base_opaque_struct)                                     /* 6 */
		blob_type(b, blob_str(b, "opaque"), LBTF_KIND_STRUCT, 0, s->base_opaque_kflag, 4);
	else
		blob_type(b, blob_str(b, "opaque"), LBTF_KIND_FWD, 0, 0, 0);
	blob_type(b, 0, LBTF_KIND_PTR, 0, 0, B_DEV);                   /* 7 */
	blob_type(b, blob_str(b, "u"), LBTF_KIND_UNION, 0, 0, 4);      /* 8 */
	blob_type(b, blob_str(b, "double"), LBTF_KIND_FLOAT, 0, 0, 8); /* 9 */
	if (s->base_two_lists)                                         /* 10 */
		blob_type(b, n_list, LBTF_KIND_STRUCT, 0, 0, s->second_list_size);
	t->base = open_blob(b, NULL);
	t->base_str_len = b->ns;
	free(b);
}

static void build_dist(struct trio *t, const struct shape *s)
{
	struct blob *d = new_blob(0);

	blob_type(d, blob_str(d, "int"), LBTF_KIND_INT, 0, 0, 4);       /* 1 */
	blob_words(d, 1, (LBTF_INT_SIGNED << 24) | 32);
	blob_type(d, blob_str(d, "dev"), LBTF_KIND_STRUCT, 0, 0,        /* 2 */
		  s->dev_size ? s->dev_size : 16);
	blob_type(d, blob_str(d, "list"), LBTF_KIND_STRUCT, 0, 0,       /* 3 */
		  s->list_size ? s->list_size : 8);
	blob_type(d, blob_str(d, "e"), LBTF_KIND_ENUM, 0, 0, 8);        /* 4 */
	blob_type(d, blob_str(d, "opaque"), LBTF_KIND_FWD, 0, 0, 0);    /* 5 */
	blob_type(d, blob_str(d, "u"), LBTF_KIND_UNION, 0, 0, 4);       /* 6 */
	if (s->dist_bad_kind)                                            /* 7 */
		blob_type(d, blob_str(d, "double"), s->dist_bad_kind, 0, 0, D_INT);
	else
		blob_type(d, s->dist_anon ? 0 : blob_str(d, "double"), LBTF_KIND_FLOAT, 0, 0, 8);
	blob_type(d, blob_str(d, "char"), LBTF_KIND_INT, 0, 0, 1);      /* 8 */
	blob_words(d, 1, ((s->char_plain ? 0 : LBTF_INT_SIGNED) << 24) | 8);
	blob_str(d, "orphan"); /* a string no type is named with */
	t->dist = open_blob(d, NULL);
	t->dist_str_len = d->ns;
	free(d);
}

/* The distilled string "orphan" (the last one) */
static uint32_t orphan_off(const struct trio *t)
{
	return t->dist_str_len - sizeof("orphan");
}

static void build_split(struct trio *t, const struct shape *s)
{
	struct blob *b = new_blob(t->dist_str_len);

	blob_type(b, blob_str(b, "mine"), LBTF_KIND_STRUCT, 3, 0, 32);  /* X_MINE */
	blob_words(b, 3, blob_str(b, "d"), X_DEVS, 0);                 /*   dev[1]: embedded */
	blob_words(b, 3, blob_str(b, "l"), s->split_bad_id ? s->split_bad_id : X_LISTP, 128);
	blob_words(b, 3, blob_str(b, "o"), X_OPQ_T, 192);
	blob_type(b, 0, LBTF_KIND_PTR, 0, 0, D_LIST);                  /* X_LISTP */
	blob_type(b, s->split_orphan_name ? orphan_off(t) : blob_str(b, "opq_t"),
		  LBTF_KIND_TYPEDEF, 0, 0, s->split_loop ? X_DEVS : D_OPAQUE); /* X_OPQ_T */
	if (s->split_loop) {                                           /* X_DEVS */
		blob_type(b, blob_str(b, "loop_t"), LBTF_KIND_TYPEDEF, 0, 0, X_OPQ_T);
	} else {
		blob_type(b, 0, LBTF_KIND_ARRAY, 0, 0, 0);
		blob_words(b, 3, D_DEV, D_INT, 1);
	}
	blob_type(b, blob_str(b, "e_t"), LBTF_KIND_TYPEDEF, 0, 0, D_E); /* X_E_T */
	blob_type(b, 0, LBTF_KIND_FUNC_PROTO, 2, 0, D_U);              /* X_PROTO */
	blob_words(b, 2, blob_str(b, "a"), D_DOUBLE);
	blob_words(b, 2, blob_str(b, "b"), D_CHAR);
	t->split = open_blob(b, t->dist);
	free(b);
}

static void build(struct trio *t, const struct shape *s)
{
	build_base(t, s);
	build_dist(t, s);
	build_split(t, s);
}

static void trio_free(struct trio *t)
{
	lbtf_free(t->split);
	lbtf_free(t->dist);
	lbtf_free(t->base);
}

/* Relocates the shape; the result or NULL (errno, lbtf_errmsg()) */
static struct lbtf *relocate(const struct shape *s, struct trio *t)
{
	LBTF_OPTS(lbtf_relocate_opts, o, .name = "mod.ko");

	build(t, s);
	return lbtf_relocate(t->split, t->base, &o);
}

/* The shape relocates: the result */
static struct lbtf *relocated(const struct shape *s, struct trio *t)
{
	struct lbtf *r = relocate(s, t);

	if (!r)
		fail_msg("did not relocate: %s", lbtf_errmsg());
	return r;
}

/* The shape does not relocate: errno err and a message holding want */
static void refused(const struct shape *s, int err, const char *want)
{
	struct trio t;
	struct lbtf *r = relocate(s, &t);

	if (r)
		fail_msg("relocated, expected: %s", want);
	assert_int_equal(errno, err);
	if (!strstr(lbtf_errmsg(), want) || strncmp(lbtf_errmsg(), "mod.ko: ", 8))
		fail_msg("message '%s' lacks 'mod.ko: ...%s'", lbtf_errmsg(), want);
	trio_free(&t);
}

static uint32_t member_type(const struct lbtf *btf, uint32_t id, unsigned int i)
{
	return lbtf_members(lbtf_type_by_id(btf, id))[i].type;
}

/* Ids, names and the base after relocation */
static void test_relocates(void **state)
{
	struct shape s = { 0 };
	struct trio t;
	struct lbtf *r = relocated(&s, &t);
	uint32_t shift = B_NR - D_NR; /* the split's own ids move by this */
	const struct lbtf_type *proto;

	assert_ptr_equal(lbtf_base(r), t.base);
	assert_int_equal(lbtf_start_id(r), B_NR);
	assert_int_equal(lbtf_type_cnt(r), X_NR + shift);
	assert_string_equal(lbtf_type_name(r, lbtf_type_by_id(r, X_MINE + shift)), "mine");
	assert_int_equal(member_type(r, X_MINE + shift, 0), X_DEVS + shift);
	assert_int_equal(member_type(r, X_MINE + shift, 1), X_LISTP + shift);
	assert_string_equal(lbtf_name_by_offset(r, lbtf_members(lbtf_type_by_id(r, X_MINE + shift))[2].name_off), "o");
	/* distilled ids become the base's */
	assert_int_equal(lbtf_type_by_id(r, X_LISTP + shift)->type, B_LIST);
	assert_int_equal(lbtf_type_by_id(r, X_OPQ_T + shift)->type, B_OPAQUE);
	assert_int_equal(lbtf_array(lbtf_type_by_id(r, X_DEVS + shift))->type, B_DEV);
	assert_int_equal(lbtf_array(lbtf_type_by_id(r, X_DEVS + shift))->index_type, B_INT);
	assert_int_equal(lbtf_type_by_id(r, X_E_T + shift)->type, B_E64); /* ENUM onto ENUM64 */
	proto = lbtf_type_by_id(r, X_PROTO + shift);
	assert_int_equal(proto->type, B_U);
	assert_int_equal(lbtf_params(proto)[0].type, B_DOUBLE);
	assert_int_equal(lbtf_params(proto)[1].type, B_CHAR);
	assert_string_equal(lbtf_type_name(r, lbtf_type_by_id(r, X_E_T + shift)), "e_t");
	/* the input is unchanged */
	assert_int_equal(lbtf_type_by_id(t.split, X_LISTP)->type, D_LIST);
	lbtf_free(r);
	trio_free(&t);
}

/* A struct behind a pointer matches by name whatever its size */
static void test_pointed_to_any_size(void **state)
{
	struct shape s = { .list_size = 99 };
	struct trio t;
	struct lbtf *r = relocated(&s, &t);

	assert_int_equal(lbtf_type_by_id(r, X_LISTP + B_NR - D_NR)->type, B_LIST);
	lbtf_free(r);
	trio_free(&t);
}

/* An embedded one (here through an array) must have the base's size */
static void test_embedded_size(void **state)
{
	struct shape s = { .dev_size = 12 };

	refused(&s, EINVAL, "STRUCT 'dev' [2] (size 12, embedded) matches no type of the base");
}

/* Two base composites of the name: chosen by size, or ambiguous */
static void test_same_name(void **state)
{
	struct shape pick = { .base_two_lists = true, .second_list_size = 24, .list_size = 24 };
	struct shape same = { .base_two_lists = true, .second_list_size = 8 };
	struct shape none = { .base_two_lists = true, .second_list_size = 24, .list_size = 99 };
	struct trio t;
	struct lbtf *r = relocated(&pick, &t);

	assert_int_equal(lbtf_type_by_id(r, X_LISTP + B_NR + 1 - D_NR)->type, B_NR);
	lbtf_free(r);
	trio_free(&t);
	refused(&same, EINVAL, "'list' [3] of size 8 matches two base types, [4] and [10]");
	refused(&none, EINVAL, "'list' [3] (size 99) matches no type");
}

/* INT: the encoding too, and the message says how they differ */
static void test_int_encoding(void **state)
{
	struct shape s = { .char_plain = true };

	refused(&s, EINVAL, "INT 'char' [8] (size 1) matches no type of the base: the base's INT [2] of that name has size 1, encoding SIGNED; this one size 1, encoding (none)");
}

/* FWD against a base STRUCT: libbpf reads the struct's own kind flag */
static void test_fwd(void **state)
{
	struct shape plain = { .base_opaque_struct = true };
	struct shape bitfields = { .base_opaque_struct = true, .base_opaque_kflag = true };
	struct trio t;
	struct lbtf *r = relocated(&plain, &t);

	assert_int_equal(lbtf_type_by_id(r, X_OPQ_T + B_NR - D_NR)->type, B_OPAQUE);
	lbtf_free(r);
	trio_free(&t);
	refused(&bitfields, EINVAL, "FWD 'opaque' [5] (size 0) matches no type of the base: the base's first type of that name is [6], a STRUCT with bitfields");
}

/* What a distilled base may hold */
static void test_distilled_kinds(void **state)
{
	struct shape ptr = { .dist_bad_kind = LBTF_KIND_PTR };
	struct shape td = { .dist_bad_kind = LBTF_KIND_TYPEDEF };
	struct shape anon = { .dist_anon = true };
	struct trio t;

	refused(&ptr, EINVAL, "distilled base type [7] is a PTR");
	refused(&td, EINVAL, "distilled base type [7] is a TYPEDEF");
	refused(&anon, EINVAL, "distilled base type [7] (FLOAT) is anonymous");
	build(&t, &ptr);
	assert_int_equal(lbtf_distilled_base_check(t.dist, NULL), -EINVAL);
	assert_int_equal(lbtf_distilled_base_check(t.split, "x"), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "x: a distilled base is base BTF"));
	trio_free(&t);
	build(&t, &(struct shape){ 0 });
	assert_int_equal(lbtf_distilled_base_check(t.dist, NULL), 0);
	trio_free(&t);
}

/* A split name among the distilled strings that names no distilled type */
static void test_orphan_string(void **state)
{
	struct shape s = { .split_orphan_name = true };

	refused(&s, ENOENT, "type [11] names a string of the distilled base");
}

/* Hostile split types: an id past the end, a typedef loop */
static void test_hostile(void **state)
{
	struct shape bad_id = { .split_bad_id = 500 };
	struct shape loop = { .split_loop = true };

	refused(&bad_id, EINVAL, "type [9] refers to a type id past the last type [14]");
	refused(&loop, ELOOP, "type [9] member 0: its chain of typedefs, qualifiers and arrays loops");
}

/* Arguments and options */
static void test_args(void **state)
{
	struct lbtf_relocate_opts bad = { .sz = 0 };
	struct shape s = { 0 };
	struct trio t;

	build(&t, &s);
	assert_null(lbtf_relocate(t.split, t.base, &bad));
	assert_int_equal(errno, EINVAL);
	assert_null(lbtf_relocate(t.split, NULL, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(lbtf_relocate(t.dist, t.base, NULL)); /* not split */
	assert_non_null(strstr(lbtf_errmsg(), "not split BTF"));
	assert_null(lbtf_relocate(t.split, t.dist, NULL));
	assert_non_null(strstr(lbtf_errmsg(), "the distilled base itself"));
	assert_null(lbtf_relocate(t.split, t.split, NULL)); /* a split base */
	assert_non_null(strstr(lbtf_errmsg(), "split BTF itself"));
	trio_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relocates),
		cmocka_unit_test(test_pointed_to_any_size),
		cmocka_unit_test(test_embedded_size),
		cmocka_unit_test(test_same_name),
		cmocka_unit_test(test_int_encoding),
		cmocka_unit_test(test_fwd),
		cmocka_unit_test(test_distilled_kinds),
		cmocka_unit_test(test_orphan_string),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
