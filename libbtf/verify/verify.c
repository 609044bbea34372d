// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_verify(), the kernel's btf_parse() stage by stage, and the type-tag
 * chain check it runs after pass 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "io/io.h"
#include "util/tls.h"

/*
 * lbtf_verify(): the stages of the kernel's btf_parse() in their order:
 * size limit, log attributes, header, strings, type section (pass 1 and
 * pass 2), type-tag chains, special fields, then the log's finalisation,
 * which may turn any verdict into ENOSPC.
 */
static bool log_attr_valid(const struct lbtf_verify_opts *o)
{
	if (!!o->log_buf != !!o->log_size)
		return false;
	if (o->log_buf && !o->log_level)
		return false;
	if (o->log_level & ~LBTF_LOG_MASK)
		return false;
	return o->log_size <= LBTF_LOG_MAX_SIZE;
}

/* The type section (data + hdr_len + type_off, type_off 4-aligned) is read
 * in place when aligned, else from a copy that makes it aligned. Nothing is
 * read past the blob: every offset is checked first. */
static int copy_blob(struct venv *env, const void *data, uint32_t size)
{
	uint32_t hdr_len = 0, shift;

	if (size >= 8)
		memcpy(&hdr_len, (const char *)data + 4, 4);
	if (!(((uintptr_t)data + hdr_len) & 3)) {
		env->data = data;
		env->size = size;
		return 0;
	}
	shift = (8 - (hdr_len & 7)) & 7;
	env->mem = malloc((size_t)size + shift + 8);
	if (!env->mem)
		return -ENOMEM;
	memcpy(env->mem + shift, data, size);
	memset(env->mem + shift + size, 0, 8);
	env->data = env->mem + shift;
	env->size = size;
	return 0;
}

static void setup_base(struct venv *env, const struct lbtf *base)
{
	env->base = base;
	if (!base)
		return;
	env->start_id = lbtf_type_cnt(base);
	env->start_str_off = base->start_str_off + base->hdr.str_len;
}

/* the least string section judged whole before pass 1 (lbtfi_vidents_scan) */
#define VSCAN_STRS_FROM (64u << 10)

static int run_stages(struct venv *env)
{
	int err;

	if ((err = lbtfi_vparse_hdr(env)) || (err = lbtfi_vparse_str_sec(env)) ||
	    (err = lbtfi_vparse_layout_sec(env)))
		return err;
	if ((err = lbtfi_varena_init(env)))
		return err;
	/*
	 * All strings judged at once pays for a large BTF whose strings are
	 * mostly names, as kernel BTF's (vmlinux: 3.2 MB of types, 2.3 MB of
	 * strings). A BPF object's BTF is small, its strings mostly the source
	 * lines of its .BTF.ext line info, and a rejection often comes at its
	 * first types: its few names are judged when asked instead (the same
	 * answer, lbtfi_vname_ident_slow).
	 */
	if (env->hdr.str_len >= VSCAN_STRS_FROM && env->hdr.type_len >= env->hdr.str_len)
		lbtfi_vidents_scan(env);
	if (!env->base) {
		if (env->hdr.type_off & 3) {
			lbtfi_vlog(env, "Unaligned type_off");
			return -EINVAL;
		}
		if (!env->hdr.type_len) {
			lbtfi_vlog(env, "No type found");
			return -EINVAL;
		}
	}
	if ((err = lbtfi_vcheck_all_metas(env)))
		return err;
	lbtfi_varena_pass2(env);
	/* module BTF (split) gets no pass 2 in any kernel path */
	if ((!env->base || (env->flags & LBTF_VERIFY_STRICT)) && (err = lbtfi_vcheck_all_types(env)))
		return err;
	if ((err = lbtfi_vcheck_type_tags(env)))
		return err;
	if (!env->base && !(env->flags & LBTF_VERIFY_NO_SPECIAL))
		return lbtfi_vcheck_special(env);
	return 0;
}

/* lbtf_verify() on whole structs of this library's size */
static int verify(const void *data, size_t size, const struct lbtf_verify_opts *o,
		  struct lbtf_verify_result *res)
{
	struct venv env;
	int err, ferr;

