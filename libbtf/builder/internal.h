/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals shared by the builder, dedup and writer modules (not installed). */
#ifndef LIBBTF_BUILD_INTERNAL_H
#define LIBBTF_BUILD_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include "core/internal.h"
#include "util/grow.h"
#include "util/htab.h"

/*
 * Interned strings: one growable byte buffer plus an open-addressing hash
 * set of offsets into it. The set's entries are also listed in offset
 * order with their hashes (seq), so that appending one set to another
 * neither scans the bytes for string starts nor hashes them again.
 */
struct lbtfi_strset_slot {
	uint32_t off;
	uint32_t hash;
};

struct lbtfi_strset {
	char *data;            /* owned bytes ("" first unless split) */
	size_t len, cap;
	struct lbtfi_htab tab; /* hash -> offset */
	uint32_t cnt;          /* entries in tab and in seq */
	struct lbtfi_strset_slot *seq; /* the entries by increasing offset */
	uint32_t seq_cap;
};

int lbtfi_strset_init(struct lbtfi_strset *ss, bool leading_empty);
void lbtfi_strset_free(struct lbtfi_strset *ss);
/* dst (uninitialised) becomes a copy of src: the same strings at the same
 * offsets. 0 or -ENOMEM */
int lbtfi_strset_copy(struct lbtfi_strset *dst, const struct lbtfi_strset *src);
/* Offset of s in the set, adding it if missing; <0 on ENOMEM/E2BIG */
int64_t lbtfi_strset_add(struct lbtfi_strset *ss, const char *s);
/* Offset of s or -1 */
int64_t lbtfi_strset_find(const struct lbtfi_strset *ss, const char *s);
/* Intern every string of set src: map[o] = 1 + offset in ss for each entry
 * of src at offset o (other entries of map untouched) */
int lbtfi_strset_add_set(struct lbtfi_strset *ss, const struct lbtfi_strset *src, uint32_t *map);
/* Room for bytes more string bytes and entries more strings: 0, -ENOMEM
 * or -E2BIG */
int lbtfi_strset_reserve(struct lbtfi_strset *ss, size_t bytes, uint32_t entries);
/* A set holding "" alone becomes a copy of a string section of len bytes
 * and cnt strings (a NUL first, no other empty string), at the same
 * offsets, each string hashed once: 0, 1 when a string is there twice
 * (the set is left with "" alone), or -ENOMEM/-E2BIG */
int lbtfi_strset_adopt(struct lbtfi_strset *ss, const char *strs, uint32_t len, uint32_t cnt);
/* Forget strings at offsets >= len (used to roll back a failed append) */
int lbtfi_strset_truncate(struct lbtfi_strset *ss, size_t len);
/* The first cnt entries of seq were rewritten (still by increasing offset)
 * and are now all the entries: rebuild the table from them */
int lbtfi_strset_reindex(struct lbtfi_strset *ss, uint32_t cnt);

/* Map u32 -> u32 (string offset remaps, names to ids); a value is never
 * LBTFI_HTAB_FREE */
struct lbtfi_offmap {
	struct lbtfi_htab tab; /* finished key -> value */
};
int lbtfi_offmap_init(struct lbtfi_offmap *m, uint32_t hint);
void lbtfi_offmap_free(struct lbtfi_offmap *m);
int lbtfi_offmap_put(struct lbtfi_offmap *m, uint32_t key, uint32_t val);
static inline bool lbtfi_offmap_get(const struct lbtfi_offmap *m, uint32_t key, uint32_t *val)
{
	uint32_t h = lbtfi_hash_fin(key);

	LBTFI_HTAB_FOR_EACH(&m->tab, h, i, v) {
		*val = v;
		return true;
	}
	return false;
}

/*
 * Index of a parsed BTF's strings (base and its bases): string -> offset of
 * its first occurrence, in the combined offset space.
 */
