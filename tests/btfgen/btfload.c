// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfload: ask the running kernel about BTF (needs root).
 *
 *   btfload FILE.btf     BPF_BTF_LOAD of a raw blob; prints the kernel's
 *                        verifier log and fails when it is rejected
 *   btfload --obj OBJ.o  libbpf opens and loads the object (its .BTF as is),
 *                        then every map must have been created with BTF
 *                        key/value type ids (as the kernel reports them)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "libbtf.h"

static char log_buf[16 << 20];

__attribute__((format(printf, 2, 0)))
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int load_raw(const char *path)
{
	LIBBPF_OPTS(bpf_btf_load_opts, o);
	struct lbtf *btf = lbtf_open_raw(path, NULL);
	const void *data;
	size_t size;
	int fd;

	if (!btf) {
		fprintf(stderr, "btfload: %s: %s\n", path, lbtf_errmsg());
		return 1;
	}
	data = lbtf_raw_data(btf, &size);
	fd = bpf_btf_load(data, size, &o);
	if (fd < 0) {
		/* again with the verifier log; print its last lines */
		int err = errno;
		size_t len, start;
		int lines = 0;

		o.log_buf = log_buf;
		o.log_size = sizeof(log_buf);
		o.log_level = 1;
		bpf_btf_load(data, size, &o);
		len = strnlen(log_buf, sizeof(log_buf));
		for (start = len; start > 0 && lines < 12; start--)
			lines += log_buf[start - 1] == '\n';
		fprintf(stderr, "btfload: %s: kernel rejected the BTF (%s)\n%s\n", path,
			strerror(err), log_buf + start);
		lbtf_free(btf);
		return 1;
	}
	printf("%s: kernel accepted %zu bytes of BTF\n", path, size);
	close(fd);
	lbtf_free(btf);
	return 0;
}

static int load_obj(const char *path)
{
	struct bpf_object *obj;
	struct bpf_map *map;
	int err, bad = 0, n = 0;

	libbpf_set_print(print_libbpf);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "btfload: %s: libbpf cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "btfload: %s: libbpf cannot load: %s\n", path, strerror(-err));
		bpf_object__close(obj);
		return 1;
	}
	bpf_object__for_each_map(map, obj) {
		struct bpf_map_info info = { 0 };
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(bpf_map__fd(map), &info, &len)) {
			fprintf(stderr, "btfload: %s: map %s: no info\n", path, bpf_map__name(map));
			bad++;
			continue;
		}
		n++;
		printf("%s: map %s btf_id=%u key_type_id=%u value_type_id=%u\n", path,
		       bpf_map__name(map), info.btf_id, info.btf_key_type_id, info.btf_value_type_id);
		/* internal maps (.data/.bss/.rodata) have only a value type */
		if (bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF)
			continue; /* the kernel takes no BTF for ring buffers */
		if (!info.btf_id || !info.btf_value_type_id ||
		    (!bpf_map__is_internal(map) && !info.btf_key_type_id)) {
			fprintf(stderr, "btfload: %s: map %s was created without BTF types\n", path,
				bpf_map__name(map));
			bad++;
		}
	}
	bpf_object__close(obj);
	if (!n) {
		fprintf(stderr, "btfload: %s: no maps\n", path);
		return 1;
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--obj"))
		return load_obj(argv[2]);
	if (argc == 2)
		return load_raw(argv[1]);
	fprintf(stderr, "usage: btfload FILE.btf | btfload --obj OBJ.o\n");
	return 2;
}
