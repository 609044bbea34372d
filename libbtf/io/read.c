// SPDX-License-Identifier: BSD-2-Clause
/* Whole input files: mapped when they can be, read when they cannot. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io.h"
#include "libbtf.h"
#include "util/err.h"
#include "util/grow.h"

/*
 * Smaller regular files are read, larger ones mapped. Unmapping a file
 * mapping whose pages were touched costs many times a read() of a BPF
 * object's few KiB on a VM: a CI gate over many objects would spend most
 * of its time in munmap. vmlinux-sized BTF (MBs) is mapped, not copied.
 */
#define MAP_FROM (1u << 20)
/* the least a reused read buffer holds (BPF objects are mostly smaller) */
#define REUSE_MIN (64u << 10)
/*
 * With a reused buffer (many files in turn), a file from this size on is
 * mapped: a BPF object that large is mostly DWARF, which a read copies
 * whole (~160 pages for a libbpf-bootstrap object of 660 KB) while its
 * check touches only the headers, symbols and .BTF pages of a mapping.
 */
#define REUSE_MAP_FROM (256u << 10)

/* How a file is taken in */
struct how {
	bool writable;               /* a private copy the caller may write (copy-on-write) */
	size_t map_from;             /* the size from which a regular file is mapped */
	size_t populate_below;       /* a mapping under this size is populated (read-only ones) */
	struct lbtfi_readbuf *reuse; /* read into this buffer (kept, grown), not a new one */
};

/* read() until n bytes or the end; the count read, or -1 (errno set) */
static ssize_t read_upto(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += r;
	}
	return got;
}

static uint32_t hdr_u32(const unsigned char *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

#define HEAD_LEN 24 /* a BTF header; an ELF magic */

/*
 * How much of a stream (a pipe, a device, a terminal, standard input: no
 * size to go by) is read, from its first bytes (n of them, fewer than
 * HEAD_LEN only at its end): no more than the format they begin allows, so
 * that /dev/zero or an endless pipe fails at once instead of filling
 * memory. BTF: the length its header gives, up to the kernel's limit
 * (BTF_MAX_SIZE, 16 MiB), and one byte more so the parser sees anything
 * that follows. ELF: its sections may lie anywhere in 2^64 bytes, so it is
 * read from a regular file only. Anything else: those first bytes, enough
 * for the parsers to say what it is not.
 */
static int stream_bound(const char *path, const unsigned char *head, size_t n, size_t *bound)
{
	uint64_t types_end, strs_end, total;
	bool be;

	*bound = n;
	if (n >= 4 && !memcmp(head, "\177ELF", 4))
		return lbtfi_err(EINVAL, "%s: an ELF file, but not a regular file: ELF is read "
				 "from a regular file only", path);
	if (n < HEAD_LEN || !((head[0] == 0x9f && head[1] == 0xeb) ||
			      (head[0] == 0xeb && head[1] == 0x9f)))
		return 0;
	be = head[0] == 0xeb;
	types_end = (uint64_t)hdr_u32(head + 8, be) + hdr_u32(head + 12, be);
	strs_end = (uint64_t)hdr_u32(head + 16, be) + hdr_u32(head + 20, be);
	total = hdr_u32(head + 4, be) + (types_end > strs_end ? types_end : strs_end);
	if (total > LBTF_MAX_FILE_SIZE)
		return lbtfi_err(E2BIG, "%s: its BTF header gives %llu bytes, more than the "
				 "kernel's limit of %u", path, (unsigned long long)total,
				 LBTF_MAX_FILE_SIZE);
	*bound = total < n ? n : total + 1;
	return 0;
}

static int fd_read(int fd, const char *path, const struct how *how, void **buf, size_t *len,
		   bool *mapped)
{
	struct lbtfi_readbuf *rb = how->reuse;
	bool writable = how->writable;
	unsigned char head[HEAD_LEN];
	size_t cap, n = 0, limit = SIZE_MAX;
	struct stat st;
	char *p;

	*mapped = false;
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st)); /* unknown: read as a stream */
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size >= how->map_from) {
		/* (a writable private mapping populated would be a copy of
		 * every page: copy-on-write is broken at population) */
		bool populate = !writable && (size_t)st.st_size < how->populate_below;

		p = mmap(NULL, st.st_size, PROT_READ | (writable ? PROT_WRITE : 0),
			 MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
		if (p != MAP_FAILED) {
			*buf = p;
			*len = st.st_size;
			*mapped = true;
			return 0;
		}
	}
	if (S_ISDIR(st.st_mode))
		return lbtfi_err(EISDIR, "%s: is a directory", path);
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		cap = (size_t)st.st_size + 1;
	} else {
		/* a stream (or a file that does not say its size, as in
		 * /proc): read as far as its first bytes allow */
		ssize_t h = read_upto(fd, head, sizeof(head));
		int err;

		if (h < 0) {
			int e = errno;

			return lbtfi_err(e, "%s: %s", path, lbtfi_strerror(e));
		}
		if ((err = stream_bound(path, head, h, &limit)))
			return err;
		n = h;
		cap = limit ? limit : 1;
	}
	if (rb && rb->cap >= cap) {
		p = rb->data;
		cap = rb->cap;
	} else if (rb) {
		/* room for the next few: growing means new pages to fault in
		 * (untouched room costs nothing), and the old bytes are not needed */
		free(rb->data);
		rb->data = NULL;
		rb->cap = 0;
		cap = cap < REUSE_MIN && !rb->last ? REUSE_MIN : cap;
		p = malloc(cap);
	} else {
		p = malloc(cap);
	}
	if (p && n)
		memcpy(p, head, n);
	while (n < limit) {
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
		r = read(fd, p + n, (cap < limit ? cap : limit) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			if (!rb)
				free(p);
			return lbtfi_err(e, "%s: %s", path, lbtfi_strerror(e));
		}
		if (r == 0)
			break;
		n += r;
		/*
		 * A regular file: all fstat said, and the read asked for more
		 * (room is at least st_size + 1 bytes), so it stopped at the
		 * end: no second read() to see the end again. A file that grew
		 * filled the room and one that shrank stops short of st_size:
		 * both read on until read() gives 0.
		 */
		if (S_ISREG(st.st_mode) && n == (size_t)st.st_size)
			break;
	}
	if (!p)
		return lbtfi_err(ENOMEM, "%s: out of memory", path);
	if (rb) {
		rb->data = p;
		rb->cap = cap;
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
	/* openat, not open: musl's open() follows O_CLOEXEC with an fcntl
	 * setting it again (for kernels before 2.6.23), its openat does not */
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return lbtfi_err(errno, "%s: %s", path, lbtfi_strerror(errno));
	err = fd_read(fd, path, how, buf, len, mapped);
	close(fd);
	return err;
}

