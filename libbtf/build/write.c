// SPDX-License-Identifier: BSD-2-Clause
/* Serializing a builder to a raw BTF blob, and writing files atomically. */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

#define HDR_LEN 24u

int lbtf_builder_serialize(const struct lbtf_builder *b, bool swap, void **data, size_t *size)
{
	size_t types_len = b->nwords * 4, total;
	struct lbtf_header h = { .magic = LBTF_MAGIC, .version = LBTF_VERSION, .hdr_len = HDR_LEN };
	unsigned char *out;
	int err = lbtfi_builder_check(b);

	if (err)
		return err;
	if (types_len > UINT32_MAX || b->strs.len > UINT32_MAX ||
	    types_len + b->strs.len + HDR_LEN > UINT32_MAX)
		return lbtfi_err(E2BIG, "BTF too large to serialize");
	h.type_off = 0;
	h.type_len = (uint32_t)types_len;
	h.str_off = (uint32_t)types_len;
	h.str_len = (uint32_t)b->strs.len;
	total = HDR_LEN + types_len + b->strs.len;
	out = malloc(total);
	if (!out)
		return lbtfi_err(ENOMEM, "out of memory serializing BTF (%zu bytes)", total);
	if (types_len) /* (no word array yet in an empty builder) */
		memcpy(out + HDR_LEN, b->words, types_len);
	if (b->strs.len)
		memcpy(out + HDR_LEN + types_len, b->strs.data, b->strs.len);
	if (swap) {
		lbtfi_swap_type_words(out + HDR_LEN, types_len);
		lbtfi_swap_header(&h);
	}
	memcpy(out, &h, HDR_LEN);
	*data = out;
	*size = total;
	return 0;
}

int lbtfi_write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size) {
		ssize_t n = write(fd, p, size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		size -= (size_t)n;
	}
	return 0;
}

int lbtf_atomic_open(const char *path, char **tmp_path, unsigned int mode)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		free(tmp);
		*tmp_path = NULL;
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return lbtfi_err(errno, "%s: cannot open: %s", path, strerror(errno));
		return fd;
	}
	if (!tmp)
		return lbtfi_err(ENOMEM, "out of memory");
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		int err = errno;
		free(tmp);
		return lbtfi_err(err, "%s: cannot create a temporary file: %s", path, strerror(err));
	}
	fchmod(fd, mode);
	*tmp_path = tmp;
	return fd;
}

int lbtf_atomic_commit(int fd, char *tmp, const char *path, int err)
{
	if (!tmp) { /* not a regular file: written in place */
		if (close(fd) && !err)
			err = lbtfi_err(errno, "%s: cannot close: %s", path, strerror(errno));
		return err;
	}
	if (!err && fsync(fd))
		err = lbtfi_err(errno, "%s: cannot sync: %s", path, strerror(errno));
	if (close(fd) && !err)
		err = lbtfi_err(errno, "%s: cannot close: %s", path, strerror(errno));
	if (!err && rename(tmp, path))
		err = lbtfi_err(errno, "%s: cannot rename the temporary file into place: %s",
				path, strerror(errno));
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

int lbtf_write_file_atomic(const char *path, const void *data, size_t size)
{
	char *tmp;
	int fd = lbtf_atomic_open(path, &tmp, 0644), err;

	if (fd < 0)
		return fd;
	err = lbtfi_write_all(fd, data, size);
	if (err)
		err = lbtfi_err(-err, "%s: cannot write: %s", path, strerror(-err));
	return lbtf_atomic_commit(fd, tmp, path, err);
}
