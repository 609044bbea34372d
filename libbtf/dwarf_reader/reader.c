// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reader's files and units: the DWARF sections libdw holds for a file
 * (and for its dwz alternate file), the unit headers, and units prepared
 * for reading (abbreviations decoded into an array by code), cached per
 * thread. DIEs and attribute values are in reader_die.c.
 */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "util/err.h"
#include "util/grow.h"

LBTFI_TLS uint64_t lbtfi_dr_bad_off = UINT64_MAX;

/* Sections ------------------------------------------------------------------ */

static const char *const sect_names[DS_NR] = {
	[DS_INFO] = "debug_info",           [DS_ABBREV] = "debug_abbrev",
	[DS_STR] = "debug_str",             [DS_LINE_STR] = "debug_line_str",
	[DS_STR_OFFSETS] = "debug_str_offsets", [DS_ADDR] = "debug_addr",
	[DS_TYPES] = "debug_types",         [DS_RANGES] = "debug_ranges",
	[DS_RNGLISTS] = "debug_rnglists", [DS_LOC] = "debug_loc",
	[DS_LOCLISTS] = "debug_loclists",
};

/* .debug_x or GNU-compressed .zdebug_x: libdw has decompressed both in
 * place, so elf_getdata gives what libdw reads */
static int sect_id(const char *name)
{
	int i;

	if (name[0] != '.')
		return -1;
	name += name[1] == 'z' ? 2 : 1;
	for (i = 0; i < DS_NR; i++)
		if (!strcmp(name, sect_names[i]))
			return i;
	return -1;
}

/*
 * A relocatable object from gcc -fdebug-types-section keeps each type unit
 * in a COMDAT group of its own: a .debug_types (DWARF 4) or a .debug_info
 * (DWARF 5) section with SHF_GROUP, relocated by libdwfl like the others.
 * They are appended to the section of that name (units are self-contained:
 * their references are unit-relative or by signature), so the compile unit
 * finds its types by signature as in a linked file.
 */
static int join_group_section(struct lbtfi_dr_file *f, int id, const Elf_Data *d)
{
	int j = id == DS_INFO ? 0 : 1;
	size_t len = f->s[id].len;
	uint8_t *p;

	if (!d || !d->d_buf || !d->d_size)
		return 0;
	if (len + d->d_size < len)
		return lbtfi_err(EINVAL, "DWARF sections too large");
	p = malloc(len + d->d_size);
	if (!p)
		return lbtfi_err(ENOMEM, "out of memory");
	if (len)
		memcpy(p, f->s[id].p, len);
	memcpy(p + len, d->d_buf, d->d_size);
	free(f->joined[j]);
	f->joined[j] = p;
	f->s[id].p = p;
	f->s[id].len = len + d->d_size;
	return 0;
}

static int load_group_sections(struct lbtfi_dr_file *f, Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		int id;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_GROUP))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || ((id = sect_id(name)) != DS_INFO && id != DS_TYPES))
			continue;
		err = join_group_section(f, id, elf_getdata(scn, NULL));
	}
	return err;
}

static int load_sections(struct lbtfi_dr_file *f, Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int err;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return lbtfi_err(ENOEXEC, "bad ELF header: %s", elf_errmsg(-1));
	f->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		int id;

		/* (SHF_GROUP: the COMDAT copies of type units in a relocatable
		 * object, which libdw leaves aside too) */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_GROUP))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (id = sect_id(name)) < 0 || f->s[id].p)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && d->d_size) {
			f->s[id].p = d->d_buf;
			f->s[id].len = d->d_size;
		}
	}
	if (eh.e_type == ET_REL && (err = load_group_sections(f, elf, shstrndx)))
		return err;
	/* strings are read in place: each string section must end in a NUL */
	for (int i = DS_STR; i <= DS_LINE_STR; i++)
		if (f->s[i].len && f->s[i].p[f->s[i].len - 1])
			f->s[i].len = 0;
	if (!f->s[DS_INFO].p || !f->s[DS_ABBREV].p)
		return lbtfi_err(ENODATA, "no .debug_info or .debug_abbrev");
	return 0;
}

/* Unit headers ------------------------------------------------------------- */

/* A type unit header's signature and type offset, at *pp; false if cut short */
static bool type_signature(const struct lbtfi_dr_file *f, const uint8_t **pp, const uint8_t *e,
			   struct lbtfi_dr_unit_hdr *h)
{
	const uint8_t *p = *pp;

