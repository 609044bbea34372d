// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbpf_open [--load] OBJ: libbpf's own verdict on a BPF object, the
 * oracle of the object campaign (campaign.py) and of the in-place tests.
 * Prints one line:
 *   open ERRNO     bpf_object__open_file() failed (ERRNO > 0)
 *   open ok        it opened (without --load)
 *   load ok        --load: bpf_object__load() succeeded too
 *   load ERRNO     --load: it opened but did not load
 * libbpf's warnings go to stderr. Maps are never pinned: pin_root_path is
 * a directory that does not exist, so a pinned map fails the load instead
 * of touching the machine's bpffs. --load needs root (CAP_BPF).
 * Exit 0 when a verdict was printed, 2 on a usage error.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 2, 0)))
static int print_warn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = "/nonexistent/libbpf_open");
	bool load = argc == 3 && !strcmp(argv[1], "--load");
	struct bpf_object *obj;
	int err;

	if (argc != 2 + load) {
		fprintf(stderr, "usage: libbpf_open [--load] OBJ\n");
		return 2;
	}
	libbpf_set_print(print_warn);
	obj = bpf_object__open_file(argv[argc - 1], &oo);
	err = libbpf_get_error(obj);
	if (err) {
		printf("open %d\n", -err);
		return 0;
	}
	if (load) {
		err = bpf_object__load(obj);
		if (err)
			printf("load %d\n", -err);
		else
			printf("load ok\n");
	} else {
		printf("open ok\n");
	}
	bpf_object__close(obj);
	return fflush(stdout) ? 1 : 0;
}
