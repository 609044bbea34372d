// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_encode: an ELF's DWARF to BTF, verified, written. The product job of
 * the toolchain (btfgen, and kernel builds through its pahole command line)
 * as one library call, so that a build system linking libbtf gets the same
 * guarantee as the program: nothing the kernel would reject is ever written.
 *
 * The steps, in order, each with one error path:
 *  1. check the options (the job is one of: raw file, in place, blob back);
 *  2. open what the job reads besides the DWARF: the input's .BTF.ext and
 *     the .BTF it indexes (in place, ext.c), the base BTF, checked before
 *     anything follows its ids (base_check.c);
 *  3. convert the DWARF (libbtf/dwarf: list, convert, dedup, prune);
 *  4. serialize in the ELF's byte order (types in name order first with
 *     sort_types);
 *  5. rewrite the .BTF.ext onto the new ids and strings, or make one for a
 *     gcc-bpf object (ext.c: the records' strings join the .BTF, which is
 *     serialized again);
 *  6. deliver: a raw file is written by a thread while the verifier judges
 *     the blob and renamed into place only on acceptance (write_raw.c);
 *     otherwise the blob is verified first (verify.c), moved over a
 *     distilled base (distill.c, verified again), and written into the ELF
 *     once libbpf would still open it (in_place.c), or handed back.
 * A failure at any step leaves every file as it was.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "libbtf_dwarf.h"
#include "io/io.h"

_Static_assert(offsetof(struct lbtf_encode_opts, lbtf_encode_opts__last_field) +
		       sizeof(((struct lbtf_encode_opts *)0)->lbtf_encode_opts__last_field) ==
	       sizeof(struct lbtf_encode_opts), "lbtf_encode_opts__last_field is its last field");

/* 1. one job, said once; the output never one of the inputs */
static int check_opts(const struct lbtfi_encode_job *j)
{
	const struct lbtf_encode_opts *o = &j->o;
	int err = 0;

	if (!j->input)
		return lbtfi_err(EINVAL, "lbtf_encode: no input");
	if (o->output && o->in_place)
		return lbtfi_err(EINVAL, "%s: an output file and in place exclude each other",
				 j->input);
	if (o->layout && o->base_path)
		return lbtfi_err(EINVAL, "%s: a layout section is for base BTF: split BTF is sized "
				 "by its base's layout", j->input);
	if (o->distilled_base && (!o->in_place || !o->base_path))
		return lbtfi_err(EINVAL, "%s: a distilled base is made for split BTF written in "
				 "place: it needs in_place and base_path", j->input);
	if (o->output)
		err = lbtfi_check_output(o->output, j->input, "input");
	if (!err && o->output && o->base_path)
		err = lbtfi_check_output(o->output, o->base_path, "base");
	return err;
}

/* 2. the base, opened and checked before anything is built over it */
static int open_base(struct lbtfi_encode_job *j)
{
	if (!j->o.base_path)
		return 0;
	j->base = lbtf_open(j->o.base_path, NULL);
	if (!j->base)
		return lbtfi_encode_err(errno, "%s: cannot read base BTF: %s", j->o.base_path,
					lbtf_errmsg());
	return lbtf_base_check(j->base, j->o.base_path, LBTF_BASE_CHECK_FULL);
}

/* 3. the DWARF converted; BTF without types is invalid ("No type found"),
 * split BTF may be empty */
static int convert(struct lbtfi_encode_job *j)
{
	LBTF_OPTS(lbtf_dwarf_opts, o, .jobs = j->o.jobs, .base = j->base,
		  .features = j->o.features, .progress = j->o.progress, .warn = j->o.warn,
		  .ctx = j->o.ctx, .stats = j->o.stats, .style = j->o.style);
	const char *msg;

	j->b = lbtf_dwarf_to_btf(j->input, &o);
	if (!j->b) {
		/* every message names the input (most of the converter's do;
		 * "cannot read the symbol table" and others not) */
		msg = lbtf_errmsg();
		return strstr(msg, j->input) ? -errno
					      : lbtfi_encode_err(errno, "%s: %s", j->input, msg);
	}
	if (!j->base && lbtf_builder_type_cnt(j->b) <= 1)
		return lbtfi_err(ENODATA, "%s: no C types in its DWARF (units in other languages "
				 "are skipped, -v names them); BTF without types is invalid, "
				 "nothing written", j->input);
	return 0;
}

