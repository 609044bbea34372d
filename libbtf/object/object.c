// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_object_btf(): the steps in libbpf 1.1's order. bpf_object__open():
 * .BTF parsed (btf__new), .BTF.ext parsed (btf_ext__new), externs
 * collected (a "dummy_ksym" VAR added first when .ksyms holds a FUNC),
 * DATASECs fixed, BTF-defined maps read, programs and their relocations
 * checked; bpf_object__load(): hidden global
 * subprogs made static, then the sanitized copy for the kernel.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * An object without .BTF, as bpf_object__init_btf() and the extern pass
 * after it judge it: libbpf opens it without BTF (and ignores .BTF.ext)
 * unless a section is read through BTF (.maps, a non-empty .struct_ops:
 * "BTF is required, but is missing", -ENOENT) or a symbol is an extern,
 * whose BTF it then cannot find (-ESRCH). 0: opens, nothing reaches
 * BPF_BTF_LOAD.
 */
static int open_without_btf(const struct octx *c)
{
	static const char *const need[] = { ".maps", ".struct_ops" };
	const char *ext;

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		struct lbtfi_shdr sh;

		if (!lbtfi_obj_elf_find(&c->e, need[i], &sh))
			continue;
		/* libbpf takes .struct_ops only as non-empty data */
		if (i == 1 && (sh.type != SHT_PROGBITS || !sh.size || (sh.flags & SHF_EXECINSTR)))
			continue;
		return lbtfi_err(ENOENT, "%s: no .BTF section, and libbpf needs BTF for its %s "
				 "section (BTF is required, but is missing)", c->path, need[i]);
	}
	ext = lbtfi_obj_first_extern(&c->e);
	if (ext)
		return lbtfi_err(ESRCH, "%s: no .BTF section to find extern '%s' in",
				 c->path, ext);
	return 0;
}

int lbtf_object_btf(const char *path, void *elf, size_t size,
		    const struct lbtf_object_opts *opts, struct lbtf_object_btf *res)
{
	struct lbtf_object_opts o;
	struct lbtf_object_btf r = { .sz = sizeof(r) };
	struct octx c = { .path = path };
	struct lbtfi_shdr btf_sh = { 0 };
	const void *btf;
	size_t btf_size;
	int err;

	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_object_opts)) ||
	    (err = lbtfi_result_check(res, "lbtf_object_btf")))
		return err;
	if (!lbtf_is_bpf_object(elf, size))
		return lbtfi_err(EINVAL, "%s: not an ELF BPF object (ELF64 ET_REL EM_BPF)", path);
	c.features = LBTF_KFEAT_ALL & ~o.missing_features;
	err = lbtfi_obj_elf_open(&c.e, path, elf, size);
	err = err ?: lbtfi_obj_collect_progs(&c);
	if (!err && !o.btf && !lbtfi_obj_elf_find(&c.e, ".BTF", &btf_sh)) {
		/* no BTF to load: data NULL, size 0 */
		err = open_without_btf(&c);
		lbtfi_obj_elf_free(&c.e);
		if (!err && res && res->sz >= offsetof(struct lbtf_object_btf, size) + sizeof(r.size))
			lbtfi_result_copy(res, &r, sizeof(r));
		return err;
	}
	if (o.btf) {
		btf = o.btf;
		btf_size = o.btf_size;
	} else {
		/* what lbtf_elf_btf() gives, from the section found above */
		err = err ?: lbtfi_elf_shdr_data(&c.e.elf, path, ".BTF", &btf_sh, &btf, &btf_size);
	}
	c.ext = o.btf_ext;
	c.ext_size = o.btf_ext_size;
	/* in place: only the section as it lies in elf, and for a caller
	 * told so (its result has room for in_elf) */
	err = err ?: lbtfi_obj_btf_init(&c.b, path, btf, btf_size,
					 o.in_place && !o.btf && LBTFI_RESULT_HAS(res, in_elf));
	err = err ?: lbtfi_obj_check_btf_ext(&c);
	err = err ?: lbtfi_obj_collect_externs(&c);
	err = err ?: lbtfi_obj_fixup_datasecs(&c);
	err = err ?: lbtfi_obj_init_btf_maps(&c);
	err = err ?: lbtfi_obj_collect_prog_relos(&c);
	err = err ?: lbtfi_obj_mark_static_subprogs(&c);
	err = err ?: lbtfi_obj_sanitize(&c);
	err = err ?: lbtfi_obj_btf_output(&c.b, &r.data, &r.size, &r.in_elf);
	r.fixups = c.fixups;
	r.sanitized = c.sanitized;
	lbtfi_obj_btf_free(&c.b);
	lbtfi_obj_elf_free(&c.e);
	lbtfi_obj_maps_free(&c);
	if (err)
		return err;
	if (res && res->sz >= offsetof(struct lbtf_object_btf, size) + sizeof(r.size))
		lbtfi_result_copy(res, &r, sizeof(r));
	else if (!r.in_elf)
		lbtfi_obj_btf_data_give(r.data, r.size); /* the caller cannot receive it */
	return 0;
}

void lbtf_object_btf_free(struct lbtf_object_btf *res)
{
	if (!res)
		return;
	/* (elf's own .BTF is elf's caller's) */
	if (LBTFI_RESULT_HAS(res, in_elf) && res->in_elf)
		res->in_elf = false;
	else
		lbtfi_obj_btf_data_give(res->data, res->size);
	res->data = NULL;
	res->size = 0;
}
