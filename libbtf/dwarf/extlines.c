// SPDX-License-Identifier: BSD-2-Clause
/*
 * func_info and line_info of a BPF object without them (gcc-bpf's): what
 * clang writes into .BTF.ext, made from the object itself.
 *
 * func_info: per code section (SHF_EXECINSTR, not empty), one record per
 * STT_FUNC symbol at its offset, naming the FUNC of that name in the new BTF.
 * line_info: the rows of the DWARF line table (.debug_line; its addresses
 * are offsets in the section their relocations name, so a copy of the file
 * is read where each address also carries its section's index: libdwfl
 * does not apply gcc-bpf's relocation types). Per instruction the row in
 * effect: of the rows at one address, the last that begins a statement
 * (is_stmt; gcc adds rows that are not, for location views), else the
 * last; rows repeating the previous
 * location are left out, as clang emits a record only when it changes. A
 * function entry without a row gets the row in effect there. Rows that do
 * not start an instruction (the second half of a 16-byte ld_imm64, which the
 * kernel refuses) or lie past the section are dropped. File names as libdw
 * gives them (the directory joined to a relative name: clang's spelling);
 * the line's text read from that file (empty, with a note, when it cannot
 * be read; empty for line 0, as clang). Offsets are bytes, as clang writes
 * them (libbpf divides by 8).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libbtf_dwarf.h"
#include "libbtf_ext.h"
#include "internal.h"
#include "io/io.h"
#include "libbtf_object.h"

struct xrow {
	uint64_t off;
	uint32_t seq; /* order in the line table, to keep it among equal offsets */
	uint32_t line, col;
	bool stmt;        /* is_stmt: a statement begins here */
	const char *file; /* libdw's string, alive while the handle is */
	const char *dir;  /* the unit's DW_AT_comp_dir for a relative file name */
};

struct xfunc {
	uint64_t off;
	const char *name;
};

struct xsec {
	size_t idx;
	const char *name;
	uint64_t size;
	uint8_t *starts; /* starts[i]: insn i begins an instruction */
	struct xrow *rows;
	size_t nrows, rcap;
	struct xfunc *funcs;
	size_t nfuncs, fcap;
};

struct xsrc {
	char *path;
	char *text;   /* NULL: unreadable */
	size_t len;
	size_t *lines; /* offset of line i + 1 */
	size_t nlines;
};

struct xgen {
	const char *path;
	Elf *elf;
	struct xsec *secs;
	size_t nsecs, scap;
	struct xsrc *srcs;
	size_t nsrcs, srccap;
	struct lbtf_builder *b;
	const struct lbtf_dwarf_ext_opts *o;
	bool le; /* the ELF is little-endian */
};

static struct xsec *sec_by_idx(struct xgen *g, size_t idx)
{
	for (size_t i = 0; i < g->nsecs; i++)
		if (g->secs[i].idx == idx)
			return &g->secs[i];
	return NULL;
}

/* Code sections, and which of their 8-byte slots begin an instruction */
static int read_sections(struct xgen *g)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(g->elf, &shstrndx))
		return lbtfi_err(EINVAL, "%s: bad section headers", g->path);
	while ((scn = elf_nextscn(g->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		struct xsec *s;
		const unsigned char *p;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size || sh.sh_size % 8)
			return lbtfi_err(EINVAL, "%s: code section %zu cannot be read or is not whole instructions",
					 g->path, elf_ndxscn(scn));
		if (LBTFI_GROW(g->secs, g->scap, g->nsecs + 1))
			return lbtfi_err(ENOMEM, "out of memory");
		s = &g->secs[g->nsecs++];
		memset(s, 0, sizeof(*s));
		s->idx = elf_ndxscn(scn);
		s->name = elf_strptr(g->elf, shstrndx, sh.sh_name);
		s->size = sh.sh_size;
		if (!s->name)
			return lbtfi_err(EINVAL, "%s: code section %zu has no name", g->path, s->idx);
		s->starts = calloc(sh.sh_size / 8, 1);
		if (!s->starts)
			return lbtfi_err(ENOMEM, "out of memory");
		p = d->d_buf;
		/* BPF_LD | BPF_IMM | BPF_DW (0x18) takes two slots */
		for (uint64_t i = 0; i < sh.sh_size / 8; i++) {
			s->starts[i] = 1;
			if (p[i * 8] == 0x18)
				i++;
		}
	}
	return 0;
}

