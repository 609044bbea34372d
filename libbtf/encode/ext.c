// SPDX-License-Identifier: BSD-2-Clause
/*
 * An in-place encoding keeps what libbpf needs from clang's .BTF.ext: the
 * func_info, line_info and CO-RE records are rewritten onto the new .BTF
 * (lbtf_ext_remap), or the encoding is refused, naming the record that has
 * no counterpart; nothing is dropped silently. A BPF object without
 * func_info and line_info (gcc-bpf's: no .BTF.ext, or -gbtf's empty one)
 * gets them made from its symbols and DWARF line table.
 */
#include <elf.h> /* Elf64_Ehdr */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "libbtf_dwarf.h"
#include "libbtf_object.h"

/* ET_REL for EM_BPF (libbtf's test, on the ELF header) */
static bool is_bpf_object(const char *path)
{
	Elf64_Ehdr h;
	FILE *f = fopen(path, "rbe");
	size_t n = f ? fread(&h, 1, sizeof(h), f) : 0;

	if (f)
		fclose(f);
	return lbtf_is_bpf_object(&h, n);
}

int lbtfi_encode_ext_open(struct lbtfi_encode_job *j)
{
	int has = lbtf_elf_has_section(j->input, ".BTF.ext");

	if (has < 0)
		return has;
	j->gen = is_bpf_object(j->input);
	if (!has)
		return 0;
	j->ext = lbtf_ext_open_elf(j->input);
	if (!j->ext)
		return lbtfi_encode_err(errno, "%s: cannot read .BTF.ext: %s", j->input,
					lbtf_errmsg());
	j->old = lbtf_open_elf(j->input, NULL);
	if (!j->old)
		return lbtfi_encode_err(errno, "%s: has a .BTF.ext but its .BTF, which the records' "
					"type ids and strings index, cannot be read: %s", j->input,
					lbtf_errmsg());
	/* clang's: carried over; gcc's (CO-RE relocations at most): completed */
	j->gen = j->gen && !lbtf_ext_sec_cnt(j->ext, LBTF_EXT_FUNC_INFO) &&
		 !lbtf_ext_sec_cnt(j->ext, LBTF_EXT_LINE_INFO);
	return 0;
}

/* j's records onto b's ids and strings (j->ext_data) */
static int remap_records(struct lbtfi_encode_job *j)
{
	int err = lbtf_ext_remap(j->ext, j->old, j->b, &j->ext_data, &j->ext_size);

	if (!err)
		return 0;
	return lbtfi_encode_err(err == -ENOMEM ? ENOMEM : EINVAL,
				"%s: cannot carry .BTF.ext over to the new .BTF: %s", j->input,
				lbtf_errmsg());
}

/* The records' strings joined b's string section: j->data made again */
static int serialize_again(struct lbtfi_encode_job *j)
{
	int err;

	free(j->data);
	j->data = NULL;
	err = lbtf_builder_serialize(j->b, j->swapped, &j->data, &j->size);
	if (!err)
		return 0;
	return lbtfi_encode_err(-err, "%s: cannot serialize BTF: %s", j->input, lbtf_errmsg());
}

/* The CO-RE relocations of the rewritten .BTF.ext j->ext_data into w */
static int keep_core_relos(struct lbtfi_encode_job *j, struct lbtf_ext_writer *w)
{
	struct lbtf_ext *kept = lbtf_ext_new(j->ext_data, j->ext_size);
	int err = kept ? 0 : -errno;

	for (uint32_t s = 0; !err && s < lbtf_ext_sec_cnt(kept, LBTF_EXT_CORE_RELO); s++) {
		struct lbtf_ext_sec sec;

		err = lbtf_ext_sec(kept, LBTF_EXT_CORE_RELO, s, &sec);
		for (uint32_t i = 0; !err && i < sec.rec_cnt; i++) {
			struct lbtf_ext_core_relo rel;

			err = lbtf_ext_core_relo(kept, s, i, &rel);
			if (!err)
				err = lbtf_ext_writer_add_core_relo(w, sec.sec_name_off, &rel);
		}
	}
	lbtf_ext_free(kept);
	free(j->ext_data);
	j->ext_data = NULL;
	j->ext_size = 0;
	return err;
}

/* func_info/line_info from the DWARF line table (gcc-bpf objects), the
 * CO-RE relocations of a .BTF.ext there was kept */
static int generate(struct lbtfi_encode_job *j)
{
	LBTF_OPTS(lbtf_dwarf_ext_opts, o, .warn = j->o.warn, .ctx = j->o.ctx);
	struct lbtf_ext_writer *w = lbtf_ext_writer_new();
	int err;

	if (!w)
		return lbtfi_encode_err(ENOMEM, "%s: %s", j->input, lbtf_errmsg());
	if (j->ext && (err = remap_records(j)))
		goto out;
	if (j->ext && (err = keep_core_relos(j, w))) {
		err = lbtfi_encode_err(EINVAL, "%s: cannot read back the CO-RE relocations: %s",
				       j->input, lbtf_errmsg());
		goto out;
	}
	err = lbtf_dwarf_ext_lines(j->input, j->b, w, &o);
	if (err) {
		const char *msg = lbtf_errmsg();

		err = err == -ENOMEM ? ENOMEM : EINVAL;
		if (strstr(msg, j->input))
			err = lbtfi_encode_err(err, "cannot make func_info/line_info: %s", msg);
		else
			err = lbtfi_encode_err(err, "%s: cannot make func_info/line_info: %s",
					       j->input, msg);
		goto out;
	}
	/*
	 * Nothing to say (no functions, no CO-RE relocations): the .BTF.ext
	 * there was, if any, stays as it was (it has no records, so nothing
	 * in it names the old .BTF). A bare header instead is what libbpf's
	 * btf_ext__new() refuses ("BTF.ext has no data"), failing the open of
	 * an object with maps: gcc -gbtf's data-only objects.
	 */
	if (!lbtf_ext_writer_rec_cnt(w, LBTF_EXT_FUNC_INFO) &&
	    !lbtf_ext_writer_rec_cnt(w, LBTF_EXT_LINE_INFO) &&
	    !lbtf_ext_writer_rec_cnt(w, LBTF_EXT_CORE_RELO))
		goto out;
	if ((err = lbtf_ext_writer_finish(w, j->swapped > 0, &j->ext_data, &j->ext_size))) {
		err = lbtfi_encode_err(-err, "%s: cannot write .BTF.ext: %s", j->input,
				       lbtf_errmsg());
		goto out;
	}
	err = serialize_again(j);
out:
	lbtf_ext_writer_free(w);
	return err;
}

int lbtfi_encode_ext(struct lbtfi_encode_job *j)
{
	int err;

	if (j->o.in_place && j->gen)
		return generate(j);
	if (!j->ext)
		return 0;
	err = remap_records(j);
	return err ? err : serialize_again(j);
}

void lbtfi_encode_ext_free(struct lbtfi_encode_job *j)
{
	free(j->ext_data);
	lbtf_ext_free(j->ext);
	lbtf_free(j->old);
}
