// SPDX-License-Identifier: BSD-2-Clause
/*
 * What libbpf 1.1's bpf_object__open() checks of an object's programs and
 * their relocations, as far as the symbols and section headers decide it
 * (a rewrite of .BTF can break the map references; a mutated symbol table
 * can break the rest): bpf_object__add_programs() and
 * bpf_object__init_prog() (each STT_FUNC symbol of an executable section
 * is a program inside its section, 8-byte aligned, not static outside
 * .text), then bpf_object__collect_prog_relos() and
 * bpf_program__record_reloc() (each relocation of a program names a valid
 * symbol, an instruction inside the section that is a call or a 64-bit
 * load, and something libbpf can point it at: an extern, a subprogram in
 * .text, a map in .maps at the symbol's offset, a global data section).
 * Messages and errnos are libbpf's (LIBBPF_ERRNO__FORMAT 4001,
 * LIBBPF_ERRNO__RELOC 4005).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define ERRNO_FORMAT 4001
#define ERRNO_RELOC 4005
#define INSN_SZ 8

/* A section libbpf collects programs from: executable PROGBITS with data */
static bool prog_section(const struct octx *c, size_t idx, struct lbtfi_shdr *sh)
{
	return idx && lbtfi_obj_elf_sec(&c->e, idx, sh) &&
	       sh->type == SHT_PROGBITS && (sh->flags & SHF_EXECINSTR) && sh->size &&
	       !lbtfi_obj_ignored_section(sh);
}

static const char *sec_name(const struct octx *c, size_t idx)
{
	return lbtfi_obj_elf_sec_name(&c->e, idx);
}

int lbtfi_obj_collect_progs(struct octx *c)
{
	for (size_t idx = 1; idx < c->e.elf.shnum; idx++) {
		struct lbtfi_shdr sh;
		const char *sname;

		if (!prog_section(c, idx, &sh) || !(sname = lbtfi_obj_elf_sec_name(&c->e, idx)))
			continue;
		for (size_t k = 0; k < c->e.nr_funcs; k++) {
			const char *name;
			Elf64_Sym s;

			if (!lbtfi_obj_elf_sym(&c->e, c->e.funcs[k], &s) || s.st_shndx != idx ||
			    ELF64_ST_TYPE(s.st_info) != STT_FUNC)
				continue;
			if (!(name = lbtfi_obj_elf_sym_name(&c->e, &s)))
				return lbtfi_err(ERRNO_FORMAT, "%s: sec '%s': failed to get symbol name for offset %llu",
						 c->path, sname, (unsigned long long)s.st_value);
			if (s.st_value + s.st_size > sh.size || s.st_value + s.st_size < s.st_value)
				return lbtfi_err(ERRNO_FORMAT, "%s: sec '%s': program at offset %llu crosses section boundary",
						 c->path, sname, (unsigned long long)s.st_value);
			if (idx != c->e.text_shndx && ELF64_ST_BIND(s.st_info) == STB_LOCAL)
				return lbtfi_err(ENOTSUP, "%s: sec '%s': program '%s' is static and not supported",
						 c->path, sname, name);
			if (!s.st_size || s.st_size % INSN_SZ || s.st_value % INSN_SZ)
				return lbtfi_err(EINVAL, "%s: sec '%s': corrupted program '%s', offset %llu, size %llu",
						 c->path, sname, name, (unsigned long long)s.st_value,
						 (unsigned long long)s.st_size);
		}
	}
	return 0;
}

/* find_prog_by_sec_insn(): the program of section idx holding byte off
 * (*start: where it starts) */