	if (e - p < 8 + h->offset_size)
		return false;
	h->sig = lbtfi_dr_read(f->big_endian, p, 8);
	h->type_off = h->off + lbtfi_dr_read(f->big_endian, p + 8, h->offset_size);
	*pp = p + 8 + h->offset_size;
	return true;
}

/* The header of the unit at off, from its first bytes at p0 (avail of them:
 * the mapped section's rest, or a copy of enough of it) */
static int parse_header(const struct lbtfi_dr_file *f, const uint8_t *p0, uint64_t avail, uint64_t off,
			struct lbtfi_dr_unit_hdr *h)
{
	bool types = f->key_base == LBTFI_DW_KEY_TYPES;
	const uint8_t *p = p0, *e = p0 + avail;
	uint64_t len, rest = f->s[DS_INFO].len - off;

	if (e - p < 11 || rest < 11)
		return -1;
	len = lbtfi_dr_read(f->big_endian, p, 4);
	p += 4;
	h->offset_size = 4;
	if (len == 0xffffffffu) {
		if (e - p < 8)
			return -1;
		len = lbtfi_dr_read(f->big_endian, p, 8);
		p += 8;
		h->offset_size = 8;
	} else if (len >= 0xfffffff0u) {
		return -1;
	}
	if (len > rest - (uint64_t)(p - p0) || len < 7)
		return -1;
	h->off = off;
	h->end = off + (uint64_t)(p - p0) + len;
	h->version = lbtfi_dr_read(f->big_endian, p, 2);
	p += 2;
	if (h->version < 2 || h->version > 5)
		return -1;
	if (h->version >= 5) {
		h->unit_type = *p++;
		h->addr_size = *p++;
		h->abbrev_off = lbtfi_dr_read(f->big_endian, p, h->offset_size);
		p += h->offset_size;
		/* type and skeleton/split units carry a signature (and an offset) */
		if (h->unit_type == DW_UT_type || h->unit_type == DW_UT_split_type) {
			if (!type_signature(f, &p, e, h))
				return -1;
		} else if (h->unit_type == DW_UT_skeleton || h->unit_type == DW_UT_split_compile)
			p += 8;
	} else {
		h->unit_type = types ? DW_UT_type : DW_UT_compile;
		h->abbrev_off = lbtfi_dr_read(f->big_endian, p, h->offset_size);
		p += h->offset_size;
		h->addr_size = *p++;
		if (types && !type_signature(f, &p, e, h)) /* DWARF 4 type unit */
			return -1;
	}
	if (p > e)
		return -1;
	h->die_off = off + (uint64_t)(p - p0);
	if (h->die_off >= h->end || (h->addr_size != 4 && h->addr_size != 8 && h->addr_size != 2))
		return -1;
	return 0;
}

/* Tag of the unit DIE (its bytes from p, up to e), 0 if unreadable; *dwo
 * set when its abbreviation has DW_AT_dwo_name or DW_AT_GNU_dwo_name (a
 * skeleton of split DWARF) */
static unsigned int unit_tag(const struct lbtfi_dr_file *f, const struct lbtfi_dr_unit_hdr *h, const uint8_t *p,
			     const uint8_t *e, bool *dwo)
{
	const uint8_t *ap, *ae = f->s[DS_ABBREV].p + f->s[DS_ABBREV].len;
	uint64_t want, code, tag, at, form;
	int64_t ic;

	if (!lbtfi_dr_uleb(&p, e, &want) || !want || h->abbrev_off >= f->s[DS_ABBREV].len)
		return 0;
	/* the unit DIE's abbreviation is nearly always the first */
	for (ap = f->s[DS_ABBREV].p + h->abbrev_off;;) {
		if (!lbtfi_dr_uleb(&ap, ae, &code) || !code || !lbtfi_dr_uleb(&ap, ae, &tag) || ap >= ae)
			return 0;
		ap++; /* children */
		do {
			if (!lbtfi_dr_uleb(&ap, ae, &at) || !lbtfi_dr_uleb(&ap, ae, &form))
				return 0;
			if (form == DW_FORM_implicit_const && !lbtfi_dr_sleb(&ap, ae, &ic))
				return 0;
			if (code == want && (at == DW_AT_dwo_name || at == DW_AT_GNU_dwo_name))
				*dwo = true;
		} while (at || form);
		if (code == want)
			return tag;
	}
}

