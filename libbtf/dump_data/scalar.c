// SPDX-License-Identifier: BSD-2-Clause
/*
 * Scalar values of the typed data printer: integers (whole, bitfields,
 * 128-bit), characters, booleans, pointers and floats, spelled like bpftool
 * 7.1's map dump, or as strictly valid JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

typedef unsigned __int128 u128;

/* 128-bit hex as bpftool writes it: no leading zeros of the high half. */
static void put_hex128(struct lbtfi_dp *dp, u128 v, bool quoted)
{
	unsigned long long hi = v >> 64, lo = (unsigned long long)v;
	const char *q = quoted ? "\"" : "";

	if (hi)
		lbtfi_json_printf(dp->w, "%s0x%llx%016llx%s", q, hi, lo, q);
	else
		lbtfi_json_printf(dp->w, "%s0x%llx%s", q, lo, q);
}

/* Decimal string of a 128-bit value (valid JSON keeps it exact). */
static void put_dec128(struct lbtfi_dp *dp, u128 v, bool negative)
{
	char buf[48];
	int i = sizeof(buf);

	buf[--i] = 0;
	buf[--i] = '"';
	if (negative)
		v = -v;
	do {
		buf[--i] = '0' + (int)(v % 10);
		v /= 10;
	} while (v);
	if (negative)
		buf[--i] = '-';
	buf[--i] = '"';
	lbtfi_json_printf(dp->w, "%s", buf + i);
}

/*
 * nr_bits (1..128) at bit offset bit (0..7) of b.p, little-endian. In
 * bpftool's styles the raw bits print as hex with no sign extension; valid
 * JSON prints the number (sign-extended when is_signed).
 */
int lbtfi_dp_bitfield(struct lbtfi_dp *dp, unsigned int nr_bits, unsigned int bit, bool is_signed,
		      struct lbtfi_bytes b)
{
	size_t need = (bit + nr_bits + 7) / 8;
	unsigned char buf[16] = { 0 };
	u128 v = 0;

	if (!nr_bits || need > sizeof(buf))
		return lbtfi_err(EINVAL, "bitfield of %u bits at bit %u is too wide", nr_bits, bit);
	if (need > b.len)
		return lbtfi_dp_truncated(dp, 0, need, b.len);
	memcpy(buf, b.p, need);
	for (int i = (int)need - 1; i >= 0; i--)
		v = v << 8 | buf[i];
	v >>= bit;
	if (nr_bits < 128)
		v &= ((u128)1 << nr_bits) - 1;
	if (!dp->valid) {
		put_hex128(dp, v, !dp->text);
		return 0;
	}
	bool neg = is_signed && nr_bits < 128 ? (v >> (nr_bits - 1)) & 1 : is_signed && (v >> 127);
	if (neg && nr_bits < 128)
		v |= ~(((u128)1 << nr_bits) - 1); /* sign-extend */
	if (nr_bits > 64)
		put_dec128(dp, v, neg);
	else if (neg)
		lbtfi_json_int(dp->w, (int64_t)(uint64_t)v);
	else
		lbtfi_json_uint(dp->w, (uint64_t)v);
	return 0;
}

static int dp_char(struct lbtfi_dp *dp, unsigned char c)
{
	char s[2] = { (char)c, 0 };

	if (c >= 0x20 && c < 0x7f) {
		if (dp->valid)
			lbtfi_dp_string(dp, s);
		else /* bpftool writes the character unescaped */
			lbtfi_json_printf(dp->w, "\"%c\"", c);
	} else if (dp->text && !dp->valid) {
		lbtfi_json_printf(dp->w, "0x%hhx", c);
	} else {
		lbtfi_json_printf(dp->w, "\"\\u00%02hhx\"", c);
	}
	return 0;
}

