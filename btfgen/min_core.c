// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen --min-core --target-btf FULL.btf OBJ... -o MIN.btf: the smallest
 * BTF that resolves every CO-RE relocation of the objects as FULL does
 * (bpftool gen min_core_btf's job), for kernels without their own BTF
 * (shipped beside the program, as BTFHub does). It lives in btfgen because
 * btfgen is the tool that writes BTF files: the same verified, atomic
 * output (nothing the kernel would reject is written, no half-written file).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "libbtf.h"
#include "libbtf_relo.h"
#include "min_core.h"
#include "report.h"
#include "libbtf_encode.h"

int btfgen_min_core(const char *prog, const char *target, const char *out, char *const *objs,
		    int nobjs, bool verbose)
{
	LBTF_OPTS(lbtf_encode_opts, eo, .output = cli_is_stdout(out) ? NULL : out);
	struct lbtf_core_target *t = lbtf_core_target_open(target);
	struct lbtf_core_min *m = NULL;
	void *data = NULL;
	size_t size = 0;
	int rc, err;

	if (!t)
		return cli_fail_lib(prog, target);
	if (!(m = lbtf_core_min_new(t))) {
		rc = cli_fail_lib(prog, target);
		goto out;
	}
	for (int i = 0; i < nobjs; i++) {
		struct lbtf_core_object *o = lbtf_core_object_open(objs[i]);

		if (!o) {
			rc = cli_fail_lib(prog, objs[i]);
			goto out;
		}
		err = lbtf_core_min_add(m, o);
		lbtf_core_object_free(o);
		if (err) {
			rc = cli_fail_msg(prog, objs[i], lbtf_errmsg(), -err);
			goto out;
		}
	}
	if ((err = lbtf_core_min_btf(m, &data, &size))) {
		rc = cli_fail_msg(prog, target, lbtf_errmsg(), -err);
		goto out;
	}
	/* verified, and written atomically unless to standard output */
	rc = 0;
	if ((err = lbtf_encode_blob(target, data, size, &eo, NULL))) {
		rc = cli_fail(cli_exit_for_errno(err), prog, "%s", lbtf_errmsg());
	} else if (cli_is_stdout(out)) {
		if (fwrite(data, 1, size, stdout) != size)
			rc = CLI_EXIT_SYSTEM;
		if (cli_flush_stdout(prog))
			rc = CLI_EXIT_SYSTEM;
	}
	if (!rc && verbose) {
		size_t full;

		lbtf_raw_data(lbtf_core_target_btf(t), &full);
		cli_err(prog, "%s: %zu bytes of %zu for %d object%s", out, size, full, nobjs,
			nobjs == 1 ? "" : "s");
	}
out:
	free(data);
	lbtf_core_min_free(m);
	lbtf_core_target_free(t);
	return rc;
}