struct lbtfi_strindex {
	const struct lbtf *btf;
	struct lbtfi_htab tab; /* hash -> offset */
};
int lbtfi_strindex_build(struct lbtfi_strindex *si, const struct lbtf *btf);
void lbtfi_strindex_free(struct lbtfi_strindex *si);
int64_t lbtfi_strindex_find(const struct lbtfi_strindex *si, const char *s);
/*
 * The same through a builder's own cache of the base strings it found
 * (a direct-mapped table of LBTFI_STRCACHE_SLOTS, allocated on first use):
 * a converter interns the same names (member names, "int", ...) over and
 * over, and each lookup in a vmlinux index misses the cache twice (slot,
 * string). Only hits are cached: base offsets never change.
 */
#define LBTFI_STRCACHE_SLOTS 8192u
struct lbtfi_strcache_slot {
	uint32_t hash;
	uint32_t off; /* 0: empty ("" is never looked up) */
};
int64_t lbtfi_strindex_find_cached(const struct lbtfi_strindex *si,
				   struct lbtfi_strcache_slot **cache, const char *s);
/*
 * The index of btf's strings, shared by every builder over that base (one
 * builder per compile unit would otherwise index vmlinux's strings each
 * time): made on first use and kept on btf, freed with it (core's
 * lbtfi_derived_get); thread-safe. NULL on ENOMEM.
 */
const struct lbtfi_strindex *lbtfi_strindex_of(const struct lbtf *btf);
/* TYPE_TAG with kind_flag: value is an attribute (address_space(1)), as
 * libbpf's btf__add_type_attr */
int lbtfi_builder_add_type_attr(struct lbtf_builder *b, const char *value, uint32_t ref);
/* A member or parameter for lbtfi_builder_add_elems: the arguments of
 * lbtf_builder_add_field (a parameter's bit_offset and bit_size are 0) */
struct lbtfi_builder_elem {
	const char *name;
	uint32_t type, bit_offset, bit_size;
};
/*
 * n members of the last type (a struct or union), or n parameters of it
 * (a FUNC_PROTO), appended as n calls of lbtf_builder_add_field or
 * lbtf_builder_add_func_param would append them, with the same errors;
 * the elements are stride bytes apart (each starts with its struct
 * lbtfi_builder_elem). The last type's id or <0.
 */
int lbtfi_builder_add_elems(struct lbtf_builder *b, const struct lbtfi_builder_elem *e, uint32_t n,
			    size_t stride);

/*
 * lbtf_builder_add_decl_tag of a value added again and again (a marker):
 * *off is where the value's string was in b the last time (0 at first), a
 * lookup of the string saved while it still is (the string set holds each
 * string once: a whole string equal to value at *off is the one
 * lbtf_builder_add_str would give); else it is added and *off updated.
 */
int lbtfi_builder_add_decl_tag_memo(struct lbtf_builder *b, const char *value, uint32_t *off,
				    uint32_t ref, int component_idx);

/*
 * Where a kind's record keeps its type ids and string offsets, in 32-bit
 * words, derived from the kind table: hot loops (append, check, dedup) fix
 * or compare slots directly instead of through a callback per slot. Indexed
 * by the kind field (7 bits since 2026); unknown kinds have fixed_words 0.
 */
#define LBTFI_KIND_SLOTS (LBTF_MAX_KIND + 1)
struct lbtfi_layout {
	uint8_t fixed_words;     /* 3 + extra words */
	uint8_t fixed_type_mask; /* bit i: fixed word i is a type id */
	uint8_t elem_words;      /* words per vlen element (0: none) */
	int8_t elem_type_word;   /* word of a type id in each element, -1 none */
	int8_t elem_name_word;   /* word of a string offset in each element, -1 none */
};
/* The layouts of every kind, built once per process from the kind table */
const struct lbtfi_layout *lbtfi_layouts(void);

/* Words of record t by its layout, 0 for an unknown kind */
static inline size_t lbtfi_layout_words(const struct lbtfi_layout *lay, const struct lbtf_type *t)
{
	const struct lbtfi_layout *l = &lay[lbtf_kind(t)];

	return l->fixed_words + (size_t)l->elem_words * lbtf_vlen(t);
}

/*
 * The builder. Types live in one flat array of 32-bit words; offs[i] is
 * the word index of type start_id + i. No per-type allocation.
 */