static int read_funcs(struct xgen *g)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(g->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			struct xsec *s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !(s = sec_by_idx(g, sym.st_shndx)))
				continue;
			name = elf_strptr(g->elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (sym.st_value % 8 || sym.st_value >= s->size || !s->starts[sym.st_value / 8])
				return lbtfi_err(EINVAL, "%s: function %s at offset %llu of section %s is not at an instruction",
						 g->path, name, (unsigned long long)sym.st_value, s->name);
			if (LBTFI_GROW(s->funcs, s->fcap, s->nfuncs + 1))
				return lbtfi_err(ENOMEM, "out of memory");
			s->funcs[s->nfuncs++] = (struct xfunc){ sym.st_value, name };
		}
		break;
	}
	return 0;
}

static int cmp_func(const void *a, const void *b)
{
	const struct xfunc *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_row(const void *a, const void *b)
{
	const struct xrow *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The ELF's byte order for an 8-byte field */
static uint64_t get64(const unsigned char *p, bool le)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[le ? i : 7 - i] << (8 * i);
	return v;
}

static void put64(unsigned char *p, uint64_t v, bool le)
{
	for (int i = 0; i < 8; i++)
		p[le ? i : 7 - i] = (unsigned char)(v >> (8 * i));
}

/*
 * A relocatable object's line table gives every code section's addresses
 * from 0 (the relocations say which section): in a copy of the file, each
 * .debug_line address that a relocation points into a code section becomes
 * (section index << 32 | offset), so a row's address names its section.
 */
static int patch_line_addrs(struct xgen *g, unsigned char *img, size_t size)
{
	size_t shstrndx, line_idx = 0;
	GElf_Shdr line_sh;
	Elf_Scn *scn = NULL;
	bool le = g->le;

	if (elf_getshdrstrndx(g->elf, &shstrndx))
		return lbtfi_err(EINVAL, "%s: bad section headers", g->path);
	while ((scn = elf_nextscn(g->elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, &line_sh) && (n = elf_strptr(g->elf, shstrndx, line_sh.sh_name)) &&
		    !strcmp(n, ".debug_line")) {
			line_idx = elf_ndxscn(scn);
			break;
		}
	}
	if (!line_idx)
		return lbtfi_err(ENODATA, "%s: no line table (.debug_line): compile with -g", g->path);
	if (line_sh.sh_flags & SHF_COMPRESSED)
		return lbtfi_err(ENOTSUP, "%s: compressed .debug_line in a relocatable object is not read",
				 g->path);
	if (line_sh.sh_type == SHT_NOBITS || line_sh.sh_offset > size || line_sh.sh_size > size - line_sh.sh_offset)
		return lbtfi_err(EINVAL, "%s: .debug_line is past the end of the file", g->path);
	scn = NULL;
	while ((scn = elf_nextscn(g->elf, scn))) {
		GElf_Shdr sh, symsh;
		Elf_Data *d, *syms;
		Elf_Scn *symscn;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA) ||
		    sh.sh_info != line_idx || !sh.sh_entsize)
			continue;
		symscn = elf_getscn(g->elf, sh.sh_link);
		if (!symscn || !gelf_getshdr(symscn, &symsh) || !(syms = elf_getdata(symscn, NULL)) ||
		    !(d = elf_getdata(scn, NULL)))
			return lbtfi_err(EINVAL, "%s: the relocations of .debug_line cannot be read", g->path);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Rel rel;
			GElf_Sym sym;
			uint64_t addend;
			unsigned char *at;

			if (sh.sh_type == SHT_RELA) {
				if (!gelf_getrela(d, (int)i, &r))
					continue;
			} else {
				if (!gelf_getrel(d, (int)i, &rel))
					continue;
				r.r_offset = rel.r_offset;
				r.r_info = rel.r_info;
				r.r_addend = 0;
			}
			if (!gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) || !sec_by_idx(g, sym.st_shndx))
				continue; /* not an address in code (e.g. a .debug_line_str offset) */
			if (r.r_offset > line_sh.sh_size - 8 || line_sh.sh_size < 8)
				return lbtfi_err(EINVAL, "%s: a .debug_line relocation is past the section", g->path);
			at = img + line_sh.sh_offset + r.r_offset;
			addend = sh.sh_type == SHT_RELA ? (uint64_t)r.r_addend : get64(at, le);
			addend += sym.st_value;
			if (addend > UINT32_MAX)
				continue;
			put64(at, (uint64_t)sym.st_shndx << 32 | addend, le);
		}
	}
	return 0;
}

