// SPDX-License-Identifier: BSD-2-Clause
/*
 * A BPF object for CO-RE: its .BTF (the local types), .BTF.ext (the
 * relocation records) and its programs as libbpf (1.1 to 1.8) cuts them: every
 * STT_FUNC symbol of an executable section, SEC("?...") ones not loaded by
 * default; with 1.8's rules, a struct_ops program that struct_ops maps use
 * is loaded when one of those maps is created by default (not in
 * SEC("?.struct_ops")). A record outside any program (an eliminated __weak
 * subprogram) is skipped by libbpf, as is one in a program it does not load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "io/io.h"
#include "libbtf_object.h"

static int cmp_prog(const void *a, const void *b)
{
	const struct relo_prog *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int read_progs(struct lbtf_core_object *o)
{
	struct lbtfi_shdr symtab = { 0 }, sh;
	size_t nsyms, cap = 0;
	bool found = false;

	for (size_t i = 1; i < o->elf.shnum && !found; i++)
		if (lbtfi_elf_shdr(&o->elf, i, &sh) && sh.type == SHT_SYMTAB) {
			symtab = sh;
			found = true;
		}
	if (!found)
		return lbtfi_err(EINVAL, "%s: no symbol table (libbpf needs one)", o->path);
	o->symtab = symtab;
	nsyms = lbtfi_elf_nr_syms(&o->elf, &symtab);
	for (size_t i = 0; i < nsyms; i++) {
		Elf64_Sym sym;
		const char *sec;

		if (!lbtfi_elf_sym(&o->elf, &symtab, i, &sym) || ELF64_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		if (!sym.st_shndx || !lbtfi_elf_shdr(&o->elf, sym.st_shndx, &sh) ||
		    sh.type != SHT_PROGBITS || !(sh.flags & SHF_EXECINSTR) || !sh.size)
			continue;
		if (sym.st_value % 8 || sym.st_size % 8 || sym.st_value + sym.st_size > sh.size)
			return lbtfi_err(EINVAL, "%s: function symbol %zu lies badly in its section",
					 o->path, i);
		if (o->nprogs == cap) {
			struct relo_prog *n = realloc(o->progs, (cap = cap ? cap * 2 : 8) * sizeof(*n));

			if (!n)
				return lbtfi_err(ENOMEM, "out of memory");
			o->progs = n;
		}
		sec = lbtfi_elf_sec_name(&o->elf, &sh);
		o->progs[o->nprogs] = (struct relo_prog){
			.shndx = sym.st_shndx, .first = (uint32_t)(sym.st_value / 8),
			.cnt = (uint32_t)(sym.st_size / 8), .autoload = !(sec && sec[0] == '?'),
			.struct_ops = sec && !strncmp(sec + (sec[0] == '?'), "struct_ops", 10),
		};
		o->progs[o->nprogs].autoload_18 = o->progs[o->nprogs].autoload;
		o->nprogs++;
	}
	if (o->nprogs)
		qsort(o->progs, o->nprogs, sizeof(*o->progs), cmp_prog);
	return 0;
}

/* ".struct_ops", ".struct_ops.link" and their "?" forms (maps not created
 * by default): 1 plain, 2 "?", 0 other */
static int struct_ops_sec(const char *name)
{
	bool lazy = name && name[0] == '?';

	if (!name)
		return 0;
	name += lazy;
	if (strcmp(name, ".struct_ops") && strcmp(name, ".struct_ops.link"))
		return 0;
	return lazy ? 2 : 1;
}

/* libbpf 1.8's bpf_object_adjust_struct_ops_autoload: a struct_ops program
 * that struct_ops maps use (their sections' relocations name it) is loaded
 * iff one of them is created by default. (The running kernel's struct may
 * also drop a member, and its program with it: not modelled.) */
static void struct_ops_autoload(struct lbtf_core_object *o)
{
	struct lbtfi_shdr rel, target;

	for (size_t i = 1; i < o->elf.shnum; i++) {
		const unsigned char *data;
		int kind;

		if (!lbtfi_elf_shdr(&o->elf, i, &rel) || rel.type != SHT_REL ||
		    !lbtfi_elf_shdr(&o->elf, rel.info, &target) ||
		    !(kind = struct_ops_sec(lbtfi_elf_sec_name(&o->elf, &target))) ||
		    !(data = lbtfi_elf_sec_data(&o->elf, &rel)))
			continue;
		for (uint64_t off = 0; off + sizeof(Elf64_Rel) <= rel.size; off += sizeof(Elf64_Rel)) {
			const struct relo_prog *found;
			struct relo_prog *p;
			Elf64_Rel r;
			Elf64_Sym sym;

			memcpy(&r, data + off, sizeof(r));
			if (!lbtfi_elf_sym(&o->elf, &o->symtab, ELF64_R_SYM(r.r_info), &sym) ||
			    !(found = relo_find_prog(o, sym.st_shndx, (uint32_t)(sym.st_value / 8))))
				continue;
			p = &o->progs[found - o->progs];
			if (!p->struct_ops)
				continue;
			if (!p->st_used)
				p->autoload_18 = false;
			p->st_used = true;
			p->autoload_18 |= kind == 1;
		}
	}
}

