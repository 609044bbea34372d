// SPDX-License-Identifier: BSD-2-Clause
/*
 * The invariant of the encoder: nothing the kernel would reject is written.
 * The serialized blob is verified (libbtf's kernel-exact verifier, split
 * BTF over its base as the kernel verifies module BTF) before any file is
 * changed.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "libbtf_verify.h"

/* The verifier's reason: the last line of its log, without leading tabs */
const char *lbtfi_encode_reason(char *log)
{
	size_t n = log ? strlen(log) : 0;
	char *s;

	while (n && log[n - 1] == '\n')
		log[--n] = 0;
	if (!n)
		return "(no log)";
	for (s = log + n; s > log && s[-1] != '\n'; s--)
		;
	while (*s == '\t' || *s == ' ')
		s++;
	return s;
}

int lbtfi_encode_verdict(const void *data, size_t size, struct lbtf_verify_opts *o,
			 struct lbtf_verify_result *res)
{
	int err = lbtf_verify(data, size, o, res);

	if (!res->err)
		return err;
	/* the verdict came without a log (formatting it costs more than the
	 * checks: a vmlinux base is verified by every module's run); verify
	 * again with it to say why */
	lbtf_verify_result_free(res);
	*res = (struct lbtf_verify_result){ .sz = sizeof(*res) };
	o->log_level = 1;
	o->flags |= LBTF_VERIFY_KEEP_LOG;
	return lbtf_verify(data, size, o, res);
}

/* A copy when needed: in host order (the verifier reads host order, as
 * the kernel does), externs as libbpf loads them; *copy is NULL when data
 * is judged as it is */
static int as_loaded(const char *input, const void *data, size_t size, bool swapped, void **copy)
{
	*copy = NULL;
	if (!swapped && !lbtfi_encode_has_externs(data, size))
		return 0;
	*copy = malloc(size);
	if (!*copy)
		return lbtfi_err(ENOMEM, "%s: out of memory", input);
	memcpy(*copy, data, size);
	if (swapped && lbtf_bytes_to_host(*copy, size) < 0) {
		free(*copy);
		*copy = NULL;
		return lbtfi_err(EINVAL, "%s: internal error: the BTF made is not BTF", input);
	}
	lbtfi_encode_externs_as_loaded(*copy, size);
	return 0;
}

int lbtfi_encode_verify(struct lbtfi_encode_job *j, const void *data, size_t size, bool swapped,
			const struct lbtf *base)
{
	LBTF_OPTS(lbtf_verify_opts, o, .base = base, .flags = LBTF_VERIFY_NO_KERNEL_BTF);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	void *host, *bare;
	int err;

	/* BPF_BTF_LOAD's 16 MiB bound does not apply to a kernel image's own
	 * BTF, which the kernel reads without it: larger outputs are not
	 * checked here (the Debian vmlinux's is 5 MiB) */
	if (size > LBTF_MAX_FILE_SIZE)
		return 0;
	if ((err = as_loaded(j->input, data, size, swapped, &host)))
		return err;
	if (host)
		data = host;
	if ((bare = lbtfi_encode_without_layout(data, &size))) {
		free(host);
		data = host = bare;
	}
	err = lbtfi_encode_verdict(data, size, &o, &res);
	if (err && !res.err) {
		err = lbtfi_encode_err(-err, "%s: cannot verify the BTF made: %s", j->input,
				       lbtf_errmsg());
	} else if (res.err) {
		/* (the special-field pass logs nothing: its cause instead) */
		j->rejected = true;
		j->verify_err = res.err;
		err = lbtfi_err(EINVAL, "%s: the BTF made from it would be rejected by the kernel, "
				"not written: %s (%s)", j->input,
				res.cause[0] ? res.cause : lbtfi_encode_reason(res.full_log),
				lbtf_errno_name(res.err));
	}
	lbtf_verify_result_free(&res);
	free(host);
	return err;
}