/* 4. serialized in the ELF's byte order */
static int serialize(struct lbtfi_encode_job *j)
{
	int err;

	j->swapped = lbtf_elf_is_swapped(j->input);
	if (j->swapped < 0)
		return j->swapped;
	if (j->o.sort_types && (j->ext || j->gen))
		return lbtfi_err(EINVAL, "%s: --sort-types: the object has (or gets) a .BTF.ext, "
				 "whose type ids are not renumbered", j->input);
	if (j->o.sort_types && (err = lbtf_builder_sort_by_name(j->b)))
		return lbtfi_encode_err(-err, "%s: --sort-types: %s", j->input, lbtf_errmsg());
	lbtf_builder_set_layout(j->b, j->o.layout);
	err = lbtf_builder_serialize(j->b, j->swapped, &j->data, &j->size);
	if (err)
		return lbtfi_encode_err(-err, "%s: cannot serialize BTF: %s", j->input,
					lbtf_errmsg());
	return 0;
}

/* 6. verified, then written (or handed back) */
static int deliver(struct lbtfi_encode_job *j)
{
	int err;

	if (j->o.output)
		return lbtfi_encode_write_raw(j, j->o.output, j->data, j->size, j->base);
	if ((err = lbtfi_encode_verify(j, j->data, j->size, j->swapped > 0, j->base)))
		return err;
	if (j->o.distilled_base && (err = lbtfi_encode_distill(j)))
		return err;
	return j->o.in_place ? lbtfi_encode_in_place(j) : 0;
}

/* The verdict into res; the blob handed back when nothing was written */
static int finish(struct lbtfi_encode_job *j, struct lbtf_encode_result *res, bool own_data,
		  int err)
{
	struct lbtf_encode_result r = { .sz = sizeof(r) };
	int saved = errno;

	r.verdict = j->rejected ? LBTF_ENCODE_REJECTED : err ? LBTF_ENCODE_FAILED
							       : LBTF_ENCODE_DONE;
	r.verify_err = j->verify_err;
	r.size = err ? 0 : j->size;
	/* (a caller whose result ends before data gets no blob to free) */
	if (!err && own_data && !j->o.output && !j->o.in_place && res &&
	    res->sz >= offsetof(struct lbtf_encode_result, size)) {
		r.data = j->data;
		j->data = NULL;
	}
	lbtfi_result_copy(res, &r, sizeof(r));
	if (own_data)
		free(j->data);
	free(j->base_data);
	lbtfi_encode_ext_free(j);
	lbtf_builder_free(j->b);
	lbtf_free(j->base);
	errno = saved;
	return err;
}

int lbtf_encode(const char *input, const struct lbtf_encode_opts *opts,
		struct lbtf_encode_result *res)
{
	struct lbtfi_encode_job j = { .input = input };
	int err;

	if ((err = lbtfi_result_check(res, "lbtf_encode_result")) ||
	    (err = lbtfi_opts_copy(&j.o, sizeof(j.o), opts, "lbtf_encode_opts")))
		return err;
	err = check_opts(&j);
	if (!err && j.o.in_place)
		err = lbtfi_encode_ext_open(&j);
	if (!err)
		err = open_base(&j);
	if (!err)
		err = convert(&j);
	if (!err)
		err = serialize(&j);
	if (!err)
		err = lbtfi_encode_ext(&j);
	if (!err)
		err = deliver(&j);
	return finish(&j, res, true, err);
}

int lbtf_encode_blob(const char *name, const void *data, size_t size,
		     const struct lbtf_encode_opts *opts, struct lbtf_encode_result *res)
{
	struct lbtfi_encode_job j = { .input = name, .size = size };
	const struct lbtf_encode_opts *o = &j.o;
	int err;

	if ((err = lbtfi_result_check(res, "lbtf_encode_result")) ||
	    (err = lbtfi_opts_copy(&j.o, sizeof(j.o), opts, "lbtf_encode_opts")))
		return err;
	if (!name || o->in_place || o->distilled_base || o->layout || o->jobs || o->features ||
	    o->style || o->progress || o->warn || o->stats || o->sort_types)
		err = lbtfi_err(EINVAL, "lbtf_encode_blob: only output and base_path apply to a "
				"blob");
	if (!err)
		err = check_opts(&j);
	if (!err)
		err = open_base(&j);
	if (!err && o->output)
		err = lbtfi_encode_write_raw(&j, o->output, data, size, j.base);
	else if (!err)
		err = lbtfi_encode_verify(&j, data, size, false, j.base);
	return finish(&j, res, false, err);
}
