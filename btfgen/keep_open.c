// SPDX-License-Identifier: BSD-2-Clause
/*
 * The last check of btfgen --in-place on a BPF object: libbpf's open
 * (libbtf's model of it, lbtf_object_btf) of the object as it would be
 * rewritten, when the object opens as it is. The rewrite keeps the other
 * sections, symbols and relocations the open reads; this catches what the
 * new .BTF and .BTF.ext could break (a map whose DATASEC entry is gone, a
 * .BTF.ext libbpf cannot parse), and refuses instead of writing it.
 */
#include <errno.h>
#include <string.h>
#include "report.h"
#include "cli.h"
#include "keep_open.h"
#include "libbtf.h"
#include "libbtf_object.h"
#include "io/io.h"

/* libbtf's message without the "INPUT: " it starts with */
static const char *reason(const char *input)
{
	const char *msg = lbtf_errmsg();
	size_t n = strlen(input);

	return !strncmp(msg, input, n) && !strncmp(msg + n, ": ", 2) ? msg + n + 2 : msg;
}

int btfgen_keeps_open(const char *prog, const char *input, const void *btf, size_t btf_size,
		      const void *ext, size_t ext_size)
{
	LBTF_OPTS(lbtf_object_opts, after, .btf = btf, .btf_size = btf_size, .btf_ext = ext,
		  .btf_ext_size = ext_size);
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	void *image;
	size_t size;
	bool mapped;
	int rc = 0, err;

	if ((err = lbtfi_file_load(input, &image, &size, &mapped))) {
		cli_err(prog, "%s: %s", input, reason(input));
		return cli_exit_for_errno(-err);
	}
	if (!lbtf_is_bpf_object(image, size) || lbtf_object_btf(input, image, size, NULL, &ob))
		goto out; /* libbpf refuses it now: nothing to keep */
	lbtf_object_btf_free(&ob);
	if (lbtf_object_btf(input, image, size, &after, &ob)) {
		cli_err(prog, "%s: not written: libbpf opens this object, but would not open it with the new .BTF%s: %s",
			input, ext ? " and .BTF.ext" : "", reason(input));
		rc = CLI_EXIT_INPUT;
	}
	lbtf_object_btf_free(&ob);
out:
	lbtfi_file_unload(image, size, mapped);
	return rc;
}