static const char *prog_at(const struct octx *c, size_t idx, uint64_t off, uint64_t *pstart)
{
	const char *found = NULL;
	uint64_t start = 0;

	for (size_t k = 0; k < c->e.nr_funcs; k++) {
		Elf64_Sym s;

		if (!lbtfi_obj_elf_sym(&c->e, c->e.funcs[k], &s) || s.st_shndx != idx ||
		    ELF64_ST_TYPE(s.st_info) != STT_FUNC)
			continue;
		if (s.st_value <= off && (!found || s.st_value >= start)) {
			found = off - s.st_value < s.st_size ? lbtfi_obj_elf_sym_name(&c->e, &s) : NULL;
			start = s.st_value;
		}
	}
	*pstart = start;
	return found;
}

/* The section's kind as bpf_object__elf_collect() sorts data sections */
static bool data_section(const struct octx *c, size_t idx)
{
	const char *n = sec_name(c, idx);
	struct lbtfi_shdr sh;

	if (!n || !lbtfi_obj_elf_sec(&c->e, idx, &sh))
		return false;
	if (sh.type == SHT_PROGBITS && sh.size && !(sh.flags & SHF_EXECINSTR))
		return !strcmp(n, ".data") || !strncmp(n, ".data.", 6) || !strcmp(n, ".rodata") ||
		       !strncmp(n, ".rodata.", 8);
	return sh.type == SHT_NOBITS && (!strcmp(n, ".bss") || !strncmp(n, ".bss.", 5));
}

struct relo {
	const char *rsec, *prog, *sym_name;
	uint64_t insn_idx;       /* in the program */
	Elf64_Sym sym;
	const unsigned char *insn;
};

/* bpf_program__record_reloc() */
static int record_reloc(const struct octx *c, const struct relo *r)
{
	unsigned int code = r->insn[0], src_reg = r->insn[1] >> 4, bind = ELF64_ST_BIND(r->sym.st_info);
	unsigned int type = ELF64_ST_TYPE(r->sym.st_info);
	size_t shndx = r->sym.st_shndx;
	bool call = code == 0x85, ldimm64 = code == 0x18;
	int32_t imm;

	memcpy(&imm, r->insn + 4, 4);
	if (!call && !ldimm64)
		return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': invalid relo against '%s' for insns[%u].code 0x%x",
				 c->path, r->prog, r->sym_name, (unsigned int)r->insn_idx, code);
	if (!shndx && (bind == STB_GLOBAL || bind == STB_WEAK) && type == STT_NOTYPE)
		return 0; /* an extern (lbtfi_obj_collect_externs has each) */
	if (call) {
		if (src_reg != 1) /* BPF_PSEUDO_CALL */
			return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': incorrect bpf_call opcode", c->path, r->prog);
		if (!shndx || shndx != c->e.text_shndx)
			return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': bad call relo against '%s' in section '%s'",
					 c->path, r->prog, r->sym_name, sec_name(c, shndx) ?: "(null)");
		if (r->sym.st_value % INSN_SZ)
			return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': bad call relo against '%s' at offset %llu",
					 c->path, r->prog, r->sym_name, (unsigned long long)r->sym.st_value);
		return 0;
	}
	if (!shndx || shndx >= SHN_LORESERVE)
		return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': invalid relo against '%s' in special section 0x%zx; forgot to initialize global var?..",
				 c->path, r->prog, r->sym_name, shndx);
	if (shndx == c->e.text_shndx && ((bind == STB_LOCAL && type == STT_SECTION) ||
					  (bind == STB_GLOBAL && type == STT_FUNC))) {
		if (r->sym.st_value % INSN_SZ || imm % INSN_SZ)
			return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': bad subprog addr relo against '%s' at offset %llu+%d",
					 c->path, r->prog, r->sym_name, (unsigned long long)r->sym.st_value, imm);
		return 0;
	}
	if (data_section(c, shndx))
		return 0; /* its global data map (bpf_object__init_global_data_maps) */
	if (shndx == c->e.symtab_shndx) /* libbpf takes it for .kconfig's, not data */
		return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': bad data relo against section '%s'",
				 c->path, r->prog, sec_name(c, shndx) ?: "(null)");
	if (shndx != c->maps_shndx)
		return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': bad map relo against '%s' in section '%s'",
				 c->path, r->prog, r->sym_name, sec_name(c, shndx) ?: "(null)");
	for (size_t m = 0; m < c->nr_maps; m++)
		if (c->map_offs[m] == r->sym.st_value)
			return 0;
	return lbtfi_err(ERRNO_RELOC, "%s: prog '%s': map relo failed to find map for section '%s', off %llu",
			 c->path, r->prog, sec_name(c, shndx) ?: "(null)",
			 (unsigned long long)r->sym.st_value);
}