/* Every row of every unit's line table, into the section it lies in */
static int read_rows(struct xgen *g, Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint32_t seq = 0;

	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		Dwarf_Attribute attr;
		const char *comp_dir;
		size_t n;

		if (!dwarf_offdie(dw, off + hsize, &cu) || dwarf_getsrclines(&cu, &lines, &n)) {
			off = next;
			continue;
		}
		off = next;
		comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
		for (size_t i = 0; i < n; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr a;
			bool end = false, stmt = false;
			int line = 0, col = 0;
			const char *file;
			struct xsec *s;

			if (!l || dwarf_lineendsequence(l, &end) || end || dwarf_lineaddr(l, &a))
				continue;
			dwarf_lineno(l, &line);
			dwarf_linecol(l, &col);
			dwarf_linebeginstatement(l, &stmt);
			file = dwarf_linesrc(l, NULL, NULL);
			if (!(a >> 32) || !(s = sec_by_idx(g, (size_t)(a >> 32))) || !file)
				continue;
			if (LBTFI_GROW_FROM(s->rows, s->rcap, s->nrows + 1, 256))
				return lbtfi_err(ENOMEM, "out of memory");
			s->rows[s->nrows++] = (struct xrow){ a & UINT32_MAX, seq++, line > 0 ? (uint32_t)line : 0,
							     col > 0 ? (uint32_t)col : 0, stmt, file,
							     file[0] == '/' ? NULL : comp_dir };
		}
	}
	return 0;
}

/* The source file's text, split into lines (cached) */
static struct xsrc *source(struct xgen *g, const char *path)
{
	struct xsrc *s;
	char note[512];

	for (size_t i = 0; i < g->nsrcs; i++)
		if (!strcmp(g->srcs[i].path, path))
			return &g->srcs[i];
	if (LBTFI_GROW(g->srcs, g->srccap, g->nsrcs + 1))
		return NULL;
	s = &g->srcs[g->nsrcs];
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	if (!s->path)
		return NULL;
	g->nsrcs++;
	/* only a regular file, and no larger than a string section can be:
	 * the DWARF may name /dev/zero or a FIFO (#line), which would be read
	 * forever or wait forever */
	if (!lbtfi_regular_file_read(path, LBTF_MAX_FILE_SIZE, &s->text, &s->len)) {
		size_t lcap = 0;

		for (size_t p = 0; p < s->len || !s->nlines;) {
			char *nl;

			if (LBTFI_GROW(s->lines, lcap, s->nlines + 1))
				return NULL;
			s->lines[s->nlines++] = p;
			nl = memchr(s->text + p, '\n', s->len - p);
			if (!nl)
				break;
			*nl = '\0';
			p = (size_t)(nl - s->text) + 1;
		}
	} else if (g->o && g->o->warn) {
		snprintf(note, sizeof(note), "line_info: source file cannot be read (%s): its "
			 "lines have no text", lbtf_errmsg());
		g->o->warn(g->o->ctx, note);
	}
	return s;
}

static int add_line(struct xgen *g, struct lbtf_ext_writer *w, uint32_t sec_off, uint64_t off,
		    const struct xrow *r)
{
	char path[4096];
	struct lbtf_ext_line_info li = { .insn_off = (uint32_t)off, .line = r->line,
					 .col = r->col <= 0x3ff ? r->col : 0 };
	struct xsrc *src;
	const char *text = "";
	int n;

	if (r->line > 0x3fffff)
		return 0; /* cannot be encoded: no record rather than a wrong line */
	/* a name relative to the compilation directory joined to it, as clang
	 * spells it ("dir/name" when the name is relative) */
	if (!r->dir || snprintf(path, sizeof(path), "%s/%s", r->dir, r->file) >= (int)sizeof(path))
		snprintf(path, sizeof(path), "%s", r->file);
	src = source(g, path);
	if (!src)
		return lbtfi_err(ENOMEM, "out of memory");
	if (src->text && r->line && r->line <= src->nlines)
		text = src->text + src->lines[r->line - 1];
	if ((n = lbtf_builder_add_str(g->b, path)) < 0)
		return n;
	li.file_name_off = (uint32_t)n;
	if ((n = lbtf_builder_add_str(g->b, text)) < 0)
		return n;
	li.line_off = (uint32_t)n;
	return lbtf_ext_writer_add_line_info(w, sec_off, &li);
}

