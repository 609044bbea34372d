// SPDX-License-Identifier: BSD-2-Clause
/* Header, section layout and string section checks (btf_parse_hdr & co.). */
#include <string.h>
#include "internal.h"

static void log_hdr(struct venv *env)
{
	const struct lbtf_header *h = &env->hdr;

	if (!lbtfi_vlog_dumps(env))
		return;
	lbtfi_vlog(env, "magic: 0x%x\n", h->magic);
	lbtfi_vlog(env, "version: %u\n", h->version);
	lbtfi_vlog(env, "flags: 0x%x\n", h->flags);
	lbtfi_vlog(env, "hdr_len: %u\n", h->hdr_len);
	lbtfi_vlog(env, "type_off: %u\n", h->type_off);
	lbtfi_vlog(env, "type_len: %u\n", h->type_len);
	lbtfi_vlog(env, "str_off: %u\n", h->str_off);
	lbtfi_vlog(env, "str_len: %u\n", h->str_len);
	lbtfi_vlog(env, "btf_total_size: %u\n", env->size);
}

struct sec { uint32_t off, len; };

/* The kernel sorts with wrapping 32-bit differences taken as signed. */
static int sec_cmp(const struct sec *a, const struct sec *b)
{
	int d = (int)(a->off - b->off);

	return d ? d : (int)(a->len - b->len);
}

static void sec_swap(struct sec *v, unsigned int i, unsigned int j)
{
	struct sec t = v[i];

	v[i] = v[j];
	v[j] = t;
}

/*
 * The kernel's sort() (lib/sort.c: bottom-up heapsort, two pops at a time,
 * the last three elements finished by hand), step for step: with offsets
 * that wrap, sec_cmp is not transitive, and which section comes first then
 * depends on the algorithm, and so does the message.
 */
static void kernel_sort(struct sec *v, unsigned int num)
{
	unsigned int n = num, a = num / 2, shift = 0;

	if (!a)
		return;
	for (;;) {
		unsigned int b, c, d;

		if (a) {
			a -= 1u << shift;
		} else if (n > 3) {
			sec_swap(v, 0, --n);
			shift = sec_cmp(&v[1], &v[2]) <= 0;
			a = 1u << shift;
			sec_swap(v, a, --n);
		} else {
			break;
		}
		/* down to a leaf along the larger child, then back up to where
		 * v[a] belongs, and rotate it there */
		for (b = a; c = 2 * b + 1, (d = c + 1) < n;)
			b = sec_cmp(&v[c], &v[d]) > 0 ? c : d;
		if (d == n)
			b = c;
		while (b != a && sec_cmp(&v[a], &v[b]) >= 0)
			b = (b - 1) / 2;
		for (c = b; b != a;) {
			b = (b - 1) / 2;
			sec_swap(v, b, c);
		}
	}
	sec_swap(v, 0, --n);
	if (n == 2 && sec_cmp(&v[0], &v[1]) > 0)
		sec_swap(v, 0, 1);
}

/* The layout section counts as a section once the header has room for it
 * and says it is there (btf_check_sec_info's nr_secs). */
static bool has_layout_sec(const struct venv *env)
{
	return env->rules->layout_sec && env->hdr.hdr_len >= env->rules->hdr_len &&
	       env->hdr.layout_len;
}

static int check_sec_info(struct venv *env)
{
	struct sec secs[3] = {
		{ env->hdr.type_off, env->hdr.type_len },
		{ env->hdr.str_off, env->hdr.str_len },
		{ env->hdr.layout_off, env->hdr.layout_len },
	};
	unsigned int nr = has_layout_sec(env) ? 3 : 2;
	uint32_t total = 0, expected = env->size - env->hdr.hdr_len;

	kernel_sort(secs, nr);
	for (unsigned int i = 0; i < nr; i++) {
		if (expected < secs[i].off) {
			lbtfi_vlog(env, "Invalid section offset");
			return -EINVAL;
		}
		if (total < secs[i].off) {
			lbtfi_vlog(env, "Unsupported section found");
			return -EINVAL;
		}
		if (total > secs[i].off) {
			lbtfi_vlog(env, "Section overlap found");
			return -EINVAL;
		}
		if (expected - total < secs[i].len) {
			lbtfi_vlog(env, "Total section length too long");
			return -EINVAL;
		}
		total += secs[i].len;
	}
	if (expected != total) {
		lbtfi_vlog(env, "Unsupported section found");
		return -EINVAL;
	}
	return 0;
}