struct lbtf_builder {
	const struct lbtf *base;
	uint32_t start_id;       /* first id of this builder's types */
	uint32_t start_str_off;  /* first string offset owned by this builder */
	uint32_t *words;
	size_t nwords, cap_words;
	uint32_t *offs;
	uint32_t nr_types, cap_types;
	struct lbtfi_strset strs;      /* offsets relative to start_str_off */
	uint32_t *scratch;             /* reused by append: string offset map */
	size_t scratch_cap;
	const struct lbtfi_strindex *base_strs; /* the base's, kept on it; only when base != NULL */
	struct lbtfi_strcache_slot *base_cache; /* lbtfi_strindex_find_cached() */
	const struct lbtfi_layout *lay; /* lbtfi_layouts() */
	bool layout_sec;                /* serialize with a layout section */
	/* Every record was checked as lbtfi_builder_check() would when the
	 * builder held these many types, words and string bytes, and none was
	 * handed out or added since (lbtfi_builder_checked_known): set by
	 * lbtf_builder_adopt_raw, whose walk over the records checks them,
	 * kept by the appends (lbtfi_builder_checked_or_empty) and by
	 * lbtfi_builder_check_added. types == 0: not known */
	struct lbtfi_checked { uint32_t types; size_t words, strs_len; } checked;
	/* Nonzero: its records' string offsets are another builder's, whose
	 * strings begin with these many bytes of the one it was made over
	 * (lbtfi_builder_new_strs_at); its own strings stay empty */
	size_t borrowed_strs_len;
};

static inline struct lbtf_type *lbtfi_btype(const struct lbtf_builder *b, uint32_t id)
{
	return (struct lbtf_type *)(b->words + b->offs[id - b->start_id]);
}

/* The bytes of strings b's records may refer to: its own, or those it
 * borrows (lbtfi_builder_new_strs_at) */
static inline size_t lbtfi_builder_strs_len(const struct lbtf_builder *b)
{
	return b->borrowed_strs_len ? b->borrowed_strs_len : b->strs.len;
}

/* Any type (base included, id 0 gives a VOID record) or NULL */
const struct lbtf_type *lbtfi_builder_any_type(const struct lbtf_builder *b, uint32_t id);
/* A builder over src's base with a copy of src's strings (at the same
 * offsets) and no types, for lbtfi_builder_append_range() */
struct lbtf_builder *lbtfi_builder_new_strs_of(const struct lbtf_builder *src);
/* The same with src's first len bytes of strings only (those it had when
 * it had len: strings are only appended, until compacted) */
struct lbtf_builder *lbtfi_builder_new_strs_upto(const struct lbtf_builder *src, size_t len);
/* The same without the copy: its records keep string offsets into src's
 * strings as they are now, so it only takes ranges of src and gives them
 * to a builder whose strings begin with those (lbtfi_builder_append_range),
 * not to lbtf_builder_append. For types moved aside while src is cut back
 * and appended to again (btfgen: a copy of a kernel's strings, 3.6 MB of
 * its peak memory at -j2, and the time to copy them) */
struct lbtf_builder *lbtfi_builder_new_strs_at(const struct lbtf_builder *src);
/* Append src's types [from, to) to b, whose strings begin with all of
 * src's at the same offsets (lbtfi_builder_new_strs_of/_at): references
 * into the range move with it, those to the base stay, any other is
 * EINVAL. The id of the first appended type, or <0 */
int lbtfi_builder_append_range(struct lbtf_builder *b, const struct lbtf_builder *src,
			       uint32_t from, uint32_t to);
/* Make room for n more types in the index (errno-style negative return) */
int lbtfi_builder_grow_types(struct lbtf_builder *b, uint32_t n);
/* Reserve room for one type of nwords words; returns its word pointer (zeroed) */
uint32_t *lbtfi_builder_reserve(struct lbtf_builder *b, size_t nwords);
/* Make room for n more words (errno-style negative return) */
int lbtfi_builder_grow_words(struct lbtf_builder *b, size_t n);
/* Record size in words of a type record (0 for unknown kinds) */
static inline size_t lbtfi_rec_words(const struct lbtf_type *t)
{
	return lbtf_type_rec_size(t) / 4;
}
/* Every record has a known kind and the size its vlen says, and refers to
 * existing type ids and string offsets (records are mutable by callers) */
