// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbpf_btf OBJ: what libbpf itself does with a BPF object's BTF on the
 * running kernel, the reference for btfcheck's object mode. Opens the
 * object (bpf_object__open_file) and loads it (bpf_object__load), keeping
 * libbpf's messages, and prints one line:
 *   open ERRNO                  libbpf would not open it
 *   btf ok                      its BTF loaded
 *   btf rejected ERRNO LINE     BPF_BTF_LOAD refused it; LINE is the last
 *                               line of the kernel log libbpf printed
 *   nobtf ERRNO                 it opened without BTF (no .BTF); ERRNO is
 *                               the load's result (0: loaded)
 *   unknown ERRNO               the load failed with no word on BTF
 * and, when it opened, a second line comparing the BTF libbpf holds after
 * the load (what it gave BPF_BTF_LOAD: this kernel needs no sanitization)
 * with libbtf's lbtf_object_btf() of the same file:
 *   bytes same | bytes differ at OFFSET (SIZE vs SIZE) | bytes error ERRNO
 * (without BTF: bytes none when libbtf also gives none).
 * With LIBBPF_BTF_TARGET=MAJOR.MINOR, the kernel pretends to be that old
 * for BTF: every BPF_BTF_LOAD (libbpf's feature probes included) of BTF
 * that needs a newer kernel (lbtf_min_kernel) fails with EINVAL, so libbpf
 * sanitizes as it would there, and the comparison is with the BTF libbpf
 * actually submitted (the largest blob: libbpf's feature probes are tiny),
 * against lbtf_object_btf() for that version.
 * Needs CAP_BPF (root).
 */
#include <bpf/btf.h>
#include <dlfcn.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"
#include "libbtf_object.h"
#include "io/io.h"

static uint32_t target;       /* KERNEL_VERSION code, 0: the real kernel */
static void *submitted;       /* the largest BTF BPF_BTF_LOAD took (not a probe) */
static size_t submitted_size;

/* libbpf's bpf() calls go through syscall(): the executable's definition
 * comes first for libbpf.so too */
long syscall(long nr, ...)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_bpf && a[0] == BPF_BTF_LOAD) {
		const union bpf_attr *attr = (const union bpf_attr *)a[1];
		const void *btf = (const void *)(uintptr_t)attr->btf;
		struct lbtf_min_kernel mk = { .sz = sizeof(mk) };

		if (target && (lbtf_min_kernel(btf, attr->btf_size, NULL, &mk) || mk.version > target)) {
			errno = EINVAL;
			return -1;
		}
		if (attr->btf_size > submitted_size) {
			free(submitted);
			submitted = malloc(attr->btf_size);
			if (submitted)
				memcpy(submitted, btf, attr->btf_size);
			submitted_size = submitted ? attr->btf_size : 0;
		}
	}
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static char *msgs;
static size_t msgs_len;

__attribute__((format(printf, 2, 0)))
static int keep(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *p;

	(void)level;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || !(p = realloc(msgs, msgs_len + n + 1)))
		return 0;
	msgs = p;
	vsnprintf(msgs + msgs_len, n + 1, fmt, ap);
	msgs_len += n;
	return n;
}

/* The last non-empty line of the text between from and to, tabs stripped */
static void print_last_line(const char *from, const char *to)
{
	const char *s;

	while (to > from && (to[-1] == '\n'))
		to--;
	for (s = to; s > from && s[-1] != '\n'; s--)
		;
	while (s < to && (*s == '\t' || *s == ' '))
		s++;
	printf("%.*s\n", (int)(to - s), s);
}

static void compare(const char *path, const struct btf *btf)
{
	LBTF_OPTS(lbtf_object_opts, oo);
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	const unsigned char *raw;
	__u32 raw_size;
	void *file;
	size_t size, i;
	bool mapped;

	if (target) {
		/* libbpf submitted a sanitized copy: compare that */
		oo.missing_features = LBTF_KFEAT_ALL & ~lbtf_kfeat_of_version(target);
		raw = submitted;
		raw_size = submitted_size;
	} else {
		raw = btf ? btf__raw_data(btf, &raw_size) : NULL;
	}
	if (!raw || lbtfi_file_load(path, &file, &size, &mapped)) {
		printf("bytes error %d\n", errno);
		return;
	}
	if (lbtf_object_btf(path, file, size, &oo, &ob)) {
		printf("bytes error %d\n", errno);
	} else {
		for (i = 0; i < raw_size && i < ob.size; i++)
			if (raw[i] != ((const unsigned char *)ob.data)[i])
				break;
		if (i == raw_size && i == ob.size)
			printf("bytes same\n");
		else
			printf("bytes differ at %zu (%u vs %zu)\n", i, raw_size, ob.size);
	}
	lbtf_object_btf_free(&ob);
	lbtfi_file_unload(file, size, mapped);
}

/* No BTF in libbpf: libbtf must give none either */
static void compare_none(const char *path)
{
	LBTF_OPTS(lbtf_object_opts, oo);
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	void *file;
	size_t size;
	bool mapped;

	if (lbtfi_file_load(path, &file, &size, &mapped)) {
		printf("bytes error %d\n", errno);
		return;
	}
	if (lbtf_object_btf(path, file, size, &oo, &ob))
		printf("bytes error %d\n", errno);
	else if (ob.data)
		printf("bytes differ: libbtf has %zu bytes of BTF\n", ob.size);
	else
		printf("bytes none\n");
	lbtf_object_btf_free(&ob);
	lbtfi_file_unload(file, size, mapped);
}

int main(int argc, char **argv)
{
	static const char begin[] = "-- BEGIN BTF LOAD LOG ---\n";
	struct bpf_object *obj;
	const char *e, *b, *end;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: libbpf_btf OBJ\n");
		return 2;
	}
	if (getenv("LIBBPF_BTF_TARGET")) {
		unsigned int a, b;

		if (sscanf(getenv("LIBBPF_BTF_TARGET"), "%u.%u", &a, &b) != 2) {
			fprintf(stderr, "libbpf_btf: bad LIBBPF_BTF_TARGET\n");
			return 2;
		}
		target = a << 16 | b << 8;
	}
	libbpf_set_print(keep);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		printf("open %d\n", errno);
		return 0;
	}
	err = bpf_object__load(obj);
	if (!bpf_object__btf(obj)) {
		printf("nobtf %d\n", err ? -err : 0);
		compare_none(argv[1]);
		bpf_object__close(obj);
		free(msgs);
		return 0;
	}
	e = msgs ? strstr(msgs, "BTF loading error: ") : NULL;
	if (e) {
		printf("btf rejected %d ", -atoi(e + strlen("BTF loading error: ")));
		b = strstr(e, begin);
		end = b ? strstr(b, "\n-- END BTF LOAD LOG --") : NULL;
		if (b && end)
			print_last_line(b + strlen(begin), end + 1);
		else
			printf("(no log)\n");
	} else if (btf__fd(bpf_object__btf(obj)) >= 0) {
		printf("btf ok\n");
	} else {
		printf("unknown %d\n", err ? -err : 0);
		if (msgs)
			fputs(msgs, stderr);
	}
	compare(argv[1], bpf_object__btf(obj));
	bpf_object__close(obj);
	free(msgs);
	free(submitted);
	return 0;
}
