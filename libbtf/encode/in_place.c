// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verified BTF into the input ELF (opts.in_place), after the last check
 * for a BPF object: libbpf's open (libbtf's model of it, lbtf_object_btf)
 * of the object as it would be rewritten, when the object opens as it is.
 * The rewrite keeps the other sections, symbols and relocations the open
 * reads; this catches what the new .BTF and .BTF.ext could break (a map
 * whose DATASEC entry is gone, a .BTF.ext libbpf cannot parse), and refuses
 * instead of writing it.
 */
#include <errno.h>
#include <string.h>
#include "internal.h"
#include "libbtf_object.h"
#include "io/io.h"

/* libbtf's message without the "INPUT: " it starts with */
static const char *reason(const char *input)
{
	const char *msg = lbtf_errmsg();
	size_t n = strlen(input);

	return !strncmp(msg, input, n) && !strncmp(msg + n, ": ", 2) ? msg + n + 2 : msg;
}

/* If input is a BPF object that libbpf accepts as it is, the object as
 * rewritten must be accepted too: 0, or -EINVAL naming libbpf's reason */
static int keeps_open(struct lbtfi_encode_job *j)
{
	LBTF_OPTS(lbtf_object_opts, after, .btf = j->data, .btf_size = j->size,
		  .btf_ext = j->ext_data, .btf_ext_size = j->ext_size);
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	const char *input = j->input;
	void *image;
	size_t size;
	bool mapped;
	int err;

	if ((err = lbtfi_file_load(input, &image, &size, &mapped)))
		return lbtfi_encode_err(-err, "%s: %s", input, reason(input));
	if (!lbtf_is_bpf_object(image, size) || lbtf_object_btf(input, image, size, NULL, &ob))
		goto out; /* libbpf refuses it now: nothing to keep */
	lbtf_object_btf_free(&ob);
	if (lbtf_object_btf(input, image, size, &after, &ob)) {
		j->rejected = true;
		err = lbtfi_encode_err(EINVAL, "%s: not written: libbpf opens this object, but "
				       "would not open it with the new .BTF%s: %s", input,
				       j->ext_data ? " and .BTF.ext" : "", reason(input));
	}
	lbtf_object_btf_free(&ob);
out:
	lbtfi_file_unload(image, size, mapped);
	return err;
}

int lbtfi_encode_in_place(struct lbtfi_encode_job *j)
{
	LBTF_OPTS(lbtf_elf_write_opts, wo, .btf_ext = j->ext_data, .btf_ext_size = j->ext_size,
		  .btf_base = j->base_data, .btf_base_size = j->base_size);
	int err = keeps_open(j);

	if (err)
		return err;
	err = lbtf_elf_write_btf(j->input, j->input, j->data, j->size, &wo);
	return err ? lbtfi_encode_err_named(-err, j->input) : 0;
}
