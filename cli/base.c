// SPDX-License-Identifier: BSD-2-Clause
/*
 * A base BTF given with --base is checked before split BTF is read or built
 * over it, as the kernel verifies vmlinux before any module: the tools
 * follow the base's type ids (member types, pointer targets) and must not
 * trust them. libbtf's kernel-exact verifier must accept it (bases up to
 * the kernel's 16 MiB limit for loaded BTF; a vmlinux has no such limit,
 * larger bases get the second check only), and every type id the base names
 * must be one of its types (cheap, any size; for a base the verifier
 * refused, it says why in plainer words).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "cli.h"
#include "libbtf.h"
#include "libbtf_verify.h"

/* The last non-empty line of a verifier log, without leading tabs */
static void last_line(const char *log, char *out, size_t size)
{
	size_t n = log ? strlen(log) : 0;
	const char *e, *s;

	while (n && log[n - 1] == '\n')
		n--;
	if (!n) {
		snprintf(out, size, "(no log)");
		return;
	}
	e = log + n;
	for (s = e; s > log && s[-1] != '\n'; s--)
		;
	while (s < e && (*s == '\t' || *s == ' '))
		s++;
	snprintf(out, size, "%.*s", (int)(e - s), s);
}

/* The kind table, looked up once a walk */
struct kinds {
	const struct lbtf_kind_desc *d[32];
};

static void kinds_init(struct kinds *k)
{
	for (unsigned int i = 0; i < 32; i++)
		k->d[i] = lbtf_kind_desc(i);
}

/* The first type id of t not below end (or 0), from the kind table */
static uint32_t bad_type_id(const struct kinds *k, const struct lbtf_type *t, uint32_t end)
{
	const struct lbtf_kind_desc *d = k->d[lbtf_kind(t)];
	const char *e;

	if (!d)
		return 0;
	if (d->type_field && t->type >= end)
		return t->type;
	if (lbtf_kind(t) == LBTF_KIND_ARRAY) {
		if (lbtf_array(t)->type >= end)
			return lbtf_array(t)->type;
		if (lbtf_array(t)->index_type >= end)
			return lbtf_array(t)->index_type;
	}
	if (d->elem_type_off < 0 || !d->vlen_elem_size)
		return 0;
	e = (const char *)(t + 1) + d->extra_size + d->elem_type_off;
	for (unsigned int i = 0; i < lbtf_vlen(t); i++, e += d->vlen_elem_size) {
		uint32_t id;

		memcpy(&id, e, sizeof(id));
		if (id >= end)
			return id;
	}
	return 0;
}

/* A string offset of t not below end, in *off: true if there is one */
static bool bad_str_off(const struct kinds *k, const struct lbtf_type *t, uint32_t end,
			uint32_t *off)
{
	const struct lbtf_kind_desc *d = k->d[lbtf_kind(t)];
	const char *e;

	*off = t->name_off;
	if (t->name_off >= end)
		return true;
	if (!d || d->elem_name_off < 0 || !d->vlen_elem_size)
		return false;
	e = (const char *)(t + 1) + d->extra_size + d->elem_name_off;
	for (unsigned int i = 0; i < lbtf_vlen(t); i++, e += d->vlen_elem_size) {
		memcpy(off, e, sizeof(*off));
		if (*off >= end)
			return true;
	}
	return false;
}

/* The one type a reference kind leads to (0: not a reference kind) */
static uint32_t next_in_chain(const struct lbtf_type *t)
{
	switch (lbtf_kind(t)) {
	case LBTF_KIND_PTR: case LBTF_KIND_TYPEDEF: case LBTF_KIND_VOLATILE:
	case LBTF_KIND_CONST: case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
	case LBTF_KIND_VAR: case LBTF_KIND_DECL_TAG: case LBTF_KIND_FUNC:
		return t->type;
	case LBTF_KIND_ARRAY:
		return lbtf_array(t)->type;
	default:
		return 0;
	}
}

/* Every type id the base names is one of its types, and with strs every
 * string offset is inside its string section: 0 or the exit code.
 * (A vmlinux base is checked by every module's run: the kind table is read
 * here directly, not through a callback a slot.) */
