// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ELF side of DWARF -> BTF: section table (names, sizes, addresses) and
 * the defined function/object symbols, hashed by name. Functions take their
 * BTF linkage from here and variables their section, offset and size.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

static uint32_t name_hash(const char *s)
{
	size_t len;

	return lbtfi_str_hash(s, &len);
}

static int load_sections(struct lbtfi_dw_elf_info *ei, size_t shstrndx)
{
	Elf_Scn *scn = NULL;

	if (elf_getshdrnum(ei->elf, &ei->nsecs))
		return lbtfi_err(EINVAL, "cannot read the section table: %s", elf_errmsg(-1));
	ei->secs = calloc(ei->nsecs ? ei->nsecs : 1, sizeof(*ei->secs));
	if (!ei->secs)
		return lbtfi_err(ENOMEM, "out of memory");
	while ((scn = elf_nextscn(ei->elf, scn))) {
		size_t idx = elf_ndxscn(scn);
		GElf_Shdr sh;

		if (idx >= ei->nsecs || !gelf_getshdr(scn, &sh))
			continue;
		ei->secs[idx].name = elf_strptr(ei->elf, shstrndx, sh.sh_name);
		ei->secs[idx].addr = sh.sh_addr;
		ei->secs[idx].size = sh.sh_size;
		ei->secs[idx].alloc = sh.sh_flags & SHF_ALLOC;
		/* a kernel image has per-CPU data; a module (even one without
		 * per-CPU data) has its struct module in this section */
		if (ei->secs[idx].name && (!strcmp(ei->secs[idx].name, ".data..percpu") ||
					   !strcmp(ei->secs[idx].name, ".gnu.linkonce.this_module")))
			ei->is_kernel = true;
	}
	return 0;
}

/* Keep defined functions and data objects (and untyped symbols in data
 * sections: hand-written assembly and some linker scripts leave them). */
static bool useful_symbol(const struct lbtfi_dw_elf_info *ei, const GElf_Sym *s, const char *name)
{
	unsigned int type = GELF_ST_TYPE(s->st_info);

	if (!name || !*name || s->st_shndx >= SHN_LORESERVE)
		return false;
	/* externs of a BPF object (kfuncs, __ksym, __kconfig) */
	if (s->st_shndx == SHN_UNDEF)
		return ei->is_rel && ei->is_bpf && GELF_ST_BIND(s->st_info) != STB_LOCAL;
	if (s->st_shndx >= ei->nsecs)
		return false;
	return type == STT_FUNC || type == STT_OBJECT || type == STT_NOTYPE;
}

static int load_symbols(struct lbtfi_dw_elf_info *ei)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh, symsh = { 0 };
	Elf_Data *data, *xdata = NULL;
	const Elf64_Sym *sym64 = NULL;
	size_t n, i;

	while ((scn = elf_nextscn(ei->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) {
			symscn = scn;
			symsh = sh;
		}
		if (sh.sh_type == SHT_SYMTAB_SHNDX)
			xdata = elf_getdata(scn, NULL);
	}
	if (!symscn)
		return 0; /* no symbols: no FUNC linkage or VARs, types only */
	data = elf_getdata(symscn, NULL);
	if (!data)
		return lbtfi_err(EINVAL, "cannot read the symbol table: %s", elf_errmsg(-1));
	if (symsh.sh_entsize != gelf_fsize(ei->elf, ELF_T_SYM, 1, EV_CURRENT))
		return lbtfi_err(EINVAL, "cannot read the symbol table: entry size %llu",
				 (unsigned long long)symsh.sh_entsize);
	n = symsh.sh_size / symsh.sh_entsize;
	/* (a vmlinux's symbols take megabytes: a big block, on huge pages
	 * where they pay (util/grow.c); entries are
	 * read below nsyms only, each written whole) */
	ei->syms = lbtfi_malloc_big((n ? n : 1) * sizeof(*ei->syms));
	if (!ei->syms)
		return lbtfi_err(ENOMEM, "out of memory");
	/* 64-bit symbols read in place (libelf has them in the host's
	 * order), not converted one by one through gelf */
	if (gelf_getclass(ei->elf) == ELFCLASS64 && data->d_type == ELF_T_SYM &&
	    data->d_size >= n * sizeof(Elf64_Sym) && !((uintptr_t)data->d_buf & 7))
		sym64 = data->d_buf;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		Elf32_Word xndx = 0;
		const char *name;
		struct lbtfi_dw_symbol *d;

		if (sym64) {
			s = sym64[i];
			if (s.st_shndx == SHN_XINDEX && !gelf_getsymshndx(data, xdata, i, &s, &xndx))
				continue;
		} else if (!gelf_getsymshndx(data, xdata, i, &s, &xndx)) {
			continue;
		}
		if (s.st_shndx == SHN_XINDEX)
			s.st_shndx = xndx;
		name = elf_strptr(ei->elf, symsh.sh_link, s.st_name);
		if (!useful_symbol(ei, &s, name))
			continue;
		d = &ei->syms[ei->nsyms++];
		d->name = name;
		d->value = s.st_value;
		d->size = s.st_size;
		d->shndx = s.st_shndx;
		d->type = GELF_ST_TYPE(s.st_info);
		d->bind = GELF_ST_BIND(s.st_info);
	}
	if (lbtfi_htab_init(&ei->by_name, ei->nsyms, 2))
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < ei->nsyms; i++)
		lbtfi_htab_put(&ei->by_name, name_hash(ei->syms[i].name), i);
	return 0;
}