int lbtfi_dp_int(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		 unsigned int bit, struct lbtfi_bytes b)
{
	unsigned int enc = lbtf_int_encoding(t), nr_bits = lbtf_int_bits(t);
	unsigned int total = bit + lbtf_int_offset(t);
	size_t n = nr_bits / 8;
	union { int8_t s8; int16_t s16; int32_t s32; int64_t s64;
		uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; unsigned char raw[16]; } v;

	/* not byte-aligned or not whole bytes: a bitfield of the INT itself */
	if (total || nr_bits % 8 ||
	    (enc <= LBTF_INT_SIGNED && nr_bits != 8 && nr_bits != 16 && nr_bits != 32 &&
	     nr_bits != 64 && nr_bits != 128)) {
		if (total / 8 > b.len)
			return lbtfi_dp_truncated(dp, id, total / 8, b.len);
		return lbtfi_dp_bitfield(dp, nr_bits, total % 8, enc & LBTF_INT_SIGNED,
					 (struct lbtfi_bytes){ b.p + total / 8, b.len - total / 8 });
	}
	if (nr_bits == 128) {
		u128 x;

		if (b.len < 16)
			return lbtfi_dp_truncated(dp, id, 16, b.len);
		memcpy(&x, b.p, 16);
		if (dp->valid)
			put_dec128(dp, x, (enc & LBTF_INT_SIGNED) && (x >> 127));
		else
			put_hex128(dp, x, !dp->text);
		return 0;
	}
	if (enc > LBTF_INT_SIGNED && enc != LBTF_INT_CHAR && enc != LBTF_INT_BOOL)
		/* several encoding bits: the kernel refuses such BTF */
		return lbtfi_err(EINVAL, "int [%u] has encoding %#x", id, enc);
	if (enc == LBTF_INT_CHAR || enc == LBTF_INT_BOOL)
		n = 1; /* bpftool reads one byte whatever the width */
	if (n > b.len)
		return lbtfi_dp_truncated(dp, id, n, b.len);
	memcpy(v.raw, b.p, n);
	switch (enc) {
	case 0:
		lbtfi_json_uint(dp->w, n == 8 ? v.u64 : n == 4 ? v.u32 : n == 2 ? v.u16 : v.u8);
		return 0;
	case LBTF_INT_SIGNED:
		lbtfi_json_int(dp->w, n == 8 ? v.s64 : n == 4 ? v.s32 : n == 2 ? v.s16 : v.s8);
		return 0;
	case LBTF_INT_CHAR:
		return dp_char(dp, v.u8);
	default: /* LBTF_INT_BOOL */
		lbtfi_json_bool(dp->w, v.u8 != 0);
		return 0;
	}
}

/* Pointers: "%p" in plain text, unsigned decimal in bpftool -j. */
int lbtfi_dp_ptr(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		 unsigned int bit, struct lbtfi_bytes b)
{
	unsigned long v;

	if (b.len < sizeof(v))
		return lbtfi_dp_truncated(dp, id, sizeof(v), b.len);
	memcpy(&v, b.p, sizeof(v));
	if (!dp->text)
		lbtfi_json_printf(dp->w, "%lu", v);
	else if (dp->valid)
		lbtfi_json_printf(dp->w, v ? "\"%#lx\"" : "\"(nil)\"", v);
	else
		lbtfi_json_printf(dp->w, "%p", (void *)v);
	return 0;
}

/* IEEE half precision to double (no _Float16 needed). */
static double half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f;
	double m = h & 0x3ff;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(m + 1024, e - 25);
	return (h & 0x8000) ? -v : v;
}

/* Shortest %g spelling that reads back to the same value. */
static void put_double(struct lbtfi_dp *dp, long double v, int max_digits, int size)
{
	char buf[64];

	if (isnan(v) || isinf(v)) {
		const char *s = isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";

		if (dp->text && !dp->valid)
			lbtfi_json_printf(dp->w, "%s", s);
		else
			lbtfi_json_string(dp->w, s);
		return;
	}
	for (int prec = 1; prec <= max_digits; prec++) {
		snprintf(buf, sizeof(buf), "%.*Lg", prec, v);
		long double back = strtold(buf, NULL);

		if ((size == 4 && (float)back == (float)v) ||
		    (size == 8 && (double)back == (double)v) ||
		    (size > 8 && back == v) || (size == 2 && (double)back == (double)v))
			break;
	}
	lbtfi_json_printf(dp->w, "%s", buf);
}

int lbtfi_dp_float(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		   unsigned int bit, struct lbtfi_bytes b)
{
	if (b.len < t->size)
		return lbtfi_dp_truncated(dp, id, t->size, b.len);
	switch (t->size) {
	case 2: {
		uint16_t h;

		memcpy(&h, b.p, 2);
		put_double(dp, half_to_double(h), 5, 2);
		return 0;
	}
	case 4: {
		float f;

		memcpy(&f, b.p, 4);
		put_double(dp, f, 9, 4);
		return 0;
	}
	case 8: {
		double d;

		memcpy(&d, b.p, 8);
		put_double(dp, d, 17, 8);
		return 0;
	}
	default:
		break;
	}
#if defined(__x86_64__) || defined(__i386__)
	/* x87 extended precision, stored in 10 of 12 or 16 bytes */
	if (t->size == 16 || t->size == 12) {
		long double ld = 0;

		memcpy(&ld, b.p, 10);
		put_double(dp, ld, 21, 16);
		return 0;
	}
#endif
	/* other formats: the raw bits, as bpftool spells wide integers */
	return lbtfi_dp_bitfield(dp, t->size * 8 > 128 ? 128 : t->size * 8, 0, false, b);
}