static int by_sig(const void *a, const void *b)
{
	const struct lbtfi_dr_sig *x = a, *y = b;

	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

/* The signatures of the type units, sorted for DW_FORM_ref_sig8 lookups */
static int load_sigs(struct lbtfi_dr_file *f)
{
	uint32_t i;

	for (i = 0; i < f->nunits; i++) {
		if (f->units[i].unit_type != DW_UT_type)
			continue;
		if (!f->sigs && !(f->sigs = malloc(f->nunits * sizeof(*f->sigs))))
			return lbtfi_err(ENOMEM, "out of memory");
		f->sigs[f->nsigs++] = (struct lbtfi_dr_sig){ f->units[i].sig, f->units[i].type_off };
	}
	if (f->nsigs)
		qsort(f->sigs, f->nsigs, sizeof(*f->sigs), by_sig);
	return 0;
}

bool lbtfi_dr_sig_lookup(const struct lbtfi_dr_file *f, uint64_t sig, uint64_t *off)
{
	uint32_t lo = 0, hi = f->nsigs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->sigs[mid].sig < sig)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->nsigs || f->sigs[lo].sig != sig)
		return false;
	*off = f->sigs[lo].off;
	return true;
}

/* The first bytes of a unit: its header (40 at most) and its DIE's code */
#define HEADER_READ 64

/*
 * Read every unit header: through the mapping, or with src by pread from
 * the file. A vmlinux's thousands of headers are a page or two apart in
 * its .debug_info: read through the mapping, each is a page fault (costly
 * on a VM with shadow paging, and all before any worker can start), and
 * those pages had to be given back after; a pread is a copy from the page
 * cache.
 */
static int load_units(struct lbtfi_dr_file *f, const struct lbtfi_dr_info_src *src)
{
	uint64_t off = 0, n = 0, cap = 0;
	uint8_t buf[HEADER_READ];

	while (off < f->s[DS_INFO].len) {
		struct lbtfi_dr_unit_hdr h;
		const uint8_t *p = f->s[DS_INFO].p + off;
		uint64_t avail = f->s[DS_INFO].len - off;

		if (src) {
			ssize_t got = pread(src->fd, buf, avail < HEADER_READ ? avail : HEADER_READ,
					    (off_t)(src->foff + off));

			if (got < 0 || (uint64_t)got < (avail < HEADER_READ ? avail : HEADER_READ)) {
				/* (the mapping, which libelf read, then) */
				src = NULL;
			} else {
				p = buf;
				avail = (uint64_t)got;
			}
		}
		if (parse_header(f, p, avail, off, &h)) {
			free(f->units);
			f->units = NULL;
			return lbtfi_err(EINVAL, "bad DWARF unit header at .debug_info+0x%llx",
					 (unsigned long long)off);
		}
		if (LBTFI_GROW_FROM(f->units, cap, n + 1, 64)) {
			free(f->units);
			f->units = NULL;
			return lbtfi_err(ENOMEM, "out of memory");
		}
		h.dwo = h.unit_type == DW_UT_skeleton;
		h.tag = unit_tag(f, &h, p + (h.die_off - off),
				 p + (h.end - off < avail ? h.end - off : avail), &h.dwo);
		f->dwo_units += h.dwo;
		f->units[n++] = h;
		off = h.end;
	}
	f->nunits = n;
	return load_sigs(f);
}

/* Use the unit headers and signatures another thread's file has read */
static void share_units(struct lbtfi_dr_file *f, const struct lbtfi_dr_file *shared)
{
	f->units = shared->units;
	f->nunits = shared->nunits;
	f->dwo_units = shared->dwo_units;
	f->sigs = shared->sigs;
	f->nsigs = shared->nsigs;
	f->shared_units = true;
}

static int open_one(struct lbtfi_dr_file *f, Dwarf *dw, const struct lbtfi_dr_file *shared,
		    const struct lbtfi_dr_info_src *src)
{
	Elf *elf = dwarf_getelf(dw);
	int err;

	memset(f, 0, sizeof(*f));
	if (!elf)
		return lbtfi_err(ENODATA, "no ELF behind the DWARF handle");
	if ((err = load_sections(f, elf)))
		return err;
	if (!shared)
		return load_units(f, src);
	share_units(f, shared);
	return 0;
}