int lbtfi_dw_elf_info_load(struct lbtfi_dw_elf_info *ei, const char *path)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	int err;

	memset(ei, 0, sizeof(*ei));
	ei->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ei->fd < 0)
		return lbtfi_err(errno, "%s: %s", path, strerror(errno));
	ei->elf = elf_begin(ei->fd, ELF_C_READ_MMAP, NULL);
	if (!ei->elf || elf_kind(ei->elf) != ELF_K_ELF || !gelf_getehdr(ei->elf, &eh)) {
		err = lbtfi_err(ENOEXEC, "%s: not an ELF file", path);
		goto fail;
	}
	ei->is_rel = eh.e_type == ET_REL;
	ei->is_bpf = eh.e_machine == EM_BPF;
	if (elf_getshdrstrndx(ei->elf, &shstrndx)) {
		err = lbtfi_err(ENOEXEC, "%s: no section name table", path);
		goto fail;
	}
	err = load_sections(ei, shstrndx);
	if (!err)
		err = load_symbols(ei);
	/* clang's own .BTF says where each extern goes (lbtfi_dw_extern_place);
	 * an object without one (or with one unreadable) has the naming rule */
	if (!err && ei->is_bpf && ei->is_rel)
		ei->btf = lbtf_open_elf(path, NULL);
	if (!err)
		return 0;
fail:
	lbtfi_dw_elf_info_free(ei);
	return err;
}

void lbtfi_dw_elf_info_free(struct lbtfi_dw_elf_info *ei)
{
	lbtf_free(ei->btf);
	lbtfi_htab_free(&ei->by_name);
	free(ei->syms);
	free(ei->secs);
	if (ei->elf)
		elf_end(ei->elf);
	if (ei->fd >= 0)
		close(ei->fd);
	memset(ei, 0, sizeof(*ei));
	ei->fd = -1;
}

int64_t lbtfi_dw_sym_find(const struct lbtfi_dw_elf_info *ei, const char *name, uint8_t stt,
		    uint64_t addr, bool want_global)
{
	int64_t first = -1, global = -1;
	uint32_t h;

	if (!ei->by_name.slots || !name)
		return -1;
	h = name_hash(name);
	LBTFI_HTAB_FOR_EACH(&ei->by_name, h, slot, i) {
		const struct lbtfi_dw_symbol *s = &ei->syms[i];

		if (s->shndx == SHN_UNDEF || strcmp(s->name, name))
			continue;
		if (s->type != stt && !(s->type == STT_NOTYPE && stt == STT_OBJECT))
			continue;
		if (addr != UINT64_MAX && s->value == addr)
			return i;
		if (first < 0 || i < first)
			first = i;
		if (s->bind != STB_LOCAL && (global < 0 || i < global))
			global = i;
	}
	if (addr != UINT64_MAX && !ei->is_rel)
		return -1; /* known address but no symbol there: not this one */
	if (want_global && global >= 0)
		return global;
	return first;
}

