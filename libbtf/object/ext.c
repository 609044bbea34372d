// SPDX-License-Identifier: BSD-2-Clause
/*
 * The .BTF.ext of a BPF object as libbpf 1.1's bpf_object__open() takes it
 * (bpf_object__init_btf() calling btf_ext__new()): the header, then each
 * info block (func_info, line_info, core_relo: record size, then sections
 * of records). libbpf ignores a .BTF.ext it cannot parse ("Ignored and
 * continue") unless the object needs BTF (bpf_object__init_btf(): a .maps
 * or .struct_ops section, libbpf_needs_btf()); then the open fails with
 * "BTF is required, but is missing or corrupted.". The records' contents
 * (section names, instruction offsets, type ids, access strings) are
 * libbpf's business at load time, after BPF_BTF_LOAD: not checked here.
 * The messages are libbpf's debug lines, which say why.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* struct btf_ext_header up to each field's end */
#define EXT_HDR_FLAGS_END 8u
#define EXT_HDR_LINE_END 24u
#define EXT_HDR_CORE_END 32u

struct ext_block {
	const char *desc;
	uint32_t min_rec;        /* sizeof(struct bpf_func_info_min) ... */
	uint32_t off_at;         /* where its offset and length sit in the header */
};

static const struct ext_block blocks[] = {
	{ "func_info", 8, 8 },
	{ "line_info", 16, 16 },
	{ "core_relo", 16, 24 },
};

static uint32_t word(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* btf_ext_setup_info(): NULL or why libbpf refuses the block */
static const char *check_block(const unsigned char *d, uint32_t size, uint32_t hdr_len,
			       const struct ext_block *bl, char *why, size_t why_size)
{
	uint32_t off = word(d + bl->off_at), len = word(d + bl->off_at + 4), left, rec;
	uint64_t pos;

	if (!len)
		return NULL;
	if (off & 3) {
		snprintf(why, why_size, ".BTF.ext %s section is not aligned to 4 bytes", bl->desc);
		return why;
	}
	if ((uint64_t)hdr_len + off + len > size) {
		snprintf(why, why_size, "%s section (off:%u len:%u) is beyond the end of the ELF section .BTF.ext",
			 bl->desc, off, len);
		return why;
	}
	if (len < 4) {
		snprintf(why, why_size, ".BTF.ext %s record size not found", bl->desc);
		return why;
	}
	pos = (uint64_t)hdr_len + off;
	rec = word(d + pos);
	if (rec < bl->min_rec || (rec & 3)) {
		snprintf(why, why_size, "%s section in .BTF.ext has invalid record size %u", bl->desc, rec);
		return why;
	}
	left = len - 4;
	pos += 4;
	if (!left) {
		snprintf(why, why_size, "%s section in .BTF.ext has no records", bl->desc);
		return why;
	}
	while (left) {
		uint32_t n;

		if (left < 8) {
			snprintf(why, why_size, "%s section header is not found in .BTF.ext", bl->desc);
			return why;
		}
		n = word(d + pos + 4);
		if (!n || 8 + (uint64_t)n * rec > left) {
			snprintf(why, why_size, "%s section has incorrect num_records in .BTF.ext",
				 bl->desc);
			return why;
		}
		left -= 8 + n * rec;
		pos += 8 + (uint64_t)n * rec;
	}
	return NULL;
}

/* btf_ext_parse_hdr() and btf_ext__new(): 0 or -errno, *why said */
static int check_ext(const unsigned char *d, uint32_t size, char *why, size_t why_size)
{
	uint32_t hdr_len;
	uint16_t magic;

	*why = '\0';
	if (size < EXT_HDR_FLAGS_END || size < (hdr_len = word(d + 4))) {
		snprintf(why, why_size, "BTF.ext header not found");
		return -EINVAL;
	}
	memcpy(&magic, d, 2);
	if (magic != LBTF_MAGIC) {
		snprintf(why, why_size, "Invalid BTF.ext magic:%x", magic);
		return -EINVAL;
	}
	if (d[2] != 1) {
		snprintf(why, why_size, "Unsupported BTF.ext version:%u", d[2]);
		return -ENOTSUP;
	}
	if (d[3]) {
		snprintf(why, why_size, "Unsupported BTF.ext flags:%x", d[3]);
		return -ENOTSUP;
	}
	if (size == hdr_len) {
		snprintf(why, why_size, "BTF.ext has no data");
		return -EINVAL;
	}
	if (hdr_len < EXT_HDR_LINE_END) {
		snprintf(why, why_size, "BTF.ext header of %u bytes has no line_info fields", hdr_len);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		/* (core_relo only when the header has its fields) */
		if (blocks[i].off_at + 8 > EXT_HDR_LINE_END && hdr_len < EXT_HDR_CORE_END)
			break;
		if (check_block(d, size, hdr_len, &blocks[i], why, why_size))
			return -EINVAL;
	}
	return 0;
}

int lbtfi_obj_check_btf_ext(struct octx *c)
{
	struct lbtfi_shdr sh, ext = { 0 };
	bool has_ext = false, needs_btf = false;
	const unsigned char *d;
	char why[160];
	int err;

	/* bpf_object__elf_collect(): the last section of each name counts */
	for (size_t i = 1; i < c->e.elf.shnum; i++) {
		const char *name;

		if (!lbtfi_obj_elf_sec(&c->e, i, &sh) || !(name = lbtfi_obj_elf_sec_name(&c->e, i)) ||
		    lbtfi_obj_ignored_section(&sh) || name[0] != '.')
			continue;
		/* (name[1] first: this runs for every section of every object) */
		if ((name[1] == 'm' && !strcmp(name, ".maps")) ||
		    (name[1] == 's' && !strcmp(name, ".struct_ops") && sh.type == SHT_PROGBITS &&
		     sh.size && !(sh.flags & SHF_EXECINSTR))) {
			needs_btf = true;
		} else if (name[1] == 'B' && !strcmp(name, ".BTF.ext")) {
			if (sh.type != SHT_PROGBITS) /* (libbpf says nothing) */
				return lbtfi_err(4001, "%s: .BTF.ext is not SHT_PROGBITS (type %u)",
						 c->path, sh.type);
			ext = sh;
			has_ext = true;
		}
	}
	if (c->ext) { /* the bytes a rewrite would put there */
		d = c->ext;
		ext.size = c->ext_size;
	} else if (!has_ext) {
		return 0;
	} else if (!(d = lbtfi_elf_sec_data(&c->e.elf, &ext))) {
		return lbtfi_err(4001, "%s: .BTF.ext: cannot read its data", c->path);
	}
	if (ext.size > UINT32_MAX)
		return lbtfi_err(4001, "%s: .BTF.ext: larger than 4 GiB", c->path);
	err = check_ext(d, (uint32_t)ext.size, why, sizeof(why));
	if (!err || !needs_btf)
		return 0; /* libbpf: "Ignored and continue" */
	return lbtfi_err(-err, "%s: %s; Error loading ELF section .BTF.ext: %d. BTF is required, but is missing or corrupted.",
			 c->path, why, err);
}