int lbtfi_builder_check(const struct lbtf_builder *b);
/* The first type-id word of record w (n words, layout l) that is >= cnt, or n */
static inline size_t lbtfi_bad_id_word(const uint32_t *w, const struct lbtfi_layout *l, size_t n,
				       uint32_t cnt)
{
	for (unsigned int m = l->fixed_type_mask; m; m &= m - 1)
		if (w[__builtin_ctz(m)] >= cnt)
			return (size_t)__builtin_ctz(m);
	if (l->elem_type_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_type_word; e < n; e += l->elem_words)
			if (w[e] >= cnt)
				return e;
	return n;
}
/* b's records as they were when checked (b->checked): no need to check
 * them again */
static inline bool lbtfi_builder_checked_known(const struct lbtf_builder *b)
{
	return b->checked.types && b->checked.types == b->nr_types &&
	       b->checked.words == b->nwords && b->checked.strs_len == b->strs.len;
}
/* b's records, as they are now, are known to be as lbtfi_builder_check
 * wants them (the caller checked them, or made them from checked ones) */
static inline void lbtfi_builder_checked_now(struct lbtf_builder *b)
{
	b->checked = (struct lbtfi_checked){ b->nr_types, b->nwords, b->strs.len };
}
/* Forget that b's records were checked: a record is added, dropped or
 * handed out for editing */
static inline void lbtfi_builder_checked_forget(struct lbtf_builder *b)
{
	b->checked.types = 0;
}
/* The same, also storing each type's kind at kinds[id] (its own ids only) */
int lbtfi_builder_check_kinds(const struct lbtf_builder *b, uint8_t *kinds);
/* Known checked, or without records (nothing to check). Appends keep a
 * builder so (lbtf_builder_append checks each record it copies;
 * lbtfi_builder_append_range, from a source so) */
static inline bool lbtfi_builder_checked_or_empty(const struct lbtf_builder *b)
{
	return !b->nr_types || lbtfi_builder_checked_known(b);
}
/* b's first nr_known records were checked and none was changed since,
 * types were only added: those added are checked, and b is noted checked
 * when they pass. 0 or the check's error */
int lbtfi_builder_check_added(struct lbtf_builder *b, uint32_t nr_known);
/* Drop types added after nr_types/nwords were as given (rollback) */
void lbtfi_builder_truncate(struct lbtf_builder *b, uint32_t nr_types, size_t nwords);
/* Give back the memory of the whole huge pages past the last type's words
 * and index entry (dedup keeps a third of a raw vmlinux's records: the
 * output its caller writes next would otherwise come on top of the pages
 * the dropped ones held). The capacity stays: those pages come back zeroed
 * when written again. */
void lbtfi_builder_release_tail(struct lbtf_builder *b);

/*
 * Copying types of a parsed BTF (import.c): begin sizes the builder for
 * types more records of words more words and src's strings; each type or
 * range then comes in with its strings interned once per distinct offset
 * of src. After an error only lbtfi_import_end() is left to call.
 */
struct lbtfi_import {
	struct lbtf_builder *b;
	const struct lbtf *src;
	struct lbtfi_offmap done; /* src's own string offset -> the builder's */
	bool memo;                /* done is set up (not for a single record) */
};
int lbtfi_import_begin(struct lbtfi_import *im, struct lbtf_builder *b, const struct lbtf *src,
		       uint32_t types, size_t words);
void lbtfi_import_end(struct lbtfi_import *im);
/* One record, its type ids as they are: its new id or <0 (b unchanged but
 * for strings) */
int lbtfi_import_type(struct lbtfi_import *im, uint32_t src_id);
/* src's types [from, to) as one block, src's own type ids moved up by
 * delta: the new id of from, or <0 (no type added; strings may be) */
int lbtfi_import_range(struct lbtfi_import *im, uint32_t from, uint32_t to, uint32_t delta);

/* Refuse to rewrite an ELF file whose section headers no real object has
 * (odd or huge alignments, contents over the ELF or program headers or past
 * the end of the file): 0 or a negative errno with the message set */
struct Elf;
int lbtfi_elf_check_rewrite(struct Elf *e, const char *path, uint64_t file_size);

#endif
