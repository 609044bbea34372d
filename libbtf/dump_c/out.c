// SPDX-License-Identifier: BSD-2-Clause
/*
 * Buffered output of the C dumper: one 64 KiB buffer, flushed with fwrite.
 * vmlinux.h is ~3 MB of small pieces, so avoiding stdio's per-call locking
 * and format parsing is most of the dumper's speed.
 */
#include <string.h>
#include "internal.h"
#include "core/fastio.h"

void lbtfi_dc_flush(struct lbtfi_dc_out *o)
{
	if (o->len && !o->err && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->err = -EIO;
	o->total += o->len;
	if (o->total > o->limit && !o->err)
		o->err = -EFBIG;
	o->len = 0;
}

void lbtfi_dc_write_split(struct lbtfi_dc_out *o, const char *s, size_t n)
{
	while (n) {
		size_t room = DC_OUT_BUF - o->len, k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == DC_OUT_BUF)
			lbtfi_dc_flush(o);
	}
}

void lbtfi_dc_put_u64(struct lbtfi_dc_out *o, uint64_t v)
{
	char tmp[20];

	lbtfi_dc_write(o, tmp, lbtfi_dec_u64(tmp, v));
}

void lbtfi_dc_put_i64(struct lbtfi_dc_out *o, int64_t v)
{
	if (v < 0) {
		lbtfi_dc_putc(o, '-');
		lbtfi_dc_put_u64(o, -(uint64_t)v); /* well defined for INT64_MIN too */
	} else {
		lbtfi_dc_put_u64(o, (uint64_t)v);
	}
}
