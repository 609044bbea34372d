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
#include <string.h>
#include "cli.h"
#include "io/io.h"
#include "libbtf.h"
#include "libbtf_relo.h"
#include "min_core.h"
#include "report.h"
#include "libbtf_encode.h"

/*
 * The output verified, then written to a temporary file renamed into place:
 * a failed run leaves nothing, a reader never sees a half-written or
 * rejected file. Not synced (fsync): the output is derived from inputs left
 * intact (main refuses an output that is one of them), like bpftool's and a
 * compiler's, so a machine crash right after can cost a rerun, never data;
 * and syncing took 16 ms of a 22 ms run on ext4, more than the work itself.
 * (btfgen's own writer syncs: --in-place replaces its input.)
 */

/* Whether the minimal BTF has no type: the objects need nothing of the
 * target (none of their types is there). Written as it is, as bpftool
 * does: libbpf parses it as btf_custom_path, every relocation then finds no
 * candidate as with the whole target; only BPF_BTF_LOAD would refuse it
 * ("No type found"), and no kernel is given it. */
static bool no_types(const void *data, size_t size)
{
	struct lbtf_header h = { 0 };

	if (size < LBTF_HDR_LEN_V1) /* (the layout fields may be absent) */
		return false;
	memcpy(&h, data, LBTF_HDR_LEN_V1);
	return h.type_len == 0;
}
/* Verified as lbtf_encode verifies its output (no output set: nothing is
 * written by it) */
static int verify_min(const char *prog, const char *target, const void *data, size_t size)
{
	LBTF_OPTS(lbtf_encode_opts, vo);
	int err = lbtf_encode_blob(target, data, size, &vo, NULL);

	return err ? cli_fail(cli_exit_for_errno(err), prog, "%s", lbtf_errmsg()) : 0;
}

static int write_min(const char *prog, const char *target, const char *out, const void *data,
		     size_t size)
{
	char *tmp = NULL;
	int rc, err, fd;

	if (!no_types(data, size) && (rc = verify_min(prog, target, data, size)))
		return rc;
	fd = lbtfi_atomic_open(out, &tmp, 0644);
	if (fd < 0) /* (libbtf's message names the file) */
		return cli_fail_msg(prog, out, lbtf_errmsg(), fd);
	if ((err = lbtfi_write_all(fd, data, size))) {
		lbtfi_atomic_commit_synced(fd, tmp, out, err); /* removes it */
		cli_err(prog, "%s: cannot write: %s", out, strerror(-err));
		return cli_exit_for_errno(err);
	}
	/* commit without a sync of its own: see above */
	if ((err = lbtfi_atomic_commit_synced(fd, tmp, out, 0)))
		return cli_fail_msg(prog, out, lbtf_errmsg(), err);
	return 0;
}

int btfgen_min_core(const char *prog, const char *target, const char *out, char *const *objs,
		    int nobjs, bool verbose)
{
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
	rc = 0;
	if (!cli_is_stdout(out)) {
		rc = write_min(prog, target, out, data, size);
	} else if (no_types(data, size) ||
		   !(rc = verify_min(prog, target, data, size))) {
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