/* .debug_types as a file whose .debug_info it is, with the same other
 * sections (type units and DW_FORM_ref_sig8 of DWARF 4) */
static int open_types(struct lbtfi_dr_file *f, const struct lbtfi_dr_file *shared)
{
	struct lbtfi_dr_file *t = calloc(1, sizeof(*t));

	if (!t)
		return lbtfi_err(ENOMEM, "out of memory");
	memcpy(t->s, f->s, sizeof(t->s));
	t->s[DS_INFO] = f->s[DS_TYPES];
	t->big_endian = f->big_endian;
	t->key_base = LBTFI_DW_KEY_TYPES;
	t->alt_str = f->alt_str;
	t->root = f;
	f->types = t;
	if (!shared || !shared->types)
		return load_units(t, NULL);
	share_units(t, shared->types);
	return 0;
}

int lbtfi_dr_file_open(struct lbtfi_dr_file *f, Dwarf *dw, const struct lbtfi_dr_file *shared,
		 const struct lbtfi_dr_info_src *src)
{
	Dwarf *alt = dwarf_getalt(dw);
	int err = open_one(f, dw, shared, src);

	f->root = f;
	if (!err && alt) {
		f->alt = calloc(1, sizeof(*f->alt));
		if (!f->alt)
			return lbtfi_err(ENOMEM, "out of memory");
		/* (the alternate file is small: read through its mapping) */
		if ((err = open_one(f->alt, alt, shared ? shared->alt : NULL, NULL))) {
			free(f->alt);
			f->alt = NULL;
			return err;
		}
		f->alt->key_base = LBTFI_DW_KEY_ALT;
		f->alt->root = f;
		f->alt->alt_str = &f->alt->s[DS_STR];
		f->alt_str = &f->alt->s[DS_STR];
	}
	if (!err && f->s[DS_TYPES].p)
		err = open_types(f, shared);
	return err;
}

void lbtfi_dr_file_close(struct lbtfi_dr_file *f)
{
	if (f->alt) {
		lbtfi_dr_file_close(f->alt);
		free(f->alt);
	}
	if (f->types) {
		lbtfi_dr_file_close(f->types);
		free(f->types);
	}
	if (!f->shared_units) {
		free(f->units);
		free(f->sigs);
	}
	free(f->joined[0]);
	free(f->joined[1]);
	memset(f, 0, sizeof(*f));
}

int64_t lbtfi_dr_unit_index(const struct lbtfi_dr_file *f, uint64_t off)
{
	uint32_t lo = 0, hi = f->nunits;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->units[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nunits && f->units[lo].off <= off ? (int64_t)lo : -1;
}

/* Abbreviations ------------------------------------------------------------ */

static const uint8_t attr_slot[] = {
	[DW_AT_sibling] = DA_SIBLING + 1,
	[DW_AT_location] = DA_LOCATION + 1,
	[DW_AT_name] = DA_NAME + 1,
	[DW_AT_byte_size] = DA_BYTE_SIZE + 1,
	[DW_AT_bit_offset] = DA_BIT_OFFSET + 1,
	[DW_AT_bit_size] = DA_BIT_SIZE + 1,
	[DW_AT_low_pc] = DA_LOW_PC + 1,
	[DW_AT_language] = DA_LANGUAGE + 1,
	[DW_AT_const_value] = DA_CONST_VALUE + 1,
	[DW_AT_inline] = DA_INLINE + 1,
	[DW_AT_producer] = DA_PRODUCER + 1,
	[DW_AT_lower_bound] = DA_LOWER_BOUND + 1,
	[DW_AT_upper_bound] = DA_UPPER_BOUND + 1,
	[DW_AT_abstract_origin] = DA_ORIGIN + 1,
	[DW_AT_count] = DA_COUNT + 1,
	[DW_AT_data_member_location] = DA_MEMBER_LOC + 1,
	[DW_AT_declaration] = DA_DECLARATION + 1,
	[DW_AT_encoding] = DA_ENCODING + 1,
	[DW_AT_external] = DA_EXTERNAL + 1,
	[DW_AT_specification] = DA_SPEC + 1,
	[DW_AT_type] = DA_TYPE + 1,
	[DW_AT_ranges] = DA_RANGES + 1,
	[DW_AT_data_bit_offset] = DA_DATA_BIT_OFFSET + 1,
	[DW_AT_str_offsets_base] = DA_STR_OFFSETS_BASE + 1,
	[DW_AT_addr_base] = DA_ADDR_BASE + 1,
	[DW_AT_signature] = DA_SIGNATURE + 1,
	[DW_AT_rnglists_base] = DA_RNGLISTS_BASE + 1,
};

/* Fixed size of a form's value in this unit, -1 variable, -2 unknown */
int lbtfi_dr_form_size(const struct lbtfi_dr_unit_hdr *h, unsigned int form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return h->addr_size;
	case DW_FORM_ref_addr:
		return h->version == 2 ? h->addr_size : h->offset_size;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt: case DW_FORM_strp_sup:
		return h->offset_size;
	case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4: case DW_FORM_block:
	case DW_FORM_exprloc: case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
	case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index: case DW_FORM_string:
	case DW_FORM_indirect:
		return -1;
	default:
		return -2;
	}
}

