// SPDX-License-Identifier: BSD-2-Clause
/*
 * btf_load FILE LEVEL: the kernel's side of bench_verify.sh as a command, a
 * fresh process like btfcheck: read the raw BTF file, BPF_BTF_LOAD it at
 * log level LEVEL (with LEVEL > 0 into a buffer large enough for the log),
 * print the syscall's own nanoseconds. Exit 0 when the kernel answered
 * (loaded or rejected), 1 when it could not be asked.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define LOG_SIZE (256u << 20)

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_btf_load_opts, o);
	struct timespec a, b;
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap), *log = NULL;
	ssize_t r;
	int fd, level;

	if (argc != 3 || !buf) {
		fprintf(stderr, "usage: btf_load FILE LEVEL\n");
		return 1;
	}
	level = atoi(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap && !(buf = realloc(buf, cap *= 2)))
			return 1;
	}
	close(fd);
	if (level) {
		log = malloc(LOG_SIZE); /* the kernel touches what it writes */
		if (!log)
			return 1;
		log[0] = 0;
		o.log_buf = log;
		o.log_size = LOG_SIZE;
		o.log_level = level;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	fd = bpf_btf_load(buf, n, &o);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (fd < 0 && (errno == EPERM || errno == ENOSYS)) {
		perror("BPF_BTF_LOAD");
		return 1;
	}
	printf("%lld\n", (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
	return 0;
}
