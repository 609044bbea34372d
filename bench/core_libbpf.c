// SPDX-License-Identifier: BSD-2-Clause
/*
 * The peer of `btfcheck --target-btf TARGET OBJ` in bench/bench_core.sh,
 * which links it with libbpf 1.8 built from source: libbpf's open of OBJ with btf_custom_path = TARGET and its CO-RE
 * relocation, as one command. libbpf relocates inside bpf_object__load();
 * the process ends (_exit) as soon as libbpf has decided the N-th
 * relocation (patched or poisoned: its debug log's format strings, not
 * formatted), before any program reaches the kernel.
 *   core_libbpf OBJ TARGET N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static long left;

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (strstr(fmt, "relo #%d: ") &&
	    ((strstr(fmt, "patched insn #%d (") && !strstr(fmt, "mem_sz")) ||
	     strstr(fmt, "substituting insn")) &&
	    --left <= 0)
		_exit(0);
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;

	if (argc != 4 || (left = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: core_libbpf OBJ TARGET N (N > 0 relocations)\n");
		return 2;
	}
	libbpf_set_print(print);
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = argv[2]);
	obj = bpf_object__open_file(argv[1], &opts);
	if (!obj)
		return 1;
	bpf_object__load(obj);
	fprintf(stderr, "core_libbpf: %ld relocations never decided\n", left);
	return 1;
}
