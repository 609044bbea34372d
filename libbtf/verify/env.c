// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's view of its input: type ids to records and resolved sizes,
 * then the string section and the kernel's name rules.
 */
#include <string.h>
#include "internal.h"

/*
 * Type access for the verifier: ids to records (base BTF included), the
 * resolved ids and sizes of pass 2, and the kernel's btf_type_id_size().
 */
const struct lbtf_type *lbtfi_vbase_type(const struct venv *env, uint32_t id)
{
	return lbtf_type_by_id(env->base, id);
}

/* Base ids count as resolved: their target is found by skipping modifiers
 * and VARs (only --strict split verification gets here). */
uint32_t lbtfi_vbase_resolved_id(const struct venv *env, uint32_t id)
{
	for (int i = 0; i < 64; i++) {
		const struct lbtf_type *t = lbtf_type_by_id(env->base, id);

		if (!t) /* the base is not verified: a dangling id ends as void */
			return 0;
		if (!(v_is_modifier(t) || vk(t) == LBTF_KIND_VAR))
			return id;
		id = t->type;
	}
	return 0;
}

uint32_t lbtfi_vbase_resolved_size(const struct venv *env, uint32_t id)
{
	int64_t s = lbtf_resolve_size(env->base, id);

	return s < 0 ? 0 : (uint32_t)s;
}