static bool same_loc(const struct xrow *a, const struct xrow *b)
{
	return a && b && a->line == b->line && a->col == b->col && !strcmp(a->file, b->file) &&
	       a->dir == b->dir;
}

static bool is_entry(const struct xsec *s, uint64_t off, size_t *fi)
{
	while (*fi < s->nfuncs && s->funcs[*fi].off < off)
		(*fi)++;
	return *fi < s->nfuncs && s->funcs[*fi].off == off;
}

/* The FUNC named name in b, or -ENOENT */
static int find_func(struct lbtf_builder *b, const char *name)
{
	uint32_t n = lbtf_builder_type_cnt(b);

	for (uint32_t id = 1; id < n; id++) {
		const struct lbtf_type *t = lbtf_builder_type_by_id(b, id);
		const char *tn;

		if (t && lbtf_kind(t) == LBTF_KIND_FUNC && (tn = lbtf_builder_str(b, t->name_off)) &&
		    !strcmp(tn, name))
			return (int)id;
	}
	return -ENOENT;
}

/*
 * The FUNC of a function symbol: of its name; for a copy gcc made of a
 * static function (NAME.isra.0, NAME.constprop.0, NAME.part.0: a dot in a
 * symbol name, never in a C name), NAME's FUNC, as the source has it: the
 * copy may take fewer or other parameters (the kernel then treats the
 * static function's BTF as unreliable, which it allows), noted once.
 */
static int func_id(struct xgen *g, const char *name)
{
	const char *dot = strchr(name, '.');
	char base[256], note[1024];
	int id = find_func(g->b, name);

	if (id > 0 || !dot || dot == name || (size_t)(dot - name) >= sizeof(base))
		return id;
	memcpy(base, name, (size_t)(dot - name));
	base[dot - name] = '\0';
	id = find_func(g->b, base);
	if (id > 0 && g->o && g->o->warn) {
		snprintf(note, sizeof(note), "func_info: %.300s, a copy the compiler made of %s, is described by FUNC %s (its parameters may differ)",
			 name, base, base);
		g->o->warn(g->o->ctx, note);
	}
	return id;
}

static int gen_funcs(struct xgen *g, struct xsec *s, struct lbtf_ext_writer *w)
{
	int sec_off, err;

	if (!s->nfuncs)
		return 0;
	if ((sec_off = lbtf_builder_add_str(g->b, s->name)) < 0)
		return sec_off;
	qsort(s->funcs, s->nfuncs, sizeof(*s->funcs), cmp_func);
	for (size_t k = 0; k < s->nfuncs; k++) {
		struct lbtf_ext_func_info fi_rec = { .insn_off = (uint32_t)s->funcs[k].off };
		int id = func_id(g, s->funcs[k].name);

		if (k && s->funcs[k].off == s->funcs[k - 1].off)
			return lbtfi_err(EINVAL, "%s: functions %s and %s share offset %llu of section %s",
					 g->path, s->funcs[k - 1].name, s->funcs[k].name,
					 (unsigned long long)s->funcs[k].off, s->name);
		if (id <= 0)
			return lbtfi_err(ENOENT, "%s: function %s (section %s) has no FUNC in the BTF (its DWARF does not describe it)",
					 g->path, s->funcs[k].name, s->name);
		fi_rec.type_id = (uint32_t)id;
		if ((err = lbtf_ext_writer_add_func_info(w, (uint32_t)sec_off, &fi_rec)))
			return err;
	}
	return 0;
}