/* bpf_object__collect_prog_relos() for one relocation section */
static int collect_relos(const struct octx *c, size_t idx, const struct lbtfi_shdr *rs)
{
	const unsigned char *rel = lbtfi_elf_sec_data(&c->e.elf, rs), *text;
	struct lbtfi_shdr ts;
	struct relo r;

	if (!prog_section(c, rs->info, &ts) || !(text = lbtfi_elf_sec_data(&c->e.elf, &ts)))
		return 0;
	r.rsec = lbtfi_obj_elf_sec_name(&c->e, idx);
	if (!r.rsec || !sec_name(c, rs->info))
		return lbtfi_err(EINVAL, "%s: relocation section %u: no name", c->path, rs->name);
	if (!rel || rs->entsize != sizeof(Elf64_Rel))
		return lbtfi_err(ERRNO_FORMAT, "%s: sec '%s': failed to get relo #0", c->path, r.rsec);
	for (size_t i = 0; i < rs->size / sizeof(Elf64_Rel); i++) {
		Elf64_Rel one;
		uint64_t start;
		size_t sym_idx;
		int err;

		memcpy(&one, rel + i * sizeof(one), sizeof(one));
		sym_idx = ELF64_R_SYM(one.r_info);
		if (!lbtfi_obj_elf_sym(&c->e, sym_idx, &r.sym))
			return lbtfi_err(ERRNO_FORMAT, "%s: sec '%s': symbol #%zu not found for relo #%zu",
					 c->path, r.rsec, sym_idx, i);
		if (r.sym.st_shndx >= c->e.elf.shnum)
			return lbtfi_err(ERRNO_FORMAT, "%s: sec '%s': corrupted symbol #%zu pointing to invalid section #%zu for relo #%zu",
					 c->path, r.rsec, sym_idx, (size_t)r.sym.st_shndx, i);
		if (one.r_offset % INSN_SZ || one.r_offset >= ts.size)
			return lbtfi_err(ERRNO_FORMAT, "%s: sec '%s': invalid offset 0x%llx for relo #%zu",
					 c->path, r.rsec, (unsigned long long)one.r_offset, i);
		r.prog = prog_at(c, rs->info, one.r_offset, &start);
		if (!r.prog)
			continue; /* libbpf: "probably overridden weak function, skipping" */
		if (ELF64_ST_TYPE(r.sym.st_info) == STT_SECTION && !r.sym.st_name)
			r.sym_name = sec_name(c, r.sym.st_shndx);
		else
			r.sym_name = lbtfi_obj_elf_sym_name(&c->e, &r.sym);
		r.sym_name = r.sym_name ?: "<?";
		r.insn = text + one.r_offset;
		r.insn_idx = (one.r_offset - start) / INSN_SZ;
		if ((err = record_reloc(c, &r)))
			return err;
	}
	return 0;
}

int lbtfi_obj_collect_prog_relos(struct octx *c)
{
	for (size_t i = 1; i < c->e.elf.shnum; i++) {
		struct lbtfi_shdr rs;
		int err;

		if (lbtfi_obj_elf_sec(&c->e, i, &rs) && rs.type == SHT_REL && !lbtfi_obj_ignored_section(&rs) &&
		    (err = collect_relos(c, i, &rs)))
			return err;
	}
	return 0;
}
