// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen --in-place keeps what libbpf needs from clang's .BTF.ext: the
 * func_info, line_info and CO-RE records are rewritten onto the new .BTF
 * (lbtf_ext_remap), or btfgen refuses, naming the record that has no
 * counterpart; nothing is dropped silently.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "ext.h"

static const char *prog = "btfgen";

int ext_open(struct ext_job *x, const char *input)
{
	int has = lbtf_elf_has_section(input, ".BTF.ext");

	if (has < 0) {
		fprintf(stderr, "%s: %s\n", prog, lbtf_errmsg());
		return cli_exit_for_errno(-has);
	}
	if (!has)
		return 0;
	x->ext = lbtf_ext_open_elf(input);
	if (!x->ext) {
		int rc = cli_exit_for_errno(errno);

		fprintf(stderr, "%s: %s: cannot read .BTF.ext: %s\n", prog, input, lbtf_errmsg());
		return rc;
	}
	x->old = lbtf_open_elf(input, NULL);
	if (!x->old) {
		int rc = cli_exit_for_errno(errno);

		fprintf(stderr, "%s: %s: has a .BTF.ext but its .BTF, which the records' type ids and "
			"strings index, cannot be read: %s\n", prog, input, lbtf_errmsg());
		return rc == CLI_EXIT_SYSTEM ? rc : CLI_EXIT_INPUT;
	}
	return 0;
}

int ext_remap(struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped,
	      void **data, size_t *size)
{
	int err = lbtf_ext_remap(x->ext, x->old, b, &x->data, &x->size);

	if (err) {
		fprintf(stderr, "%s: %s: cannot carry .BTF.ext over to the new .BTF: %s\n", prog, input,
			lbtf_errmsg());
		return err == -ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_INPUT;
	}
	free(*data);
	*data = NULL;
	err = lbtf_builder_serialize(b, swapped, data, size);
	if (err) {
		fprintf(stderr, "%s: %s: cannot serialize BTF: %s\n", prog, input, lbtf_errmsg());
		return cli_exit_for_errno(-err);
	}
	return 0;
}

void ext_free(struct ext_job *x)
{
	free(x->data);
	lbtf_ext_free(x->ext);
	lbtf_free(x->old);
}