static int gen_lines(struct xgen *g, struct xsec *s, struct lbtf_ext_writer *w)
{
	const struct xrow *prev = NULL;
	size_t fi = 0, i = 0;
	int sec_off, err;

	if (!s->nfuncs || !s->nrows)
		return 0;
	if ((sec_off = lbtf_builder_add_str(g->b, s->name)) < 0)
		return sec_off;
	qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_row);
	/* walk the instructions that have rows, and every function entry */
	while (i < s->nrows || fi < s->nfuncs) {
		uint64_t off = i < s->nrows ? s->rows[i].off : UINT64_MAX;
		const struct xrow *r;
		size_t first = i, last;
		bool entry;

		if (fi < s->nfuncs && s->funcs[fi].off < off)
			off = s->funcs[fi].off; /* an entry without its own row */
		entry = is_entry(s, off, &fi);
		while (i < s->nrows && s->rows[i].off == off)
			i++;
		last = i; /* rows [first, last) are at off */
		if (off >= s->size || off % 8 || !s->starts[off / 8])
			continue;
		if (last > first) {
			/* the last statement row there, else the last row */
			r = &s->rows[last - 1];
			for (size_t k = last; k > first; k--)
				if (s->rows[k - 1].stmt) {
					r = &s->rows[k - 1];
					break;
				}
		}
		else if (first > 0)
			r = &s->rows[first - 1]; /* in effect at this entry */
		else if (first < s->nrows)
			r = &s->rows[first];     /* the function's first row */
		else
			continue;
		if (!entry && same_loc(prev, r))
			continue;
		if ((err = add_line(g, w, (uint32_t)sec_off, off, r)))
			return err;
		prev = r;
		if (entry)
			fi++;
	}
	return 0;
}

int lbtf_dwarf_ext_lines(const char *path, struct lbtf_builder *b, struct lbtf_ext_writer *w,
			 const struct lbtf_dwarf_ext_opts *opts)
{
	struct lbtf_dwarf_ext_opts o;
	struct xgen g = { .path = path, .b = b };
	void *img = NULL;
	size_t img_size = 0;
	bool mapped = false;
	Dwarf *dw = NULL;
	GElf_Ehdr eh;
	int fd = -1, err;

	if (!path || !b || !w)
		return lbtfi_err(EINVAL, "lbtf_dwarf_ext_lines: bad arguments");
	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_dwarf_ext_opts)))
		return err;
	g.o = &o;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lbtfi_err(errno, "%s: %s", path, strerror(errno));
	/*
	 * a private copy: its line-table addresses are patched below, then
	 * libdw reads it through the same Elf (no section data of .debug_line
	 * is taken from libelf before the patch)
	 */
	err = lbtfi_fd_read_private(fd, path, &img, &img_size, &mapped);
	close(fd);
	if (err)
		goto out;
	g.elf = elf_memory((char *)img, img_size);
	if (!g.elf || !gelf_getehdr(g.elf, &eh)) {
		err = lbtfi_err(ENOEXEC, "%s: not an ELF file", path);
		goto out;
	}
	if (!lbtf_is_bpf_object(img, img_size)) {
		err = lbtfi_err(EINVAL, "%s: not a BPF object (ELF64 ET_REL EM_BPF): no func_info/line_info to make",
				path);
		goto out;
	}
	g.le = eh.e_ident[EI_DATA] == ELFDATA2LSB;
	if ((err = read_sections(&g)) || (err = read_funcs(&g)) ||
	    (err = patch_line_addrs(&g, img, img_size)))
		goto out;
	dw = dwarf_begin_elf(g.elf, DWARF_C_READ, NULL);
	if (!dw) {
		err = lbtfi_dw_err_no_dwarf(path);
		goto out;
	}
	if ((err = read_rows(&g, dw)))
		goto out;
	/* all func_info first: the strings join b in the order lbtf_ext_remap
	 * interns them, so btfgen on its own output gives the same bytes */
	for (size_t i = 0; !err && i < g.nsecs; i++)
		err = gen_funcs(&g, &g.secs[i], w);
	for (size_t i = 0; !err && i < g.nsecs; i++)
		err = gen_lines(&g, &g.secs[i], w);
out:
	if (dw)
		dwarf_end(dw);
	if (g.elf)
		elf_end(g.elf);
	lbtfi_file_unload(img, img_size, mapped);
	for (size_t i = 0; i < g.nsecs; i++) {
		free(g.secs[i].starts);
		free(g.secs[i].rows);
		free(g.secs[i].funcs);
	}
	free(g.secs);
	for (size_t i = 0; i < g.nsrcs; i++) {
		free(g.srcs[i].path);
		free(g.srcs[i].text);
		free(g.srcs[i].lines);
	}
	free(g.srcs);
	return err;
}
