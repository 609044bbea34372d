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

static int check_sec_info(struct venv *env)
{
	struct sec type = { env->hdr.type_off, env->hdr.type_len };
	struct sec str = { env->hdr.str_off, env->hdr.str_len };
	struct sec secs[2];
	uint32_t total = 0, expected = env->size - env->hdr.hdr_len;

	/* what the kernel's heapsort makes of two elements */
	if (sec_cmp(&type, &str) < 0) {
		secs[0] = type;
		secs[1] = str;
	} else {
		secs[0] = str;
		secs[1] = type;
	}
	for (int i = 0; i < 2; i++) {
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
	/* the kernel's struct btf_header ends at str_len */
	for (uint32_t i = LBTF_HDR_LEN_V1; i < hdr_len; i++) {
		if (env->data[i]) {
			lbtfi_vlog(env, "Unsupported btf_header");
			return -E2BIG;
		}
	}
	/* a short hdr_len leaves the rest of the kernel's copy zero */
	copy = hdr_len < LBTF_HDR_LEN_V1 ? hdr_len : LBTF_HDR_LEN_V1;
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

	if (end != env->size) {
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