int lbtfi_file_read(const char *path, void **buf, size_t *len, bool *mapped)
{
	static const struct how how = { .map_from = MAP_FROM };

	return file_read(path, &how, buf, len, mapped);
}

int lbtfi_file_writable(void *data, size_t size, bool mapped)
{
	/* (read: malloc'ed memory, writable already) */
	return mapped && size ? mprotect(data, size, PROT_READ | PROT_WRITE) : 0;
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
	bool full = rb->max_maps && rb->nmaps >= rb->max_maps;
	const struct how how = { .map_from = full ? SIZE_MAX : rb->map_from ? rb->map_from : REUSE_MAP_FROM,
				 .populate_below = rb->populate_below, .reuse = rb };
	int err = load(path, &how, data, size, mapped);

	if (!err && *mapped)
		rb->nmaps++;
	return err;
}

void lbtfi_readbuf_free(struct lbtfi_readbuf *rb)
{
	free(rb->data);
	rb->data = NULL;
	rb->cap = 0;
}

int lbtfi_regular_file_read(const char *path, size_t max, char **text, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO without a writer would wait for one */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t got;
	char *p;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return lbtfi_err(errno, "%s: %s", path, lbtfi_strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return lbtfi_err(e, "%s: %s", path, lbtfi_strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return lbtfi_err(EINVAL, "%s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return lbtfi_err(EFBIG, "%s: larger than %zu bytes (%lld)", path, max,
				 (long long)st.st_size);
	}
	p = malloc((size_t)st.st_size + 1);
	if (!p) {
		close(fd);
		return lbtfi_err(ENOMEM, "%s: out of memory", path);
	}
	/* no more than fstat said: a file growing meanwhile stays bounded */
	got = read_upto(fd, p, st.st_size);
	if (got < 0) {
		int e = errno;

		free(p);
		close(fd);
		return lbtfi_err(e, "%s: %s", path, lbtfi_strerror(e));
	}
	close(fd);
	p[got] = '\0';
	*text = p;
	*len = got;
	return 0;
}