bool lbtfi_vint_regular(const struct lbtf_type *t)
{
	uint32_t d = v_int_data(t);
	uint8_t bits = d & 0xff;
	uint8_t bytes = (bits >> 3) + !!(bits & 7);

	if ((bits & 7) || ((d >> 16) & 0xff))
		return false;
	return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

/* Size of one step: own size, array's resolved size, pointer size */
static bool direct_size(const struct venv *env, const struct lbtf_type *t, uint32_t id,
			uint32_t *size)
{
	if (v_has_size(t))
		*size = t->size;
	else if (vk(t) == LBTF_KIND_ARRAY)
		*size = lbtfi_vresolved_size(env, id);
	else if (vk(t) == LBTF_KIND_PTR)
		*size = VPTR_SIZE;
	else
		return false;
	return true;
}

/* The kernel's btf_type_id_size(): NULL when the type has no size. Kinds
 * come from the dense kind array; records are loaded only for a size. */
const struct lbtf_type *lbtfi_vid_size_slow(const struct venv *env, uint32_t *id,
					     uint32_t *ret_size)
{
	uint32_t sid = *id, size = 0;
	unsigned int k = vkind_id(env, sid);
	const struct lbtf_type *t;

	if (k == VK_NULL || vk_in(k, M_NOSIZE))
		return NULL;
	if (vk_in(k, M_MODIFIER | KB(VAR))) {
		sid = lbtfi_vresolved_id(env, sid);
		k = vkind_id(env, sid);
		if (k == VK_NULL || vk_in(k, M_NOSIZE))
			return NULL;
	}
	t = lbtfi_vtype(env, sid);
	if (!direct_size(env, t, sid, &size))
		return NULL;
	*id = sid;
	if (ret_size)
		*ret_size = size;
	return t;
}

/*
 * Strings and name rules of the verifier. Names are judged with the
 * kernel's own ctype (lib/ctype.c is Latin-1, not ASCII): 0xC0-0xFF are
 * letters except 0xD7 and 0xF7, and 0xA0-0xFF are printable.
 */
enum { C_ALPHA = 1, C_DIGIT = 2, C_PRINT = 4, C_IDENT = 8 /* '_' and '.' */ };

/* Character classes of the kernel's lib/ctype.c (Latin-1) */
static const unsigned char ctype[256] = {
	[0x20 ... 0x2d] = C_PRINT,
	['.'] = C_IDENT | C_PRINT,
	['/'] = C_PRINT,
	['0' ... '9'] = C_DIGIT | C_PRINT,
	[':' ... '@'] = C_PRINT,
	['A' ... 'Z'] = C_ALPHA | C_PRINT,
	['[' ... '^'] = C_PRINT,
	['_'] = C_IDENT | C_PRINT,
	['`'] = C_PRINT,
	['a' ... 'z'] = C_ALPHA | C_PRINT,
	['{' ... '~'] = C_PRINT,
	[0xa0 ... 0xbf] = C_PRINT,
	[0xc0 ... 0xd6] = C_ALPHA | C_PRINT,
	[0xd7] = C_PRINT,
	[0xd8 ... 0xf6] = C_ALPHA | C_PRINT,
	[0xf7] = C_PRINT,
	[0xf8 ... 0xff] = C_ALPHA | C_PRINT,
};

static bool ident_char_ok(unsigned char c, bool first)
{
	return ctype[c] & (first ? C_ALPHA | C_IDENT : C_ALPHA | C_DIGIT | C_IDENT);
}

static bool k_isprint(unsigned char c) { return ctype[c] & C_PRINT; }

const char *lbtfi_vbase_str(const struct venv *env, uint32_t off)
{
	return lbtf_name_by_offset(env->base, off);
}

const char *lbtfi_vname(const struct venv *env, uint32_t off)
{
	const char *s;

	if (!off)
		return "(anon)";
	s = lbtfi_vstr(env, off);
	return s ? s : "(invalid-name-offset)";
}

/* Scalar check of the bytes after the first: ident characters up to a NUL
 * found within the kernel's limit (KSYM_NAME_LEN) */
static bool ident_rest_ok(const unsigned char *s)
{
	const unsigned char *limit = s + VKSYM_NAME_LEN;

	for (s++; *s && s < limit; s++)
		if (!ident_char_ok(*s, false))
			return false;
	return !*s;
}

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The same, 16 bytes at a time (GCC/clang vector extensions: SSE2 on
 * x86-64, NEON on arm64): the first byte that is no ident character ends
 * the name, which is good if that byte is its NUL within the limit. Reads
 * never pass end (the string section's end): the last bytes go scalar.
 * Names are most of what pass 1 reads; this is its hottest loop.
 */
typedef unsigned char v16u8 __attribute__((vector_size(16)));
typedef uint64_t v2u64 __attribute__((vector_size(16)));

/* 0xff in each byte that is not an ASCII ident character (after the first) */
static inline v16u8 not_ascii_ident(v16u8 c)
{
	v16u8 ok = (v16u8)((v16u8)((c | 0x20) - 'a') < 26) | (v16u8)((v16u8)(c - '0') < 10) |
		   (v16u8)(c == '_') | (v16u8)(c == '.');

	return ~ok;
}

static bool ident_rest_ok_fast(const unsigned char *s, const unsigned char *end)
{
	for (size_t i = 0; i <= VKSYM_NAME_LEN && s + i + 16 <= end; i += 16) {
		v16u8 c;
		v2u64 stop;
		size_t at;

		memcpy(&c, s + i, 16);
		stop = (v2u64)not_ascii_ident(c);
		if (!stop[0] && !stop[1])
			continue;
		at = i + (stop[0] ? __builtin_ctzll(stop[0]) : 64 + __builtin_ctzll(stop[1])) / 8;
		if (s[at] >= 0x80) /* Latin-1 letters: the scalar loop knows them */
			break;
		return !s[at] && at <= VKSYM_NAME_LEN;
	}
	return ident_rest_ok(s);
}
#else
static bool ident_rest_ok_fast(const unsigned char *s, const unsigned char *end)
{
	return ident_rest_ok(s);
}
#endif

#ifdef __SSE2__
#include <emmintrin.h>

/* 0xff in each byte of c in [lo, lo + n) (n < 128): c - lo + 0x80 wraps
 * that range onto the lowest signed values, one add and one compare */
static inline __m128i in_range(__m128i c, unsigned char lo, unsigned char n)
{
	return _mm_cmplt_epi8(_mm_add_epi8(c, _mm_set1_epi8((char)(0x80 - lo))),
			      _mm_set1_epi8((char)(0x80 + n)));
}

/* Bit masks of the 16 bytes at p: the NULs, the digits, and the bytes
 * that are neither an ASCII ident character nor NUL (Latin-1 letters count
 * as bad here: the names holding them are left to the scalar check) */
struct vclass { uint64_t nul, digit, bad; };

static inline void classify16(const unsigned char *p, int shift, struct vclass *cl)
{
	__m128i c = _mm_loadu_si128((const __m128i *)p);
	__m128i digit = in_range(c, '0', 10);
	/* bytes >= 0x80 fall in neither range */
	__m128i ok = _mm_or_si128(in_range(_mm_or_si128(c, _mm_set1_epi8(0x20)), 'a', 26), digit);
	__m128i z = _mm_cmpeq_epi8(c, _mm_setzero_si128());

	ok = _mm_or_si128(ok, _mm_cmpeq_epi8(c, _mm_set1_epi8('_')));
	ok = _mm_or_si128(ok, _mm_cmpeq_epi8(c, _mm_set1_epi8('.')));
	cl->nul |= (uint64_t)(unsigned int)_mm_movemask_epi8(z) << shift;
	cl->digit |= (uint64_t)(unsigned int)_mm_movemask_epi8(digit) << shift;
	cl->bad |= (uint64_t)(~(unsigned int)_mm_movemask_epi8(_mm_or_si128(ok, z)) & 0xffff) << shift;
}

/* The string [start, its NUL at i + j] is a name when no stop byte lies in
 * it: none of the block's at or before j, none before i after start */
static inline void judge_string(struct venv *env, uint32_t start, uint32_t i, unsigned int j,
				uint64_t stop, uint32_t stop_end)
{
	uint64_t m = stop & (~0ull >> (63 - j)); /* bits 0..j */
	uint32_t pos = i + j, se = m ? i + 64 - __builtin_clzll(m) : stop_end;
	uint64_t ok = se <= start && pos - start <= VKSYM_NAME_LEN;

	env->ident_ok[start / 64] |= ok << (start % 64);
}

/*
 * Every own string judged at once, 64 bytes a step: each one that is a
 * valid identifier gets its bit in ident_ok, as lbtfi_vname_ident() would
 * set it when asked. Strings with Latin-1 bytes, those ending in the
 * section's last (up to 63) bytes and names that start inside a string are
 * left to that check. Almost every string of a BTF is a name that pass 1
 * or 2 asks about; this reads them as one stream instead of one call each.
 *
 * A string [start, its NUL] is a name when none of its bytes is a "stop":
 * a bad byte anywhere, a digit or a NUL (an empty string) where a string
 * starts. A block (one word of ident_ok: blocks start at multiples of 64)
 * without a stop byte, as most are, has every string that starts and ends
 * in it a name: their bits are the block's NULs but the last, shifted by
 * one. Only the string that ends at its first NUL, begun before, is judged
 * alone; a block with a stop byte judges each string.
 */
void lbtfi_vidents_scan(struct venv *env)
{
	const unsigned char *s = (const unsigned char *)env->strs;
	uint32_t n = env->hdr.str_len, start = 0;
	uint32_t stop_end = 0; /* just after the last stop byte seen, 0: none */
	uint64_t carry = 1;    /* the block's first byte starts a string */

	if (!env->ident_ok)
		return;
	for (uint32_t i = 0; n >= 64 && i <= n - 64; i += 64) {
		struct vclass cl = { 0, 0, 0 };
		uint64_t stop, nul;

		classify16(s + i, 0, &cl);
		classify16(s + i + 16, 16, &cl);
		classify16(s + i + 32, 32, &cl);
		classify16(s + i + 48, 48, &cl);
		stop = cl.bad | ((cl.digit | cl.nul) & (cl.nul << 1 | carry));
		carry = cl.nul >> 63;
		nul = cl.nul;
		if (nul) {
			judge_string(env, start, i, __builtin_ctzll(nul), stop, stop_end);
			if (!stop) {
				unsigned int last = 63 - __builtin_clzll(nul);

				env->ident_ok[i / 64] |= (nul ^ 1ull << last) << 1;
				start = i + last + 1;
			} else {
				start = i + __builtin_ctzll(nul) + 1;
				for (nul &= nul - 1; nul; nul &= nul - 1) {
					unsigned int j = __builtin_ctzll(nul);

					judge_string(env, start, i, j, stop, stop_end);
					start = i + j + 1;
				}
			}
		}
		if (stop)
			stop_end = i + 64 - __builtin_clzll(stop);
	}
}
#else
void lbtfi_vidents_scan(struct venv *env)
{
}
#endif

/* lbtfi_vname_ident() past its cache (internal.h) */
bool lbtfi_vname_ident_slow(const struct venv *env, uint32_t off)
{
	const unsigned char *s = (const unsigned char *)lbtfi_vstr(env, off);
	uint32_t own = off - env->start_str_off;

	if (!s || !ident_char_ok(*s, true))
		return false;
	if (!env->ident_ok || off < env->start_str_off)
		return ident_rest_ok(s);
	/* names repeat a lot (member names, types): remember the good ones */
	if (!ident_rest_ok_fast(s, (const unsigned char *)env->strs + env->hdr.str_len))
		return false;
	env->ident_ok[own / 64] |= 1ull << (own % 64);
	return true;
}

bool lbtfi_vname_section(const struct venv *env, uint32_t off)
{
	const unsigned char *s = (const unsigned char *)lbtfi_vstr(env, off);
	const unsigned char *limit;

	if (!s || !*s)
		return false;
	limit = s + VKSYM_NAME_LEN;
	for (; *s && s < limit; s++)
		if (!k_isprint(*s))
			return false;
	return !*s;
}
