// SPDX-License-Identifier: BSD-2-Clause
/*
 * A raw BTF output written while the verifier checks it: a thread of its own
 * writes the blob to the temporary file and syncs it, and the file is
 * renamed into place only once the verdict is good, else removed; the
 * output's name never holds a rejected blob. (Taking turns, a kernel's
 * write and sync would add to its verification's time, not overlap it.)
 * An output that is not a regular file (a device, a FIFO: written in place,
 * see lbtfi_atomic_open) is written after the verdict, as before.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "cli.h"
#include "libbtf.h"
#include "io/io.h"
#include "verify_out.h"
#include "write_out.h"

struct writer {
	int fd;
	const void *data;
	size_t size;
	int err;           /* -errno */
	const char *what;  /* the step that failed */
};

static void *write_and_sync(void *arg)
{
	struct writer *w = arg;

	w->err = lbtfi_write_all(w->fd, w->data, w->size);
	w->what = "write";
	if (!w->err && fsync(w->fd)) {
		w->err = -errno;
		w->what = "sync";
	}
	return NULL;
}

int btfgen_write_verified(const char *prog, const char *input, const char *out, const void *data,
			  size_t size, bool swapped, const struct lbtf *base)
{
	struct writer w = { .data = data, .size = size };
	char *tmp = NULL;
	bool started = false;
	pthread_t t;
	int rc, err;

	w.fd = lbtfi_atomic_open(out, &tmp, 0644);
	if (w.fd < 0) /* (libbtf's message names the file) */
		return cli_fail_msg(prog, out, lbtf_errmsg(), w.fd);
	if (tmp)
		started = !pthread_create(&t, NULL, write_and_sync, &w);
	rc = btfgen_verify_output(prog, input, data, size, swapped, base);
	if (started)
		pthread_join(t, NULL);
	else if (!rc) /* (not a regular file: written now, nothing to sync) */
		w.err = lbtfi_write_all(w.fd, data, size), w.what = "write";
	if (rc) { /* (the verifier said why) */
		lbtfi_atomic_commit_synced(w.fd, tmp, out, -ECANCELED);
		return rc;
	}
	if (w.err) {
		lbtfi_atomic_commit_synced(w.fd, tmp, out, w.err);
		cli_err(prog, "%s: cannot %s: %s", out, w.what, strerror(-w.err));
		return cli_exit_for_errno(w.err);
	}
	err = lbtfi_atomic_commit_synced(w.fd, tmp, out, 0);
	if (err)
		return cli_fail_msg(prog, out, lbtf_errmsg(), err);
	return 0;
}
