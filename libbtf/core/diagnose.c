// SPDX-License-Identifier: BSD-2-Clause
/*
 * Why BTF bytes fail, said in terms of the fix. The parser and the kernel's
 * verifier name the symptom ("string section must start with an empty
 * string", "Invalid name"); a user needs the cause: split BTF read without
 * its base, a base that is not the one the split BTF was built over, BTF of
 * the other byte order. btfdump and btfcheck call this on their failure
 * paths, and btfdump also when a base is given (a wrong base parses).
 */
#include <string.h>
#include "internal.h"

/* Does off start a string of btf's strings, or of one of its bases'? */
static bool at_string_start(const struct lbtf *btf, uint32_t off)
{
	while (btf && off < btf->start_str_off)
		btf = btf->base;
	if (!btf)
		return false;
	off -= btf->start_str_off;
	return off < btf->hdr.str_len && (off == 0 || btf->strs[off - 1] == '\0');
}

struct fit {
	const struct lbtf *btf;
	uint32_t bad_names, bad_ids, first_bad; /* first_bad: the id of the first type with either */
	uint32_t id;
};

static int check_name(uint32_t *slot, void *ctx)
{
	struct fit *f = ctx;

	if (*slot && !at_string_start(f->btf, *slot)) {
		if (!f->bad_names++ && !f->bad_ids)
			f->first_bad = f->id;
	}
	return 0;
}

static int check_id(uint32_t *slot, void *ctx)
{
	struct fit *f = ctx;

	if (*slot >= lbtf_type_cnt(f->btf)) {
		if (!f->bad_ids++ && !f->bad_names)
			f->first_bad = f->id;
	}
	return 0;
}

/* Split BTF over base: do its names and type ids land where they should? */
static int check_base_fit(const void *data, size_t size, const struct lbtf *base)
{
	struct lbtf *btf = lbtf_new(data, size, base);
	struct fit f = { .btf = btf };
	uint32_t n;

	if (!btf)
		return LBTF_DIAG_NONE; /* broken bytes: the parser's message stands */
	n = lbtf_type_cnt(btf);
	for (f.id = lbtf_start_id(btf); f.id < n; f.id++) {
		struct lbtf_type *t = (struct lbtf_type *)(uintptr_t)lbtf_type_by_id(btf, f.id);

		/* read-only walks: the callbacks never write the slots */
		lbtf_type_visit_str_offs(t, check_name, &f);
		lbtf_type_visit_type_ids(t, check_id, &f);
	}
	lbtf_free(btf);
	if (!f.bad_names && !f.bad_ids)
		return LBTF_DIAG_NONE;
	lbtfi_err(EINVAL, "the base does not match this split BTF (%u names fall inside or past "
		  "the strings, %u type ids past the types; the first at [%u]): pass the BTF it "
		  "was built over", f.bad_names, f.bad_ids, f.first_bad);
	return LBTF_DIAG_BASE_MISMATCH;
}

int lbtf_diagnose(const void *data, size_t size, const struct lbtf *base)
{
	struct lbtf_header h;
	const char *strs;

	if (size < LBTF_HDR_LEN_V1)
		return LBTF_DIAG_NONE;
	memcpy(&h, data, LBTF_HDR_LEN_V1); /* the fields read here */
	if (h.magic == lbtf_bswap16(LBTF_MAGIC)) {
		uint16_t probe = 1;
		bool host_le = *(const unsigned char *)&probe == 1;

		lbtfi_err(EINVAL, "%s-endian BTF, the opposite of this %s-endian machine",
			  host_le ? "big" : "little", host_le ? "little" : "big");
		return LBTF_DIAG_OPPOSITE_ENDIAN;
	}
	if (h.magic != LBTF_MAGIC || h.hdr_len < 24 || h.hdr_len > size ||
	    (uint64_t)h.hdr_len + h.str_off + h.str_len > size)
		return LBTF_DIAG_NONE;
	if (base)
		return check_base_fit(data, size, base);
	strs = (const char *)data + h.hdr_len + h.str_off;
	/* split BTF's strings continue its base's, whose first is the empty one */
	if (h.str_len && strs[0] != '\0') {
		lbtfi_err(EINVAL, "looks like split BTF (its strings do not start with the empty "
			  "string): pass --base with the BTF it was built over (for a kernel module: "
			  "/sys/kernel/btf/vmlinux)");
		return LBTF_DIAG_NEEDS_BASE;
	}
	return LBTF_DIAG_NONE;
}