static int check_refs(const char *prog, const char *path, const struct lbtf *base, bool strs)
{
	uint32_t end = lbtf_type_cnt(base), str_end = 0, bad;
	struct kinds k;

	kinds_init(&k);
	if (strs)
		lbtf_strings(base, &str_end);
	for (uint32_t id = lbtf_start_id(base); id < end; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(base, id);

		if (!t)
			continue;
		if ((bad = bad_type_id(&k, t, end))) {
			cli_err(prog, "%s: bad base BTF: type [%u] refers to type id %u, past its last type [%u]",
				 path, id, bad, end - 1);
			return CLI_EXIT_INPUT;
		}
		if (strs && bad_str_off(&k, t, str_end, &bad)) {
			cli_err(prog, "%s: bad base BTF: type [%u] names string offset %u, past its string section (%u bytes)",
				 path, id, bad, str_end);
			return CLI_EXIT_INPUT;
		}
	}
	return 0;
}

static int check_ids(const char *prog, const char *path, const struct lbtf *base)
{
	return check_refs(prog, path, base, false);
}

/*
 * No chain of references (pointers, modifiers, typedefs, arrays) comes
 * back to itself, the kernel's "Loop detected" (after check_refs: every
 * id in range): each type is walked once, a chain marked while it is
 * followed. (The next type is read from the record each time, not kept in
 * an array of the base's size: its pages would be a large share of a small
 * module's page faults.)
 */
static int check_chains(const char *prog, const char *path, const struct lbtf *base, uint32_t cnt)
{
	enum { NEW, ON_CHAIN, DONE };
	uint32_t *chain = malloc((size_t)cnt * sizeof(*chain));
	uint8_t *st = calloc(cnt, 1);
	int rc = 0;

	if (!chain || !st) {
		cli_err(prog, "%s: out of memory", path);
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	for (uint32_t first = 1; first < cnt && !rc; first++) {
		uint32_t n = 0, id = first;

		while (id && st[id] == NEW) {
			st[id] = ON_CHAIN;
			chain[n++] = id;
			id = next_in_chain(lbtf_type_by_id(base, id));
		}
		if (id && st[id] == ON_CHAIN) {
			cli_err(prog, "%s: bad base BTF: type [%u] refers to itself through a chain of references (the kernel's \"Loop detected\")",
				path, id);
			rc = CLI_EXIT_INPUT;
		}
		while (n)
			st[chain[--n]] = DONE;
	}
out:
	free(chain);
	free(st);
	return rc;
}

int cli_check_base_refs(const char *prog, const char *path, const struct lbtf *base)
{
	uint32_t cnt = lbtf_type_cnt(base);
	int rc;

	if (lbtf_base(base)) {
		cli_err(prog, "%s: bad base BTF: it is split BTF itself", path);
		return CLI_EXIT_INPUT;
	}
	rc = check_refs(prog, path, base, true);
	if (!rc)
		rc = check_chains(prog, path, base, cnt);
	return rc;
}

int cli_check_base(const char *prog, const char *path, const struct lbtf *base)
{
	const struct lbtf *bb = lbtf_base(base);
	const void *data;
	size_t size;
	int rc;

	data = lbtf_raw_data(base, &size);
	/* larger than the verifier takes, or with a layout section (a newer
	 * kernel's format, which the running kernel's rules refuse as an
	 * unknown header): the id check alone */
	if (!data || size > LBTF_MAX_FILE_SIZE || lbtf_header(base)->layout_len)
		return check_ids(prog, path, base);
	{
		/* the verdict without a log first (a vmlinux base is verified
		 * by every module's run: the log's formatting was a third of
		 * a small module's time); the log only to say why */
		LBTF_OPTS(lbtf_verify_opts, o, .base = bb,
			  .flags = LBTF_VERIFY_NO_SPECIAL | LBTF_VERIFY_NO_KERNEL_BTF);
		struct lbtf_verify_result res = { .sz = sizeof(res) };
		char why[256];
		int err = lbtf_verify(data, size, &o, &res);

		if (res.err) {
			/* an id past the last type, which the verifier also
			 * refuses, said as such */
			if ((rc = check_ids(prog, path, base))) {
				lbtf_verify_result_free(&res);
				return rc;
			}
			lbtf_verify_result_free(&res);
			res = (struct lbtf_verify_result){ .sz = sizeof(res) };
			o.log_level = 1;
			o.flags |= LBTF_VERIFY_KEEP_LOG;
			err = lbtf_verify(data, size, &o, &res);
		}
		if (err && !res.err) {
			cli_err(prog, "%s: cannot verify the base BTF: %s",  path,
				lbtf_errmsg());
			return cli_exit_for_errno(err);
		}
		if (res.err) {
			last_line(res.full_log, why, sizeof(why));
			cli_err(prog, "%s: bad base BTF, the kernel would reject it: %s (%s)",
				 path, why, lbtf_errno_name(res.err));
			lbtf_verify_result_free(&res);
			return CLI_EXIT_INPUT;
		}
		lbtf_verify_result_free(&res);
	}
	return 0;
}