/* The standard forms (DW_FORM_addr 0x01 .. DW_FORM_addrx4 0x2c) */
#define FORM_SIZES 0x2d

/*
 * The abbreviation table read in one pass, into arrays that grow as it
 * goes (a table's length is only known at its end): a first pass to
 * count, and a zeroed array of every code, cost a kernel ~0.2G
 * instructions over its ~2,400 units. Codes are mostly dense, so only
 * the gaps between them are zeroed (an undefined code has no specs).
 */
struct abbrev_scan {
	const uint8_t *p, *e;
	uint32_t nspecs, capspecs, capcodes;
	/* lbtfi_dr_form_size of the unit for forms below FORM_SIZES, looked
	 * up once per unit rather than through the call per attribute */
	int16_t form_size[FORM_SIZES];
};

/* Room for code (1-based) in u->byc, the entries up to it that were not
 * defined zeroed */
static int abbrev_code_room(struct lbtfi_dr_unit *u, struct abbrev_scan *sc, uint32_t code)
{
	if (code > sc->capcodes) {
		uint32_t cap = sc->capcodes * 2;
		struct lbtfi_dr_abbrev *n;

		if (cap < code)
			cap = code;
		n = realloc(u->byc, (size_t)cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		u->byc = n;
		sc->capcodes = cap;
	}
	if (code > u->nbyc) {
		/* (only a gap: the caller sets the code's own entry) */
		memset(&u->byc[u->nbyc], 0, (size_t)(code - 1 - u->nbyc) * sizeof(*u->byc));
		u->nbyc = code;
	}
	return 0;
}

/* Room for one more spec in u->pool; the abbreviations' specs pointers
 * follow the pool when it moves */
static int abbrev_spec_room(struct lbtfi_dr_unit *u, struct abbrev_scan *sc)
{
	struct lbtfi_dr_spec *n;
	uint32_t i;

	if (sc->nspecs < sc->capspecs)
		return 0;
	n = malloc((size_t)sc->capspecs * 2 * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memcpy(n, u->pool, (size_t)sc->nspecs * sizeof(*n));
	for (i = 0; i < u->nbyc; i++)
		if (u->byc[i].specs)
			u->byc[i].specs = n + (u->byc[i].specs - u->pool);
	free(u->pool);
	u->pool = n;
	sc->capspecs *= 2;
	return 0;
}

static int scan_abbrevs(struct lbtfi_dr_unit *u, struct abbrev_scan *sc)
{
	const uint8_t *p = sc->p, *e = sc->e;

	for (;;) {
		uint64_t code, tag, at, form;
		struct lbtfi_dr_abbrev *ab;
		uint8_t children;
		bool fresh;
		int err;

		if (!lbtfi_dr_uleb(&p, e, &code))
			return -1;
		if (!code)
			break;
		if (!lbtfi_dr_uleb(&p, e, &tag) || p >= e || code > (1u << 20))
			return -1;
		children = *p++;
		fresh = code > u->nbyc;
		if ((err = abbrev_code_room(u, sc, (uint32_t)code)))
			return err;
		ab = &u->byc[code - 1];
		if (!fresh && ab->specs)
			return -1; /* a code defined twice */
		*ab = (struct lbtfi_dr_abbrev){ .tag = tag, .children = children == DW_CHILDREN_yes,
					  .specs = u->pool + sc->nspecs, .fixed = 0 };
		for (;;) {
			int64_t implicit = 0;
			struct lbtfi_dr_spec *s;
			int size;

			if (!lbtfi_dr_uleb(&p, e, &at) || !lbtfi_dr_uleb(&p, e, &form))
				return -1;
			if (!at && !form)
				break;
			if (form == DW_FORM_implicit_const && !lbtfi_dr_sleb(&p, e, &implicit))
				return -1;
			size = form < FORM_SIZES ? sc->form_size[form] : lbtfi_dr_form_size(u->h, form);
			if (size == -2)
				return -1;
			if ((err = abbrev_spec_room(u, sc)))
				return err;
			ab = &u->byc[code - 1]; /* (specs may have moved) */
			s = &u->pool[sc->nspecs++];
			s->at = at;
			s->form = form;
			s->size = size;
			s->slot = at < sizeof(attr_slot) ? attr_slot[at] : 0;
			s->implicit = implicit;
			s->off = ab->fixed;
			if (s->slot)
				ab->slots |= 1u << (s->slot - 1);
			if (size < 0 || ab->fixed < 0)
				ab->fixed = -1;
			else
				ab->fixed += size;
			ab->nspecs++;
		}
	}
	return 0;
}

/* Segments and wanted attributes of ab (struct lbtfi_dr_abbrev), from its specs;
 * var and want have room for all of them */
static void compile_abbrev(struct lbtfi_dr_abbrev *ab, struct lbtfi_dr_var *var, struct lbtfi_dr_want *want)
{
	uint32_t nvar = 0, nwant = 0, i, m;
	uint8_t last[DA_NR];
	int32_t off = 0;

	ab->var = var;
	ab->want = want;
	ab->nvar = LBTFI_DR_GENERIC;
	ab->sib_ref4 = -1;
	for (i = 0; i < ab->nspecs; i++) {
		const struct lbtfi_dr_spec *s = &ab->specs[i];

		if (s->form == DW_FORM_indirect || (s->slot && nwant == UINT8_MAX))
			return;
		if (s->slot)
			want[nwant++] = (struct lbtfi_dr_want){ .form = s->form, .slot = s->slot - 1,
							  .seg = nvar, .off = off,
							  .implicit = s->implicit };
		if (s->size < 0) {
			if (nvar == LBTFI_DR_MAX_VAR)
				return;
			var[nvar++] = (struct lbtfi_dr_var){ .form = s->form, .gap = off };
			off = 0;
		} else if (off > INT32_MAX - 16) {
			return;
		} else {
			off += s->size;
		}
	}
	ab->nvar = nvar;
	ab->nwant = nwant;
	ab->tail = off;
	ab->sib = -1;
	for (i = 0; i < nwant; i++)
		if (want[i].slot == DA_SIBLING) {
			ab->sib = (int16_t)i;
			if (!want[i].seg && want[i].form == DW_FORM_ref4)
				ab->sib_ref4 = want[i].off;
			break;
		}
	for (i = 0; i < nwant; i++)
		last[want[i].slot] = (uint8_t)i;
	ab->nbyslot = 0;
	ab->ntypeslots = 0;
	/* (counted here: __builtin_popcount is a libgcc call without -mpopcnt) */
	for (m = ab->slots; m; m &= m - 1) {
		unsigned int slot = (unsigned int)__builtin_ctz(m);

		ab->byslot[ab->nbyslot++] = last[slot];
		ab->ntypeslots += slot <= DA_LOWER_BOUND;
	}
}

static int prepare_abbrevs(struct lbtfi_dr_unit *u)
{
	const struct lbtfi_dr_sect *s = &u->f->s[DS_ABBREV];
	struct abbrev_scan sc = { .capspecs = 4096, .capcodes = 256 };
	uint32_t i, n;
	int err;

	if (u->h->abbrev_off >= s->len)
		return -1;
	for (i = 0; i < FORM_SIZES; i++)
		sc.form_size[i] = (int16_t)lbtfi_dr_form_size(u->h, i);
	sc.p = s->p + u->h->abbrev_off;
	sc.e = s->p + s->len;
	/* (first guesses: a kernel unit's table has ~150-250 codes, ~750
	 * attributes on average, a few thousand in the largest: the pool
	 * grown from 1024 copied 10M instructions' worth on a vmlinux) */
	u->byc = malloc(sc.capcodes * sizeof(*u->byc));
	u->pool = malloc(sc.capspecs * sizeof(*u->pool));
	if (!u->byc || !u->pool)
		return -ENOMEM;
	if ((err = scan_abbrevs(u, &sc)))
		return err;
	n = sc.nspecs ? sc.nspecs : 1;
	u->vpool = malloc(n * sizeof(*u->vpool));
	u->wpool = malloc(n * sizeof(*u->wpool));
	if (!u->vpool || !u->wpool)
		return -ENOMEM;
	for (i = 0; i < u->nbyc; i++) {
		struct lbtfi_dr_abbrev *ab = &u->byc[i];

		if (!ab->specs)
			continue;
		compile_abbrev(ab, u->vpool + (ab->specs - u->pool), u->wpool + (ab->specs - u->pool));
	}
	return 0;
}

/* Prepared units, cached per thread ------------------------------------------ */

/* Its buffer kept for the next unit prepared (c: when there is one) */
static void free_unit(struct lbtfi_dr_ctx *c, struct lbtfi_dr_unit *u)
{
	if (!u)
		return;
	if (u->buf.p && c && c->nspare < LBTFI_DR_SPARE_BUFS)
		c->spare[c->nspare++] = u->buf;
	else
		free(u->buf.p);
	free(u->byc);
	free(u->pool);
	free(u->vpool);
	free(u->wpool);
	free(u);
}

/* The DWARF 5 bases from the unit DIE (strx/addrx are read through them) */
static int read_bases(struct lbtfi_dr_ctx *c, struct lbtfi_dr_unit *u)
{
	struct lbtfi_dw_die d;
	struct lbtfi_dw_attrs da;
	uint64_t v;

	/* defaults: right after the v5 section headers */
	u->str_offsets_base = u->h->version >= 5 ? (u->h->offset_size == 8 ? 16 : 8) : 0;
	u->addr_base = u->str_offsets_base;
	if (lbtfi_dr_die_in_unit(u, u->h->die_off, &d))
		return -1;
	lbtfi_dr_attrs(c, &d, &da, false);
	if (lbtfi_dw_attrs_udata(&da, DA_STR_OFFSETS_BASE, &v))
		u->str_offsets_base = v;
	if (lbtfi_dw_attrs_udata(&da, DA_ADDR_BASE, &v))
		u->addr_base = v;
	/* the offsets table right after the v5 .debug_rnglists header */
	u->rnglists_base = u->h->offset_size == 8 ? 20 : 12;
	if (lbtfi_dw_attrs_udata(&da, DA_RNGLISTS_BASE, &v))
		u->rnglists_base = v;
	if (!lbtfi_dw_attrs_get(&da, DA_LOW_PC) || !lbtfi_dr_addr(lbtfi_dw_attrs_get(&da, DA_LOW_PC), &u->base_addr))
		u->base_addr = 0;
	return 0;
}

/* The unit's bytes read into a buffer (a spare one when it is large
 * enough); u->info placed so that section offsets index it as they index
 * the section */
static int read_unit(struct lbtfi_dr_ctx *c, struct lbtfi_dr_unit *u)
{
	size_t len = u->h->end - u->h->off;
	struct lbtfi_dr_buf b = { 0 };
	ssize_t n;

	if (c->nspare)
		b = c->spare[--c->nspare];
	if (b.cap < len) {
		free(b.p);
		b.cap = len < (64u << 10) ? 64u << 10 : len + len / 4;
		b.p = malloc(b.cap);
		if (!b.p)
			return lbtfi_err(ENOMEM, "out of memory");
	}
	u->buf = b;
	do
		n = pread(c->info_fd, b.p, len, (off_t)(c->info_foff + u->h->off));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len)
		return lbtfi_err(n < 0 ? errno : EIO, "cannot read the unit at .debug_info+0x%llx: %s",
				 (unsigned long long)u->h->off, n < 0 ? strerror(errno) : "short read");
	u->info = b.p - u->h->off;
	return 0;
}

static struct lbtfi_dr_unit *prepare_unit(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *f, uint32_t idx,
				    int *perr)
{
	struct lbtfi_dr_unit *u = calloc(1, sizeof(*u));
	int err;

	if (!u) {
		*perr = lbtfi_err(ENOMEM, "out of memory");
		return NULL;
	}
	u->f = f;
	u->h = &f->units[idx];
	u->key_base = f->key_base;
	u->info = f->s[DS_INFO].p;
	if (f == c->main && c->info_fd >= 0 && (err = read_unit(c, u))) {
		*perr = err;
		free_unit(c, u);
		return NULL;
	}
	u->end = u->info + u->h->end;
	err = prepare_abbrevs(u);
	if (!err)
		err = read_bases(c, u);
	if (err) {
		if (err != -ENOMEM)
			*perr = lbtfi_err(EINVAL, "bad DWARF abbreviations of the unit at "
					  "%s.debug_info+0x%llx", lbtfi_dr_key_where(u->key_base),
					  (unsigned long long)u->h->off);
		else
			*perr = lbtfi_err(ENOMEM, "out of memory");
		free_unit(c, u);
		return NULL;
	}
	return u;
}

static struct lbtfi_dr_unit *get_unit(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *f, uint32_t idx, int *err)
{
	const struct lbtfi_dr_unit_hdr *h = &f->units[idx];
	struct lbtfi_dr_unit *u;
	uint32_t i;

	for (i = c->nunits; i--;) {
		if (c->units[i]->h == h) {
			c->units[i]->last_use = ++c->clock;
			return c->units[i];
		}
	}
	if (LBTFI_GROW_FROM(c->units, c->capunits, c->nunits + 1, 16)) {
		*err = lbtfi_err(ENOMEM, "out of memory");
		return NULL;
	}
	u = prepare_unit(c, f, idx, err);
	if (!u)
		return NULL;
	u->last_use = ++c->clock;
	c->units[c->nunits++] = u;
	return u;
}

void lbtfi_dr_ctx_init(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *main)
{
	memset(c, 0, sizeof(*c));
	c->main = main;
	c->info_fd = -1;
}

void lbtfi_dr_ctx_read_units(struct lbtfi_dr_ctx *c, int fd, uint64_t foff)
{
	c->info_fd = fd;
	c->info_foff = foff;
}

static int by_last_use_desc(const void *a, const void *b)
{
	const struct lbtfi_dr_unit *x = *(struct lbtfi_dr_unit *const *)a, *y = *(struct lbtfi_dr_unit *const *)b;

	return x->last_use < y->last_use ? 1 : x->last_use > y->last_use ? -1 : 0;
}

void lbtfi_dr_ctx_trim(struct lbtfi_dr_ctx *c, uint32_t keep)
{
	if (c->nunits <= keep)
		return;
	qsort(c->units, c->nunits, sizeof(*c->units), by_last_use_desc);
	while (c->nunits > keep)
		free_unit(c, c->units[--c->nunits]);
}

void lbtfi_dr_ctx_forget(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *f, uint64_t off)
{
	int64_t idx = f ? lbtfi_dr_unit_index(f, off) : -1;
	uint32_t i;

	if (idx < 0)
		return;
	for (i = 0; i < c->nunits; i++) {
		if (c->units[i]->h != &f->units[idx])
			continue;
		free_unit(c, c->units[i]);
		c->units[i] = c->units[--c->nunits];
		return;
	}
}

void lbtfi_dr_ctx_free(struct lbtfi_dr_ctx *c)
{
	lbtfi_dr_ctx_trim(c, 0);
	while (c->nspare)
		free(c->spare[--c->nspare].p);
	free(c->units);
	memset(c, 0, sizeof(*c));
}

const char *lbtfi_dr_key_where(uint64_t key)
{
	return (key & LBTFI_DW_KEY_ALT) ? "(alternate file) " : (key & LBTFI_DW_KEY_TYPES) ? "(.debug_types) " : "";
}

int lbtfi_dr_die_at(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *f, uint64_t off, struct lbtfi_dw_die *out)
{
	struct lbtfi_dr_unit *u;
	int64_t idx;
	int err = 0;

	if (!f || (idx = lbtfi_dr_unit_index(f, off)) < 0)
		return lbtfi_err(EINVAL, "DWARF reference to %s.debug_info+0x%llx outside every unit",
				 f ? lbtfi_dr_key_where(f->key_base) : "", (unsigned long long)off);
	u = get_unit(c, f, idx, &err);
	if (!u)
		return err;
	if (lbtfi_dr_die_in_unit(u, off, out))
		return lbtfi_err(EINVAL, "bad DWARF entry at %s.debug_info+0x%llx",
				 lbtfi_dr_key_where(f->key_base), (unsigned long long)off);
	return 0;
}
