/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbtf .BTF.ext: read the section clang writes next to .BTF in a BPF
 * object (func_info, line_info and CO-RE relocation records, grouped per
 * ELF section), and resolve a CO-RE access string ("0:57:3") against BTF.
 *
 * Layout of .BTF.ext (all words in the object's byte order):
 *   header: u16 magic 0xeB9F, u8 version, u8 flags, u32 hdr_len,
 *           u32 func_info_off, u32 func_info_len, u32 line_info_off,
 *           u32 line_info_len[, u32 core_relo_off, u32 core_relo_len]
 *   each info block (offsets from the end of the header): u32 rec_size,
 *   then per ELF section: u32 sec_name_off, u32 num_info, num_info records.
 * String offsets (section names, file names, source lines, access strings)
 * index the string section of the .BTF the records were made with; type ids
 * are ids of that .BTF. insn_off is as written in the file (clang: bytes
 * from the section start; the kernel and libbpf count instructions).
 *
 * Both byte orders are read; records come back in host order.
 */
#ifndef LIBBTF_EXT_H
#define LIBBTF_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

struct lbtf;

enum lbtf_ext_kind {
	LBTF_EXT_FUNC_INFO = 0,
	LBTF_EXT_LINE_INFO = 1,
	LBTF_EXT_CORE_RELO = 2,
	LBTF_EXT_KIND_CNT,
};

/* CO-RE relocation kinds (the kernel's enum bpf_core_relo_kind) */
enum lbtf_core_relo_kind {
	LBTF_CORE_FIELD_BYTE_OFFSET = 0,
	LBTF_CORE_FIELD_BYTE_SIZE = 1,
	LBTF_CORE_FIELD_EXISTS = 2,
	LBTF_CORE_FIELD_SIGNED = 3,
	LBTF_CORE_FIELD_LSHIFT_U64 = 4,
	LBTF_CORE_FIELD_RSHIFT_U64 = 5,
	LBTF_CORE_TYPE_ID_LOCAL = 6,
	LBTF_CORE_TYPE_ID_TARGET = 7,
	LBTF_CORE_TYPE_EXISTS = 8,
	LBTF_CORE_TYPE_SIZE = 9,
	LBTF_CORE_ENUMVAL_EXISTS = 10,
	LBTF_CORE_ENUMVAL_VALUE = 11,
	LBTF_CORE_TYPE_MATCHES = 12,
	LBTF_CORE_RELO_KIND_CNT,
};

struct lbtf_ext;

/* One ELF section's records of one kind */
struct lbtf_ext_sec {
	uint32_t sec_name_off; /* section name, in the .BTF strings */
	uint32_t rec_cnt;      /* records in this section */
	uint32_t rec_size;     /* bytes per record (the block's rec_size) */
};

struct lbtf_ext_func_info {
	uint32_t insn_off;
	uint32_t type_id; /* a FUNC */
};

struct lbtf_ext_line_info {
	uint32_t insn_off;
	uint32_t file_name_off; /* .BTF string: the source file */
	uint32_t line_off;      /* .BTF string: the source line's text */
	uint32_t line;          /* line_col >> 10 */
	uint32_t col;           /* line_col & 0x3ff */
};

struct lbtf_ext_core_relo {
	uint32_t insn_off;
	uint32_t type_id;        /* root type */
	uint32_t access_str_off; /* .BTF string: "0:1:2" */
	uint32_t kind;           /* enum lbtf_core_relo_kind */
};

/*
 * Parse .BTF.ext bytes (copied; data may be freed afterwards). NULL and
 * errno (lbtf_errmsg() says why) on a malformed section: bad magic, a block
 * or a section's records past the end, record sizes below the known ones.
 */
struct lbtf_ext *lbtf_ext_new(const void *data, size_t size);
/* The .BTF.ext section of an ELF file (ENODATA when it has none). */
struct lbtf_ext *lbtf_ext_open_elf(const char *path);
void lbtf_ext_free(struct lbtf_ext *ext);

/* Whether the bytes were in the other byte order than the host's */
bool lbtf_ext_is_swapped(const struct lbtf_ext *ext);
/* Section count of a kind (0 for a kind the section lacks) */
uint32_t lbtf_ext_sec_cnt(const struct lbtf_ext *ext, enum lbtf_ext_kind kind);
/* Section idx of a kind; 0 or -EINVAL/-ERANGE */
int lbtf_ext_sec(const struct lbtf_ext *ext, enum lbtf_ext_kind kind, uint32_t idx,
		 struct lbtf_ext_sec *sec);
/* Record i of section sec; 0 or a negative errno */
int lbtf_ext_func_info(const struct lbtf_ext *ext, uint32_t sec, uint32_t i,
		       struct lbtf_ext_func_info *rec);
int lbtf_ext_line_info(const struct lbtf_ext *ext, uint32_t sec, uint32_t i,
		       struct lbtf_ext_line_info *rec);
int lbtf_ext_core_relo(const struct lbtf_ext *ext, uint32_t sec, uint32_t i,
		       struct lbtf_ext_core_relo *rec);

/* "byte_off", "byte_sz", "field_exists", "signed", "lshift_u64",
 * "rshift_u64", "local_type_id", "target_type_id", "type_exists",
 * "type_size", "enumval_exists", "enumval_value", "type_matches"
 * (libbpf's spelling); NULL for an unknown kind. */
const char *lbtf_core_relo_kind_name(uint32_t kind);

/* ---- CO-RE access strings ---------------------------------------------- */

/* One step of a resolved access string */
struct lbtf_core_step {
	uint32_t type_id; /* the type indexed (typedefs and modifiers skipped) */
	uint32_t idx;     /* member, array element or enumerator index */
	uint32_t bit_off; /* member's bit offset in type_id (0 for others) */
	const char *name; /* member or enumerator name; "" anonymous, NULL array */
};

/*
 * Resolve the access string of a relocation of kind (enum
 * lbtf_core_relo_kind) with root type root_id against btf, as libbpf reads
 * it: field kinds: the first index is an array index on the root, each next
 * one a member of a struct/union or an element of an array; enumerator
 * kinds: one index, an enumerator of the root enum; type kinds: "0".
 * Fills up to max steps (steps may be NULL with max 0) and returns the
 * number of steps of the whole string, or a negative errno (-EINVAL for a
 * malformed string, -ENOENT for an index the types do not have).
 */
int lbtf_core_access_resolve(const struct lbtf *btf, uint32_t root_id, uint32_t kind,
			     const char *access, struct lbtf_core_step *steps, int max);

/* ---- rewriting onto another .BTF ---------------------------------------- */

struct lbtf_builder;

/*
 * Rewrite ext, made for old_btf, onto the BTF being built in b (serialize b
 * afterwards: it gets the strings the records need, and the CO-RE root types
 * it lacks altogether, copied from old_btf with what they refer to; type ids
 * already in b stay). Every record keeps its place (a .rel.BTF.ext stays
 * valid): section names, line_info file names and lines and access strings
 * are interned in b; func_info FUNCs and CO-RE root types are mapped to b's
 * types (by kind and name; anonymous types by shape or by what they refer to);
 * each access string is walked again over the new types by member name and
 * bit offset, array index, enumerator name, and must reach a type of the
 * same kind and size. On success *data (malloc'ed, in ext's byte order) and
 * *size; a negative errno and lbtf_errmsg() naming the section, the
 * instruction offset and the type or member that has no counterpart.
 */
int lbtf_ext_remap(const struct lbtf_ext *ext, const struct lbtf *old_btf, struct lbtf_builder *b,
		   void **data, size_t *size);

/* ---- writing a .BTF.ext from records ------------------------------------ */

struct lbtf_ext_writer;

/* An empty .BTF.ext; NULL and errno on allocation failure */
struct lbtf_ext_writer *lbtf_ext_writer_new(void);
void lbtf_ext_writer_free(struct lbtf_ext_writer *w);
/*
 * Append a record to the section named by sec_name_off (an offset in the
 * strings of the .BTF the records go with; sections keep the order they were
 * first named, records the order they are added: add them by insn_off).
 * insn_off is in bytes, as clang writes it. line_info's line must fit 22
 * bits and col 10 (-ERANGE). 0 or a negative errno.
 */
int lbtf_ext_writer_add_func_info(struct lbtf_ext_writer *w, uint32_t sec_name_off,
				  const struct lbtf_ext_func_info *rec);
int lbtf_ext_writer_add_line_info(struct lbtf_ext_writer *w, uint32_t sec_name_off,
				  const struct lbtf_ext_line_info *rec);
int lbtf_ext_writer_add_core_relo(struct lbtf_ext_writer *w, uint32_t sec_name_off,
				  const struct lbtf_ext_core_relo *rec);
/* Records of a kind added so far, over all sections */
uint32_t lbtf_ext_writer_rec_cnt(const struct lbtf_ext_writer *w, enum lbtf_ext_kind kind);
/* The section's bytes (malloc'ed; the other byte order than the host's when
 * swapped): header with the CO-RE words, then the blocks. 0 or -errno. */
int lbtf_ext_writer_finish(const struct lbtf_ext_writer *w, bool swapped, void **data, size_t *size);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
