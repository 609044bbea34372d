// SPDX-License-Identifier: BSD-2-Clause
/*
 * A raw BTF output written while the verifier checks it: a thread of its own
 * writes the blob to the temporary file and syncs it, and the file is
 * renamed into place only once the verdict is good, else removed; the
 * output's name never holds a rejected blob. (Taking turns, a kernel's
 * write and sync would add to its verification's time, not overlap it.)
 * An output that is not a regular file (a device, a FIFO: written in place,
 * see lbtfi_atomic_open) is written after the verdict.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "io/io.h"
#include "util/side.h"

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

int lbtfi_encode_write_raw(struct lbtfi_encode_job *j, const char *out, const void *data,
			   size_t size, const struct lbtf *base)
{
	struct writer w = { .data = data, .size = size };
	struct lbtfi_side writing = { 0 };
	char *tmp = NULL;
	int err;

	w.fd = lbtfi_atomic_open(out, &tmp, 0644);
	if (w.fd < 0) /* (the message names the file) */
		return lbtfi_encode_err_named(-w.fd, out);
	/* (when no thread can be made, written and synced here, before the
	 * verdict: a rejected blob's temporary file is removed all the same) */
	if (tmp)
		lbtfi_side_start(&writing, write_and_sync, &w);
	err = lbtfi_encode_verify(j, data, size, j->swapped > 0, base);
	lbtfi_side_join(&writing);
	if (!tmp && !err) /* (not a regular file: written now, nothing to sync) */
		w.err = lbtfi_write_all(w.fd, data, size), w.what = "write";
	if (err) { /* (the verifier said why) */
		char msg[512];

		/* the cleanup may fail too: the verdict is the message */
		snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
		lbtfi_atomic_commit_synced(w.fd, tmp, out, -ECANCELED);
		return lbtfi_err(-err, "%s", msg);
	}
	if (w.err) {
		lbtfi_atomic_commit_synced(w.fd, tmp, out, w.err);
		return lbtfi_err(-w.err, "%s: cannot %s: %s", out, w.what, strerror(-w.err));
	}
	err = lbtfi_atomic_commit_synced(w.fd, tmp, out, 0);
	return err ? lbtfi_encode_err_named(-err, out) : 0;
}