int64_t lbtfi_dw_sym_unique(const struct lbtfi_dw_elf_info *ei, const char *name, uint8_t stt)
{
	int64_t found = -1;
	uint32_t h;

	if (!ei->by_name.slots || !name)
		return -1;
	h = name_hash(name);
	LBTFI_HTAB_FOR_EACH(&ei->by_name, h, slot, i) {
		if (ei->syms[i].type != stt || ei->syms[i].shndx == SHN_UNDEF ||
		    strcmp(ei->syms[i].name, name))
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

int64_t lbtfi_dw_sym_copy(const struct lbtfi_dw_elf_info *ei, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	for (uint32_t i = 0; n && i < ei->nsyms; i++) {
		const struct lbtfi_dw_symbol *s = &ei->syms[i];

		if (s->type == STT_FUNC && s->bind == STB_LOCAL && s->shndx != SHN_UNDEF &&
		    !strncmp(s->name, name, n) && s->name[n] == '.' && s->name[n + 1])
			return i;
	}
	return -1;
}

/* "FUNC.NAME" or "FUNC.NAME.<digits>" */
static bool is_local_static_name(const char *sym, const char *func, size_t nf, const char *name,
				 size_t nn)
{
	if (strncmp(sym, func, nf) || sym[nf] != '.' || strncmp(sym + nf + 1, name, nn))
		return false;
	sym += nf + 1 + nn;
	if (!*sym)
		return true;
	if (*sym++ != '.' || !*sym)
		return false;
	return strspn(sym, "0123456789") == strlen(sym);
}

int64_t lbtfi_dw_sym_local_static(const struct lbtfi_dw_elf_info *ei, const char *func, const char *name,
			    uint64_t off)
{
	size_t nf = func ? strlen(func) : 0, nn = name ? strlen(name) : 0;
	int64_t found = -1, at = -1;
	int nfound = 0, nat = 0;

	for (uint32_t i = 0; nf && nn && i < ei->nsyms; i++) {
		const struct lbtfi_dw_symbol *s = &ei->syms[i];

		if (s->type != STT_OBJECT || s->bind != STB_LOCAL || s->shndx == SHN_UNDEF ||
		    !is_local_static_name(s->name, func, nf, name, nn))
			continue;
		found = i;
		nfound++;
		if (s->value == off) {
			at = i;
			nat++;
		}
	}
	if (nfound == 1)
		return found;
	return nat == 1 ? at : -1;
}

int64_t lbtfi_dw_sym_undef(const struct lbtfi_dw_elf_info *ei, const char *name)
{
	uint32_t h;

	if (!ei->by_name.slots || !name)
		return -1;
	h = name_hash(name);
	LBTFI_HTAB_FOR_EACH(&ei->by_name, h, slot, i) {
		if (ei->syms[i].shndx == SHN_UNDEF && !strcmp(ei->syms[i].name, name))
			return i;
	}
	return -1;
}

/* The DATASEC of the object's .BTF listing type id, or NULL */
static const char *datasec_of(const struct lbtf *btf, uint32_t id)
{
	for (uint32_t i = 1; i < lbtf_type_cnt(btf); i++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, i);

		if (lbtf_kind(t) != LBTF_KIND_DATASEC)
			continue;
		for (unsigned int j = 0; j < lbtf_vlen(t); j++)
			if (lbtf_secinfos(t)[j].type == id)
				return lbtf_type_name(btf, t);
	}
	return NULL;
}

enum lbtfi_dw_extern lbtfi_dw_extern_place(const struct lbtfi_dw_elf_info *ei, const char *name, bool is_func,
			       bool map_def, const char **sec)
{
	*sec = NULL;
	if (ei->btf) {
		int kind = is_func ? LBTF_KIND_FUNC : LBTF_KIND_VAR;

		for (uint32_t i = 1; i < lbtf_type_cnt(ei->btf); i++) {
			const struct lbtf_type *t = lbtf_type_by_id(ei->btf, i);
			const char *n;

			if (lbtf_kind(t) != (unsigned int)kind ||
			    !(n = lbtf_type_name(ei->btf, t)) || strcmp(n, name))
				continue;
			if ((is_func ? lbtf_vlen(t) : lbtf_var(t)->linkage) != LBTF_LINKAGE_EXTERN)
				continue;
			*sec = datasec_of(ei->btf, i);
			return *sec ? LBTFI_DW_EXT_SEC : LBTFI_DW_EXT_PLAIN;
		}
	}
	if (map_def)
		*sec = ".maps";
	else if (!is_func && (!strncmp(name, "CONFIG_", 7) || !strncmp(name, "LINUX_", 6)))
		*sec = ".kconfig";
	else
		*sec = ".ksyms";
	return LBTFI_DW_EXT_SEC;
}
