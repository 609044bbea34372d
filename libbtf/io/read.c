// SPDX-License-Identifier: BSD-2-Clause
/* Whole input files: mapped when they can be, read when they cannot. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io.h"
#include "core/internal.h"
#include "util/grow.h"

/*
 * Smaller regular files are read, larger ones mapped. Unmapping a file
 * mapping whose pages were touched costs ~40 us on the VMs we measure
 * (10x a read() of a BPF object's ~20 KB): a CI gate over many objects
 * spent half its time in munmap. vmlinux-sized BTF (MBs) is mapped, not
 * copied.
 */
#define MAP_FROM (1u << 20)
/* the least a reused read buffer holds (BPF objects are mostly smaller) */
#define REUSE_MIN (64u << 10)

/* How a file is taken in */
struct how {
	bool writable;               /* a private copy the caller may write (copy-on-write) */
	size_t map_from;             /* the size from which a regular file is mapped */
	struct lbtfi_readbuf *reuse; /* read into this buffer (kept, grown), not a new one */
};

static int fd_read(int fd, const char *path, const struct how *how, void **buf, size_t *len,
		   bool *mapped)
{
	struct lbtfi_readbuf *rb = how->reuse;
	bool writable = how->writable;
	struct stat st;
	size_t cap, n = 0;
	char *p;

	*mapped = false;
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st)); /* unknown: just read() */
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size >= how->map_from) {
		p = mmap(NULL, st.st_size, PROT_READ | (writable ? PROT_WRITE : 0), MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			*buf = p;
			*len = st.st_size;
			*mapped = true;
			return 0;
		}
	}
	if (S_ISDIR(st.st_mode))
		return lbtfi_err(EISDIR, "%s: is a directory", path);
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 20;
	if (rb && rb->cap >= cap) {
		p = rb->data;
		cap = rb->cap;
	} else if (rb) {
		/* room for the next few: growing means new pages to fault in
		 * (untouched room costs nothing), and the old bytes are not needed */
		free(rb->data);
		rb->data = NULL;
		rb->cap = 0;
		cap = cap < REUSE_MIN ? REUSE_MIN : cap;
		p = malloc(cap);
	} else {
		p = malloc(cap);
	}
	for (;;) {
		ssize_t r;
		if (!p)
			return lbtfi_err(ENOMEM, "%s: out of memory", path);
		if (n == cap && LBTFI_GROW(p, cap, n + 1)) {
			if (!rb)
				free(p);
			return lbtfi_err(ENOMEM, "%s: out of memory", path);
		}
		if (rb) {
			rb->data = p;
			rb->cap = cap;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0) {
			int e = errno;
			if (!rb)
				free(p);
			return lbtfi_err(e, "%s: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		n += r;
	}
	*buf = p;
	*len = n;
	return 0;
}

int lbtfi_fd_read(int fd, const char *path, void **buf, size_t *len, bool *mapped)
{
	static const struct how how = { .map_from = MAP_FROM };

	return fd_read(fd, path, &how, buf, len, mapped);
}

int lbtfi_fd_read_private(int fd, const char *path, void **buf, size_t *len, bool *mapped)
{
	static const struct how how = { .writable = true, .map_from = MAP_FROM };

	return fd_read(fd, path, &how, buf, len, mapped);
}

static int file_read(const char *path, const struct how *how, void **buf, size_t *len,
		     bool *mapped)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return lbtfi_err(errno, "%s: %s", path, strerror(errno));
	err = fd_read(fd, path, how, buf, len, mapped);
	close(fd);
	return err;
}

int lbtfi_file_read(const char *path, void **buf, size_t *len, bool *mapped)
{
	static const struct how how = { .map_from = MAP_FROM };

	return file_read(path, &how, buf, len, mapped);
}

void lbtfi_file_unload(void *buf, size_t len, bool mapped)
{
	if (!buf)
		return;
	if (mapped)
		munmap(buf, len);
	else
		free(buf);
}

/* A named file, or standard input for "-" */
static int load(const char *path, const struct how *how, void **data, size_t *size, bool *mapped)
{
	return strcmp(path, "-") ? file_read(path, how, data, size, mapped)
				 : fd_read(STDIN_FILENO, path, how, data, size, mapped);
}

int lbtfi_file_load(const char *path, void **data, size_t *size, bool *mapped)
{
	static const struct how how = { .map_from = MAP_FROM };

	return load(path, &how, data, size, mapped);
}

int lbtfi_file_load_mapped(const char *path, void **data, size_t *size, bool *mapped)
{
	static const struct how how = { .map_from = 0 };

	return load(path, &how, data, size, mapped);
}

int lbtfi_file_load_reuse(const char *path, struct lbtfi_readbuf *rb, void **data, size_t *size,
			  bool *mapped)
{
	const struct how how = { .map_from = MAP_FROM, .reuse = rb };

	return load(path, &how, data, size, mapped);
}

void lbtfi_readbuf_free(struct lbtfi_readbuf *rb)
{
	free(rb->data);
	rb->data = NULL;
	rb->cap = 0;
}