	if (o->log_fn && (o->log_buf || !o->log_level))
		return lbtfi_err(EINVAL, "lbtf_verify: log_fn needs a log_level and no log_buf");
	if (size > LBTF_MAX_FILE_SIZE) {
		res->err = E2BIG;
		return -E2BIG;
	}
	if (!log_attr_valid(o)) {
		res->err = EINVAL;
		return -EINVAL;
	}
	if (!data && size)
		return lbtfi_err(EINVAL, "lbtf_verify: NULL data");
	lbtfi_vops_init();
	memset(&env, 0, sizeof(env));
	env.log.level = o->log_level;
	env.log.kernel = o->log_level && (o->flags & LBTF_VERIFY_KERNEL_LOG);
	env.flags = o->flags;
	env.rules = lbtfi_vrules(o->kernel_version);
	env.log.fn = o->log_fn;
	env.log.ctx = o->log_ctx;
	setup_base(&env, o->base);
	err = copy_blob(&env, data, (uint32_t)size);
	if (!err)
		err = run_stages(&env);
	if (err == -ENOMEM || env.log.oom) {
		err = lbtfi_err(ENOMEM, "lbtf_verify: out of memory");
		goto out;
	}
	lbtfi_vlog_flush(&env.log);
	ferr = lbtfi_vlog_finalize(&env, o, res);
	if (ferr)
		err = ferr;
	res->err = -err;
	res->nr_types = env.nr_types - (env.base ? 0 : !!env.nr_types);
	res->env_dependent = env.env_dependent;
	memcpy(res->cause, env.cause, sizeof(res->cause));
	if ((o->flags & LBTF_VERIFY_KEEP_LOG) && !o->log_fn) {
		res->full_log = lbtfi_vlog_take(&env.log);
		res->full_log_len = env.log.len;
	}
out:
	free(env.sp.cand);
	lbtfi_vlog_release(&env.log);
	free(env.mem);
	lbtfi_varena_free(&env);
	return err;
}

int lbtf_verify(const void *data, size_t size, const struct lbtf_verify_opts *opts,
		struct lbtf_verify_result *res)
{
	struct lbtf_verify_opts o;
	struct lbtf_verify_result r = { .sz = sizeof(r) };
	int err;

	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_verify_opts)) ||
	    (err = lbtfi_result_check(res, "lbtf_verify_result")))
		return err;
	err = verify(data, size, &o, &r);
	/* a caller whose struct has no room for the log cannot free it */
	if (!LBTFI_RESULT_HAS(res, full_log_len))
		lbtfi_vlog_free_taken(r.full_log);
	lbtfi_result_copy(res, &r, sizeof(r));
	return err;
}

void lbtf_verify_result_free(struct lbtf_verify_result *res)
{
	if (!res)
		return;
	lbtfi_vlog_free_taken(res->full_log);
	res->full_log = NULL;
}

const char *lbtf_errno_name(int err)
{
	/* what glibc cannot name (lbtfi_errno_ident gives glibc's names): the kernel's internal ENOTSUPP that leaks to
	 * user space, and libbpf's own codes its open fails with */
	static const struct { int e; const char *n; } names[] = {
		{ 0, "0" }, { LBTF_ENOTSUPP, "ENOTSUPP" },
		{ 4001, "LIBBPF_ERRNO__FORMAT" }, { 4003, "LIBBPF_ERRNO__ENDIAN" },
	};
	static LBTFI_TLS char buf[16];
	const char *n;

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err)
			return names[i].n;
	n = lbtfi_errno_ident(err);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/*
 * Type-tag chain check: along a chain of modifiers every TYPE_TAG must come
 * before any CONST/VOLATILE/RESTRICT/TYPEDEF, and chains are at most 32
 * long. Chains already walked from a smaller id are not walked again.
 */
int lbtfi_vcheck_type_tags(struct venv *env)
{
	uint32_t first = env->base ? env->start_id : 1;
	uint32_t n = env->start_id + env->nr_types;
	int64_t good_id = (int64_t)first - 1;

	/* base BTF after pass 2 (every modifier resolved, its chain noted):
	 * no chain past the limit and no tag after another modifier, so the
	 * walk below would find nothing */
	if (!env->base && !env->tags_suspect)
		return 0;
	for (uint32_t i = first; i < n; i++) {
		const struct lbtf_type *t;
		uint32_t cur = i;
		int limit = VMAX_MODIFIER_CHAIN;
		bool in_tags;

		/* the dense kind first: most types are no modifier (i is an
		 * own id: first >= start_id) */
		if (!vk_in(env->kinds[i - env->start_id], M_MODIFIER))
			continue;
		t = lbtfi_vtype(env, i);
		in_tags = vk(t) == LBTF_KIND_TYPE_TAG;
		while (v_is_modifier(t)) {
			if (!limit--) {
				lbtfi_vlog(env, "Max chain length or cycle detected");
				return -ELOOP;
			}
			if (vk(t) == LBTF_KIND_TYPE_TAG) {
				if (!in_tags) {
					lbtfi_vlog(env, "Type tags don't precede modifiers");
					return -EINVAL;
				}
			} else {
				in_tags = false;
			}
			if ((int64_t)cur <= good_id)
				break;
			cur = t->type;
			t = lbtfi_vtype(env, cur);
			if (!t)
				return -EINVAL;
		}
		good_id = i;
	}
	return 0;
}
