// SPDX-License-Identifier: BSD-2-Clause
/*
 * A base BTF is checked before split BTF is read or built over it, as the
 * kernel verifies vmlinux before any module: code following the base's
 * type ids (member types, pointer targets) must not trust them. Cheap at
 * any size; the verifier's verdict on a base is the caller's to ask
 * (btfcheck and btfdump do; a vmlinux base of an encoding is checked here
 * only, once per module of a kernel build).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "libbtf_verify.h"

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
 * string offset is inside its string section: 0 or -EINVAL.
 * (A vmlinux base is checked by every module's run: the kind table is read
 * here directly, not through a callback a slot.) */
static int check_refs(const char *path, const struct lbtf *base, bool strs)
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
			return lbtfi_err(EINVAL, "%s: bad base BTF: type [%u] refers to type id %u, "
					 "past its last type [%u]", path, id, bad, end - 1);
		}
		if (strs && bad_str_off(&k, t, str_end, &bad)) {
			return lbtfi_err(EINVAL, "%s: bad base BTF: type [%u] names string offset "
					 "%u, past its string section (%u bytes)", path, id, bad,
					 str_end);
		}
	}
	return 0;
}

/*
 * No chain of references (pointers, modifiers, typedefs, arrays) comes
 * back to itself, the kernel's "Loop detected" (after check_refs: every
 * id in range): each type is walked once, a chain marked while it is
 * followed. (The next type is read from the record each time, not kept in
 * an array of the base's size: its pages would be a large share of a small
 * module's page faults.)
 */
static int check_chains(const char *path, const struct lbtf *base, uint32_t cnt)
{
	enum { NEW, ON_CHAIN, DONE };
	uint32_t *chain = malloc((size_t)cnt * sizeof(*chain));
	uint8_t *st = calloc(cnt, 1);
	int rc = 0;

	if (!chain || !st) {
		rc = lbtfi_err(ENOMEM, "%s: out of memory", path);
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
			rc = lbtfi_err(EINVAL, "%s: bad base BTF: type [%u] refers to itself "
				       "through a chain of references (the kernel's \"Loop detected\")",
				       path, id);
		}
		while (n)
			st[chain[--n]] = DONE;
	}
out:
	free(chain);
	free(st);
	return rc;
}


/*
 * The kernel-exact verifier must accept the base (bases up to the kernel's
 * 16 MiB limit for loaded BTF and without a layout section, which the
 * running kernel's rules refuse as an unknown header; a vmlinux has no such
 * limit, larger bases get the id check only). An id past the last type,
 * which the verifier also refuses, is said as such.
 */
static int check_verdict(const char *name, const struct lbtf *base)
{
	LBTF_OPTS(lbtf_verify_opts, o, .base = lbtf_base(base),
		  .flags = LBTF_VERIFY_NO_SPECIAL | LBTF_VERIFY_NO_KERNEL_BTF);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	size_t size;
	const void *data = lbtf_raw_data(base, &size);
	int err;

	if (!data || size > LBTF_MAX_FILE_SIZE || lbtf_header(base)->layout_len)
		return check_refs(name, base, false);
	err = lbtfi_encode_verdict(data, size, &o, &res);
	if (res.err && !(err = check_refs(name, base, false)))
		err = lbtfi_err(EINVAL, "%s: bad base BTF, the kernel would reject it: %s (%s)",
				name, lbtfi_encode_reason(res.full_log),
				lbtf_errno_name(res.err));
	else if (err && !res.err)
		err = lbtfi_encode_err(-err, "%s: cannot verify the base BTF: %s", name,
				       lbtf_errmsg());
	lbtf_verify_result_free(&res);
	return err;
}

int lbtf_base_check(const struct lbtf *base, const char *name, unsigned int flags)
{
	int err;

	if (flags & LBTF_BASE_CHECK_VERIFY)
		return check_verdict(name, base);
	if (!(flags & LBTF_BASE_CHECK_FULL))
		return check_refs(name, base, false);
	if (lbtf_base(base))
		return lbtfi_err(EINVAL, "%s: bad base BTF: it is split BTF itself", name);
	err = check_refs(name, base, true);
	return err ? err : check_chains(name, base, lbtf_type_cnt(base));
}
