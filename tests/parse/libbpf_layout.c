// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reference side of tests/parse/check_layout.sh: BTF written and read by
 * libbpf master (1.8, built by scripts/build-libbpf.sh), never by libbtf.
 *
 *   libbpf_layout gen OUT [be]            base BTF of every kind, with a layout
 *                                         section (btf__new_empty_opts
 *                                         add_layout), a FUNC_PROTO of 65537
 *                                         params (24-bit vlen); be: big endian
 *   libbpf_layout split OUT plain|layout BASE...
 *                                         split BTF over BASE (over the next
 *                                         BASEs, as below), with a layout
 *                                         section of its own only when asked
 *                                         (pahole writes none for split BTF)
 *   libbpf_layout parse FILE [BASE...]    "ok N" (types, void and bases
 *                                         included) or "error E" (errno);
 *                                         each BASE is split over the next
 *                                         (multi-split), the last is base BTF
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define WIDE_VLEN 65537 /* one past the 16 bits of older encoders */

static int fail(const char *what)
{
	fprintf(stderr, "libbpf_layout: %s: %s\n", what, strerror(errno));
	return 2;
}

static int write_btf(const struct btf *btf, const char *out)
{
	__u32 size;
	const void *data = btf__raw_data(btf, &size);
	FILE *f = fopen(out, "wb");

	if (!data || !f)
		return fail(out);
	if (fwrite(data, 1, size, f) != size || fclose(f))
		return fail(out);
	return 0;
}

/* One type of every kind libbpf 1.8 can add, ids in comments. */
static int add_all_kinds(struct btf *b)
{
	int err = 0;

	err |= btf__add_int(b, "int", 4, BTF_INT_SIGNED) != 1;
	err |= btf__add_ptr(b, 1) != 2;
	err |= btf__add_array(b, 1, 1, 4) != 3;
	err |= btf__add_struct(b, "s", 8) != 4;
	err |= btf__add_field(b, "a", 1, 0, 0) | btf__add_field(b, "b", 1, 32, 3);
	err |= btf__add_union(b, "u", 4) != 5;
	err |= btf__add_field(b, "x", 1, 0, 0);
	err |= btf__add_enum(b, "e", 4) != 6;
	err |= btf__add_enum_value(b, "E1", -1) | btf__add_enum_value(b, "E2", 7);
	err |= btf__add_fwd(b, "fw", BTF_FWD_UNION) != 7;
	err |= btf__add_typedef(b, "td", 4) != 8;
	err |= btf__add_volatile(b, 1) != 9;
	err |= btf__add_const(b, 9) != 10;
	err |= btf__add_restrict(b, 2) != 11;
	err |= btf__add_func_proto(b, 1) != 12;
	err |= btf__add_func_param(b, "p", 2);
	err |= btf__add_func(b, "f", BTF_FUNC_GLOBAL, 12) != 13;
	err |= btf__add_var(b, "v", BTF_VAR_GLOBAL_ALLOCATED, 1) != 14;
	err |= btf__add_datasec(b, ".data", 4) != 15;
	err |= btf__add_datasec_var_info(b, 14, 0, 4);
	err |= btf__add_float(b, "double", 8) != 16;
	err |= btf__add_decl_tag(b, "tag", 4, 1) != 17;
	err |= btf__add_type_tag(b, "tt", 2) != 18;
	err |= btf__add_enum64(b, "e64", 8, false) != 19;
	err |= btf__add_enum64_value(b, "BIG", 0x123456789ULL);
	/* 24-bit vlen: more params than 16 bits hold */
	err |= btf__add_func_proto(b, 0) != 20;
	for (int i = 0; i < WIDE_VLEN && !err; i++)
		err |= btf__add_func_param(b, NULL, 1);
	return err ? -1 : 0;
}

static int gen(const char *out, bool be)
{
	LIBBPF_OPTS(btf_new_opts, opts, .add_layout = true);
	struct btf *b = btf__new_empty_opts(&opts);

	if (!b)
		return fail("btf__new_empty_opts");
	if (add_all_kinds(b))
		return fail("adding types");
	if (be && btf__set_endianness(b, BTF_BIG_ENDIAN))
		return fail("btf__set_endianness");
	return write_btf(b, out);
}

/* files[0] over files[1] over ... over files[n - 1] (base BTF) */
static struct btf *parse_chain(char **files, int n)
{
	struct btf *base = NULL;

	for (int i = n - 1; i >= 0; i--) {
		struct btf *b = btf__parse_split(files[i], base);

		if (!b)
			return NULL;
		base = b; /* the bases stay allocated until exit */
	}
	return base;
}

static int split(const char *out, bool layout, char **bases, int n)
{
	struct btf *base = parse_chain(bases, n);
	LIBBPF_OPTS(btf_new_opts, opts, .add_layout = layout);
	struct btf *b;
	int id;

	if (!base)
		return fail(bases[0]);
	opts.base_btf = base;
	b = btf__new_empty_opts(&opts);
	if (!b)
		return fail("btf__new_empty_opts");
	id = btf__add_struct(b, "split_s", 4);
	if (id < 0 || btf__add_field(b, "m", 1, 0, 0) || btf__add_ptr(b, id) < 0 ||
	    btf__add_typedef(b, "split_td", id + 1) < 0)
		return fail("adding split types");
	return write_btf(b, out);
}

int main(int argc, char **argv)
{
	struct btf *b;

	libbpf_set_print(NULL);
	if (argc >= 3 && !strcmp(argv[1], "gen"))
		return gen(argv[2], argc > 3 && !strcmp(argv[3], "be"));
	if (argc >= 5 && !strcmp(argv[1], "split"))
		return split(argv[2], !strcmp(argv[3], "layout"), argv + 4, argc - 4);
	if (argc >= 3 && !strcmp(argv[1], "parse")) {
		b = parse_chain(argv + 2, argc - 2);
		if (!b)
			return printf("error %d\n", errno) < 0 ? 2 : 1;
		return printf("ok %u\n", btf__type_cnt(b)) < 0 ? 2 : 0;
	}
	fprintf(stderr, "usage: %s gen OUT [be] | split OUT plain|layout BASE... | parse FILE [BASE...]\n",
		argv[0]);
	return 2;
}
