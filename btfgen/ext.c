// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen --in-place keeps what libbpf needs from clang's .BTF.ext: the
 * func_info, line_info and CO-RE records are rewritten onto the new .BTF
 * (lbtf_ext_remap), or btfgen refuses, naming the record that has no
 * counterpart; nothing is dropped silently. A BPF object without
 * func_info and line_info (gcc-bpf's: no .BTF.ext, or -gbtf's empty one)
 * gets them made from its symbols and DWARF line table.
 */
#include <elf.h> /* Elf64_Ehdr */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "cli.h"
#include "ext.h"
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

int ext_open(struct ext_job *x, const char *input)
{
	int has = lbtf_elf_has_section(input, ".BTF.ext");

	if (has < 0) {
		cli_err(x->prog, "%s", lbtf_errmsg());
		return cli_exit_for_errno(-has);
	}
	x->gen = is_bpf_object(input);
	if (!has)
		return 0;
	x->ext = lbtf_ext_open_elf(input);
	if (!x->ext) {
		int rc = cli_exit_for_errno(errno);

		cli_err(x->prog, "%s: cannot read .BTF.ext: %s", input, lbtf_errmsg());
		return rc;
	}
	x->old = lbtf_open_elf(input, NULL);
	if (!x->old) {
		int rc = cli_exit_for_errno(errno);

		cli_err(x->prog, "%s: has a .BTF.ext but its .BTF, which the records' type ids and "
			"strings index, cannot be read: %s", input, lbtf_errmsg());
		return rc == CLI_EXIT_SYSTEM ? rc : CLI_EXIT_INPUT;
	}
	/* clang's: carried over; gcc's (CO-RE relocations at most): completed */
	x->gen = x->gen && !lbtf_ext_sec_cnt(x->ext, LBTF_EXT_FUNC_INFO) &&
		 !lbtf_ext_sec_cnt(x->ext, LBTF_EXT_LINE_INFO);
	return 0;
}

/* x's records onto b's ids and strings (x->data); an exit status */
static int remap_records(struct ext_job *x, const char *input, struct lbtf_builder *b)
{
	int err = lbtf_ext_remap(x->ext, x->old, b, &x->data, &x->size);

	if (!err)
		return 0;
	cli_err(x->prog, "%s: cannot carry .BTF.ext over to the new .BTF: %s", input, lbtf_errmsg());
	return err == -ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_INPUT;
}

/* The records' strings joined b's string section: *data made again */
static int serialize_again(const struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped, void **data,
			   size_t *size)
{
	int err;

	free(*data);
	*data = NULL;
	err = lbtf_builder_serialize(b, swapped, data, size);
	if (!err)
		return 0;
	cli_err(x->prog, "%s: cannot serialize BTF: %s", input, lbtf_errmsg());
	return cli_exit_for_errno(-err);
}

int ext_remap(struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped,
	      void **data, size_t *size)
{
	int rc = remap_records(x, input, b);

	return rc ? rc : serialize_again(x, input, b, swapped, data, size);
}

/* The CO-RE relocations of the rewritten .BTF.ext x->data into w */
static int keep_core_relos(struct ext_job *x, struct lbtf_ext_writer *w)
{
	struct lbtf_ext *kept = lbtf_ext_new(x->data, x->size);
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
	free(x->data);
	x->data = NULL;
	x->size = 0;
	return err;
}

int ext_generate(struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped,
		 void **data, size_t *size, void (*warn)(void *ctx, const char *msg), void *ctx)
{
	LBTF_OPTS(lbtf_dwarf_ext_opts, o, .warn = warn, .ctx = ctx);
	struct lbtf_ext_writer *w = lbtf_ext_writer_new();
	int err, rc = CLI_EXIT_INPUT;

	if (!w) {
		cli_err(x->prog, "%s: %s", input, lbtf_errmsg());
		return CLI_EXIT_SYSTEM;
	}
	if (x->ext && (rc = remap_records(x, input, b)))
		goto out;
	rc = CLI_EXIT_INPUT;
	if (x->ext && (err = keep_core_relos(x, w))) {
		cli_err(x->prog, "%s: cannot read back the CO-RE relocations: %s", input,
			lbtf_errmsg());
		goto out;
	}
	err = lbtf_dwarf_ext_lines(input, b, w, &o);
	if (err) {
		const char *msg = lbtf_errmsg();

		if (strstr(msg, input))
			cli_err(x->prog, "cannot make func_info/line_info: %s", msg);
		else
			cli_err(x->prog, "%s: cannot make func_info/line_info: %s", input, msg);
		rc = err == -ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_INPUT;
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
	    !lbtf_ext_writer_rec_cnt(w, LBTF_EXT_CORE_RELO)) {
		rc = 0;
		goto out;
	}
	if ((err = lbtf_ext_writer_finish(w, swapped > 0, &x->data, &x->size))) {
		cli_err(x->prog, "%s: cannot write .BTF.ext: %s", input, lbtf_errmsg());
		rc = cli_exit_for_errno(-err);
		goto out;
	}
	rc = serialize_again(x, input, b, swapped, data, size);
out:
	lbtf_ext_writer_free(w);
	return rc;
}

void ext_free(struct ext_job *x)
{
	free(x->data);
	lbtf_ext_free(x->ext);
	lbtf_free(x->old);
}
