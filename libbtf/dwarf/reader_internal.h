/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by reader.c and reader_die.c only. */
#ifndef LIBBTF_DWARF_READER_INTERNAL_H
#define LIBBTF_DWARF_READER_INTERNAL_H

#include <endian.h>
#include <string.h>
#include "reader.h"
#include "util/grow.h"

/*
 * An unsigned n-byte value (n <= 8) at p, stored in the file's byte order
 * (big_endian or little), decoded the same on any host. This runs for nearly
 * every attribute btfgen reads: the 2/4/8-byte cases are one load plus at
 * most a byte swap (le*toh/be*toh are no-ops in the host's own order).
 */
static inline uint64_t dr_read(bool big_endian, const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	switch (n) {
	case 1:
		return p[0];
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		return big_endian ? be16toh(x) : le16toh(x);
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		return big_endian ? be32toh(x) : le32toh(x);
	}
	case 8:
		memcpy(&v, p, 8);
		return big_endian ? be64toh(v) : le64toh(v);
	}
	/* other widths (3: strx3, addrx3) byte by byte, most significant first */
	if (big_endian)
		for (i = 0; i < n; i++)
			v = v << 8 | p[i];
	else
		for (i = n; i--;)
			v = v << 8 | p[i];
	return v;
}

/* The bits of a LEB128 number at *pp (before *e), its shift after the last
 * byte and that byte; false if it runs past e */
static inline bool dr_leb(const uint8_t **pp, const uint8_t *e, uint64_t *v, unsigned int *shift,
			  uint8_t *last)
{
	const uint8_t *p = *pp;

	*v = 0;
	*shift = 0;
	while (p < e) {
		uint8_t b = *p++;

		if (*shift < 64)
			*v |= (uint64_t)(b & 0x7f) << *shift;
		*shift += 7;
		if (!(b & 0x80)) {
			*pp = p;
			*last = b;
			return true;
		}
	}
	return false;
}

static inline bool dr_uleb(const uint8_t **pp, const uint8_t *e, uint64_t *out)
{
	unsigned int shift;
	uint8_t last;

	return dr_leb(pp, e, out, &shift, &last);
}

static inline bool dr_sleb(const uint8_t **pp, const uint8_t *e, int64_t *out)
{
	unsigned int shift;
	uint8_t last;
	uint64_t v;

	if (!dr_leb(pp, e, &v, &shift, &last))
		return false;
	if (shift < 64 && (last & 0x40))
		v |= ~0ull << shift; /* sign-extend */
	*out = (int64_t)v;
	return true;
}

/* The type DIE of the type unit with that signature */
bool dr_sig_lookup(const struct dr_file *f, uint64_t sig, uint64_t *off);
int dr_form_size(const struct dr_unit_hdr *h, unsigned int form);
/* The DIE at section offset off of unit u: 0, or -1 (malformed, null entry) */
int dr_die_in_unit(const struct dr_unit *u, uint64_t off, struct dw_die *out);

#endif
