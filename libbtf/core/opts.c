// SPDX-License-Identifier: BSD-2-Clause
/* The options and results convention (see internal.h): one copy each way. */
#include <stddef.h>
#include <string.h>
#include "internal.h"

int lbtfi_opts_copy(void *dst, size_t dst_size, const void *src, const char *name)
{
	size_t sz;

	memset(dst, 0, dst_size);
	*(size_t *)dst = dst_size;
	if (!src)
		return 0;
	sz = *(const size_t *)src;
	if (sz < sizeof(size_t))
		return lbtfi_err(EINVAL, "%s: sz %zu (set it to sizeof(struct %s))", name, sz, name);
	for (size_t i = dst_size; i < sz; i++)
		if (((const unsigned char *)src)[i])
			return lbtfi_err(EINVAL, "%s: an option this library does not know is set "
					 "(byte %zu of %zu)", name, i, sz);
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
	       (sz < dst_size ? sz : dst_size) - sizeof(size_t));
	return 0;
}

void lbtfi_result_copy(void *dst, const void *src, size_t src_size)
{
	size_t sz;

	if (!dst)
		return;
	sz = *(size_t *)dst;
	if (sz > src_size)
		sz = src_size;
	if (sz > sizeof(size_t))
		memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
		       sz - sizeof(size_t));
}

int lbtfi_result_check(const void *dst, const char *name)
{
	if (dst && *(const size_t *)dst < sizeof(size_t))
		return lbtfi_err(EINVAL, "%s: sz %zu (set it to sizeof(struct %s))", name,
				 *(const size_t *)dst, name);
	return 0;
}
