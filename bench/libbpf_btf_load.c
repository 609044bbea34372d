// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbpf_btf_load OBJ...: libbpf's way from a BPF object file to its BTF in
 * the kernel, as a command (bench_verify.sh's peer of `btfcheck OBJ...`):
 * for each object in turn, bpf_object__open_file() (its BTF fixups), then
 * btf__load_into_kernel() of that BTF (what bpf_object__load() submits on a
 * kernel that needs no sanitization), nothing else. Like `btfcheck OBJ...`,
 * it goes on to the next object when one cannot be opened or is refused, so
 * both commands answer for every object. Exit 0 when every object's BTF
 * loaded, 1 when any was refused, 5 when the kernel does not let it load BTF.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	libbpf_set_print(quiet);
	int refused = 0;

	for (int i = 1; i < argc; i++) {
		struct bpf_object *obj = bpf_object__open_file(argv[i], NULL);
		int err;

		if (!obj) {
			refused = 1;
			continue;
		}
		err = btf__load_into_kernel(bpf_object__btf(obj));
		bpf_object__close(obj);
		if (err && (errno == EPERM || errno == ENOSYS))
			return 5;
		if (err)
			refused = 1;
	}
	return refused;
}
