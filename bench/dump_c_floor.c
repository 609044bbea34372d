// SPDX-License-Identifier: BSD-2-Clause
/*
 * The floor of a vmlinux.h (bench/bench_dump_c.sh): the least any tool
 * must do to turn a BTF file into a header of a given size, and nothing
 * more. It maps the file, walks every type record once (reading each
 * record's header is what sizing, checking or printing a type starts
 * with), and writes BYTES bytes of text made of the BTF's strings to
 * stdout in 64 KiB writes. No ordering, no names, no declarators.
 *
 *	dump_c_floor BTF_FILE BYTES > out.h
 *
 * Prints the number of types on stderr. Exit 0, or 1 with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (64u << 10)

struct hdr {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
};

/* The bytes a record takes (header, extra, vlen elements), 0 if unknown */
static size_t rec_size(const uint32_t *t)
{
	static const uint8_t extra[20] = { [1] = 4, [3] = 12, [14] = 4, [17] = 4 };
	static const uint8_t elem[20] = { [4] = 12, [5] = 12, [6] = 8, [13] = 8, [15] = 12,
					  [19] = 12 };
	unsigned int kind = (t[1] >> 24) & 0x7f, vlen = t[1] & 0xffffff;

	if (!kind || kind >= 20)
		return 0;
	return 12 + extra[kind] + (size_t)elem[kind] * vlen;
}

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "dump_c_floor: %s: %s\n", path, what);
	return 1;
}

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	const unsigned char *p, *types;
	const char *strs;
	unsigned long long want, done = 0;
	const struct hdr *h;
	uint32_t off = 0, n = 0, s = 1;
	struct stat st;
	int fd;

	if (argc != 3)
		return fprintf(stderr, "usage: dump_c_floor BTF_FILE BYTES\n"), 1;
	want = strtoull(argv[2], NULL, 10);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return fail(strerror(errno), argv[1]);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return fail(strerror(errno), argv[1]);
	h = (const void *)p;
	if ((size_t)st.st_size < sizeof(*h) || h->magic != 0xeb9f ||
	    (uint64_t)h->hdr_len + h->type_off + h->type_len > (uint64_t)st.st_size ||
	    (uint64_t)h->hdr_len + h->str_off + h->str_len > (uint64_t)st.st_size || !h->str_len)
		return fail("not raw BTF of this byte order", argv[1]);
	types = p + h->hdr_len + h->type_off;
	strs = (const char *)p + h->hdr_len + h->str_off;
	while (off + 12 <= h->type_len) {
		size_t r = rec_size((const uint32_t *)(types + off));

		if (!r)
			return fail("a type of unknown kind", argv[1]);
		off += r;
		n++;
	}
	while (done < want) {
		size_t len = want - done < CHUNK ? want - done : CHUNK;

		/* text from the strings, one name a line, as a header has */
		for (size_t i = 0; i < len; i++) {
			char c = strs[s];

			s = s + 1 < h->str_len ? s + 1 : 1;
			buf[i] = c ? c : '\n';
		}
		if (write(STDOUT_FILENO, buf, len) != (ssize_t)len)
			return fail(strerror(errno), "stdout");
		done += len;
	}
	fprintf(stderr, "%u types\n", n);
	return 0;
}