int lbtfi_vparse_hdr(struct venv *env)
{
	uint32_t hdr_len, copy;

	if (env->size < 8) {
		lbtfi_vlog(env, "hdr_len not found");
		return -EINVAL;
	}
	memcpy(&hdr_len, env->data + 4, 4);
	if (env->size < hdr_len) {
		lbtfi_vlog(env, "btf_header not found");
		return -EINVAL;
	}
	/* past the kernel's struct btf_header, only zeroes */
	for (uint32_t i = env->rules->hdr_len; i < hdr_len; i++) {
		if (env->data[i]) {
			lbtfi_vlog(env, "Unsupported btf_header");
			return -E2BIG;
		}
	}
	/* a short hdr_len leaves the rest of the kernel's copy zero */
	copy = hdr_len < env->rules->hdr_len ? hdr_len : env->rules->hdr_len;
	memset(&env->hdr, 0, sizeof(env->hdr));
	memcpy(&env->hdr, env->data, copy);
	env->nohdr = env->data + env->hdr.hdr_len;
	log_hdr(env);

	if (env->hdr.magic != LBTF_MAGIC) {
		lbtfi_vlog(env, "Invalid magic");
		return -EINVAL;
	}
	if (env->hdr.version != LBTF_VERSION) {
		lbtfi_vlog(env, "Unsupported version");
		return -LBTF_ENOTSUPP;
	}
	if (env->hdr.flags) {
		lbtfi_vlog(env, "Unsupported flags");
		return -LBTF_ENOTSUPP;
	}
	if (!env->base && env->size == env->hdr.hdr_len) {
		lbtfi_vlog(env, "No data");
		return -EINVAL;
	}
	return check_sec_info(env);
}

int lbtfi_vparse_str_sec(struct venv *env)
{
	uint64_t end = (uint64_t)env->hdr.hdr_len + env->hdr.str_off + env->hdr.str_len;
	const char *start;

	/* with a layout section the strings may come before it */
	if ((!env->rules->layout_sec || env->hdr.hdr_len < env->rules->hdr_len) &&
	    end != env->size) {
		lbtfi_vlog(env, "String section is not at the end");
		return -EINVAL;
	}
	start = (const char *)env->nohdr + env->hdr.str_off;
	env->strs = start;
	if (env->base && !env->hdr.str_len)
		return 0;
	if (!env->hdr.str_len || env->hdr.str_len - 1 > VMAX_NAME_OFFSET ||
	    start[env->hdr.str_len - 1]) {
		lbtfi_vlog(env, "Invalid string section");
		return -EINVAL;
	}
	if (!env->base && start[0]) {
		lbtfi_vlog(env, "Invalid string section");
		return -EINVAL;
	}
	return 0;
}

/* btf_parse_layout_sec: after the strings, before the types. Unknown kinds
 * stay refused ("Invalid kind"): the kernel takes the layout, not the kinds
 * it describes. */
int lbtfi_vparse_layout_sec(struct venv *env)
{
	uint64_t end = (uint64_t)env->hdr.hdr_len + env->hdr.layout_off + env->hdr.layout_len;

	if (!has_layout_sec(env))
		return 0;
	if (env->hdr.layout_off & 3) {
		lbtfi_vlog(env, "Unaligned layout_off");
		return -EINVAL;
	}
	if (env->hdr.layout_len < sizeof(struct lbtf_layout)) {
		lbtfi_vlog(env, "Layout section is too small");
		return -EINVAL;
	}
	if (env->hdr.layout_len % sizeof(struct lbtf_layout)) {
		lbtfi_vlog(env, "layout_len is not multiple of %zu", sizeof(struct lbtf_layout));
		return -EINVAL;
	}
	if (end > env->size) {
		lbtfi_vlog(env, "Layout section is too big");
		return -EINVAL;
	}
	return 0;
}