const struct relo_prog *relo_find_prog(const struct lbtf_core_object *o, size_t shndx,
				       uint32_t insn)
{
	size_t l = 0, r = o->nprogs;

	while (l < r) { /* the last program starting at or before insn */
		size_t m = l + (r - l) / 2;
		const struct relo_prog *p = &o->progs[m];

		if (p->shndx < shndx || (p->shndx == shndx && p->first <= insn))
			l = m + 1;
		else
			r = m;
	}
	if (!l)
		return NULL;
	if (o->progs[l - 1].shndx != shndx || insn - o->progs[l - 1].first >= o->progs[l - 1].cnt)
		return NULL;
	return &o->progs[l - 1];
}

/* o->file holds the image: the rest of the object from it */
static struct lbtf_core_object *setup(struct lbtf_core_object *o)
{
	const char *path = o->path;
	const void *sec;
	size_t len;
	int err, ptr_size;

	if (!lbtf_is_bpf_object(o->file, o->file_len)) {
		err = lbtfi_err(EINVAL, "%s: not a BPF object (ELF64 ET_REL EM_BPF)", path);
		goto fail;
	}
	if ((err = lbtfi_elf_open(&o->elf, path, o->file, o->file_len)))
		goto fail;
	if (o->elf.swap) {
		err = lbtfi_err(EINVAL, "%s: not in the host's byte order (libbpf opens only its own)",
				path);
		goto fail;
	}
	if ((err = lbtfi_elf_btf_section(path, o->file, o->file_len, &sec, &len, &ptr_size)))
		goto fail;
	if (!(o->btf = lbtf_new(sec, len, NULL))) {
		err = lbtfi_err(errno ? errno : EINVAL, "%s: .BTF: %s", path, lbtf_errmsg());
		goto fail;
	}
	o->btf->ptr_size = ptr_size;
	if ((err = lbtfi_elf_section_data(&o->elf, path, ".BTF.ext", &sec, &len)))
		goto fail;
	if (!(o->ext = lbtf_ext_new(sec, len))) {
		err = lbtfi_err(errno ? errno : EINVAL, "%s: .BTF.ext: %s", path, lbtf_errmsg());
		goto fail;
	}
	if ((err = read_progs(o)))
		goto fail;
	struct_ops_autoload(o);
	return o;
fail:
	lbtf_core_object_free(o);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

static struct lbtf_core_object *alloc(const char *path)
{
	struct lbtf_core_object *o = calloc(1, sizeof(*o));

	if (!o || !(o->path = strdup(path))) {
		free(o);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	return o;
}

struct lbtf_core_object *lbtf_core_object_open(const char *path)
{
	struct lbtf_core_object *o = alloc(path);
	int err;

	if (!o)
		return NULL;
	if ((err = lbtfi_file_read(path, &o->file, &o->file_len, &o->mapped))) {
		lbtf_core_object_free(o);
		errno = -err;
		return NULL;
	}
	return setup(o);
}

struct lbtf_core_object *lbtf_core_object_new(const char *name, const void *elf, size_t size)
{
	struct lbtf_core_object *o = alloc(name ? name : "(memory)");

	if (!o)
		return NULL;
	o->file = malloc(size ? size : 1);
	if (!o->file) {
		lbtf_core_object_free(o);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	memcpy(o->file, elf, size);
	o->file_len = size;
	o->owned = true;
	return setup(o);
}

void lbtf_core_object_set_rules(struct lbtf_core_object *o, enum lbtf_core_rules rules)
{
	o->rules = rules;
}

const struct lbtf *lbtf_core_object_btf(const struct lbtf_core_object *o)
{
	return o->btf;
}

uint32_t lbtf_core_object_relo_cnt(const struct lbtf_core_object *o)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < lbtf_ext_sec_cnt(o->ext, LBTF_EXT_CORE_RELO); s++) {
		struct lbtf_ext_sec sec;

		if (!lbtf_ext_sec(o->ext, LBTF_EXT_CORE_RELO, s, &sec))
			n += sec.rec_cnt;
	}
	return n;
}

void lbtf_core_object_free(struct lbtf_core_object *o)
{
	if (!o)
		return;
	lbtf_ext_free(o->ext);
	lbtf_free(o->btf);
	if (o->owned)
		free(o->file);
	else
		lbtfi_file_unload(o->file, o->file_len, o->mapped);
	free(o->progs);
	free(o->path);
	free(o);
}
