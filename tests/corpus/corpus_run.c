// SPDX-License-Identifier: BSD-2-Clause
/*
 * corpus_run OBJ [--xlated | --verifier-log FILE]: load a corpus BPF object with libbpf on the
 * running kernel, run every program once with BPF_PROG_TEST_RUN, and print
 * what an equal object must print the same: per program its return value,
 * whether it has BTF (btf_id) and how many func_info/line_info records the
 * kernel took; then every map's contents (global data sections, hash and
 * array maps sorted by key, per-CPU values summed over the CPUs, ring buffer
 * records, which PROG_ARRAY/map-in-map slots are filled). --xlated adds
 * `bpftool prog dump xlated id N linum` of each program with map ids blanked;
 * --verifier-log FILE loads every program at log level 2 and writes the
 * verifier's logs to FILE (source lines appear there as "; TEXT @ FILE:LINE"
 * when the object's line_info reached the kernel).
 * Exit 0 when everything loaded and ran, 1 otherwise (libbpf's log on stderr).
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>

/* An Ethernet + IPv4 + UDP frame: the packet every skb/XDP program gets */
static const unsigned char frame[64] = {
	0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00,
	0x45, 0, 0, 50, 0, 1, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
	0x30, 0x39, 0x00, 0x35, 0, 30, 0, 0,
	'c', 'o', 'r', 'p', 'u', 's',
};

__attribute__((format(printf, 2, 0)))
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static void hex(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		printf("%s%02x", i ? " " : "", b[i]);
}

static int run_prog(struct bpf_program *p)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);
	unsigned char out[256];
	enum bpf_prog_type t = bpf_program__type(p);
	int fd = bpf_program__fd(p), err;

	switch (t) {
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SOCKET_FILTER:
		o.data_in = frame;
		o.data_size_in = sizeof(frame);
		o.data_out = out;
		o.data_size_out = sizeof(out);
		o.repeat = 1;
		break;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_SYSCALL:
		break;
	default:
		printf("prog %s: not run (type %d)\n", bpf_program__name(p), t);
		return 0;
	}
	err = bpf_prog_test_run_opts(fd, &o);
	if (err) {
		fprintf(stderr, "corpus_run: %s: test run failed: %s\n", bpf_program__name(p), strerror(errno));
		return 1;
	}
	printf("prog %s: retval %u\n", bpf_program__name(p), o.retval);
	return 0;
}

static int prog_info(struct bpf_program *p, int xlated)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	char cmd[128], line[1024];
	regex_t re;
	FILE *f;

	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len)) {
		fprintf(stderr, "corpus_run: %s: no prog info: %s\n", bpf_program__name(p), strerror(errno));
		return 1;
	}
	printf("prog %s: btf %s, %u func_info, %u line_info\n", bpf_program__name(p),
	       info.btf_id ? "yes" : "no", info.nr_func_info, info.nr_line_info);
	if (!xlated)
		return 0;
	snprintf(cmd, sizeof(cmd), "bpftool prog dump xlated id %u linum", info.id);
	f = popen(cmd, "r");
	if (!f)
		return 1;
	regcomp(&re, "map\\[id:[0-9]+\\]", REG_EXTENDED);
	while (fgets(line, sizeof(line), f)) {
		regmatch_t m;
		char *s = line;

		while (!regexec(&re, s, 1, &m, 0)) {
			printf("%.*smap[id:N]", (int)m.rm_so, s);
			s += m.rm_eo;
		}
		fputs(s, stdout);
	}
	regfree(&re);
	return pclose(f) ? 1 : 0;
}

struct entry {
	unsigned char *key, *val;
	size_t ksz;
};

static int cmp_key_size;
static int cmp_entry(const void *a, const void *b)
{
	return memcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key, cmp_key_size);
}

static int ringbuf_record(void *ctx __attribute__((unused)), void *data, size_t size)
{
	printf("  record ");
	hex(data, size);
	printf("\n");
	return 0;
}

static int dump_map(struct bpf_map *m)
{
	enum bpf_map_type t = bpf_map__type(m);
	unsigned int ksz = bpf_map__key_size(m), vsz = bpf_map__value_size(m);
	int fd = bpf_map__fd(m), ncpu = libbpf_num_possible_cpus();
	bool percpu = t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
		      t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	size_t vbuf = percpu ? ((vsz + 7) / 8 * 8) * (size_t)ncpu : vsz;
	struct entry *e = NULL;
	size_t n = 0;
	void *prev = NULL, *key = calloc(1, ksz ? ksz : 1), *last = calloc(1, ksz ? ksz : 1);

	printf("map %s: type %d\n", bpf_map__name(m), t);
	if (t == BPF_MAP_TYPE_RINGBUF) {
		struct ring_buffer *rb = ring_buffer__new(fd, ringbuf_record, NULL, NULL);

		if (!rb || ring_buffer__consume(rb) < 0)
			return 1;
		ring_buffer__free(rb);
		free(key);
		free(last);
		return 0;
	}
	if (!ksz) {
		free(key);
		free(last);
		return 0;
	}
	while (!bpf_map_get_next_key(fd, prev, key)) {
		struct entry *ne = realloc(e, (n + 1) * sizeof(*e));

		if (!ne)
			return 1;
		e = ne;
		e[n].key = malloc(ksz);
		e[n].val = calloc(1, vbuf);
		memcpy(e[n].key, key, ksz);
		if (bpf_map_lookup_elem(fd, key, e[n].val)) {
			/* PROG_ARRAY / map-in-map slots: empty ones fail */
			free(e[n].key);
			free(e[n].val);
		} else {
			n++;
		}
		memcpy(last, key, ksz);
		prev = last;
	}
	cmp_key_size = (int)ksz;
	if (n) /* e is NULL for a map without entries */
		qsort(e, n, sizeof(*e), cmp_entry);
	for (size_t i = 0; i < n; i++) {
		printf("  key ");
		hex(e[i].key, ksz);
		if (t == BPF_MAP_TYPE_PROG_ARRAY || t == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    t == BPF_MAP_TYPE_HASH_OF_MAPS) {
			/* user space reads an id here: only whether the slot is set */
			printf(" set");
		} else if (percpu) {
			/* summed over the CPUs as 64-bit words (the runs land on any CPU) */
			size_t stride = (vsz + 7) / 8 * 8;
			printf(" sum");
			for (size_t w = 0; w + 8 <= vsz; w += 8) {
				unsigned long long s = 0, v;
				for (int c = 0; c < ncpu; c++) {
					memcpy(&v, e[i].val + c * stride + w, 8);
					s += v;
				}
				printf(" %llu", s);
			}
		} else {
			printf(" value ");
			hex(e[i].val, vsz);
		}
		printf("\n");
		free(e[i].key);
		free(e[i].val);
	}
	free(e);
	free(key);
	free(last);
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	struct bpf_map *m;
	int xlated = argc > 2 && !strcmp(argv[2], "--xlated"), rc = 0;
	const char *vlog_path = argc > 3 && !strcmp(argv[2], "--verifier-log") ? argv[3] : NULL;
	size_t vlog_size = 256u << 20; /* the flow dissector's level-1 log fits */
	char *vlog = NULL;
	FILE *vf;

	if (argc < 2 || (argc > 2 && !xlated && !vlog_path)) {
		fprintf(stderr, "usage: corpus_run OBJ [--xlated | --verifier-log FILE]\n");
		return 2;
	}
	libbpf_set_print(print_libbpf);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "corpus_run: %s: cannot open: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (vlog_path) {
		vlog = calloc(1, vlog_size);
		if (!vlog) {
			fprintf(stderr, "corpus_run: out of memory\n");
			return 1;
		}
		/* libbpf loads the programs one after the other into the
		 * buffers given: each program gets its own slice of one area */
		size_t n = 0, i = 0;

		bpf_object__for_each_program(p, obj)
			n++;
		bpf_object__for_each_program(p, obj) {
			bpf_program__set_log_level(p, 2);
			bpf_program__set_log_buf(p, vlog + i * (vlog_size / n), vlog_size / n);
			i++;
		}
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "corpus_run: %s: cannot load: %s\n", argv[1], strerror(errno));
		bpf_object__close(obj);
		return 1;
	}
	if (vlog_path) {
		vf = fopen(vlog_path, "w");
		if (!vf) {
			fprintf(stderr, "corpus_run: %s: %s\n", vlog_path, strerror(errno));
			return 1;
		}
		bpf_object__for_each_program(p, obj) {
			size_t len;
			const char *log = bpf_program__log_buf(p, &len);

			fprintf(vf, "prog %s:\n%s\n", bpf_program__name(p), log ? log : "");
		}
		if (fclose(vf)) {
			fprintf(stderr, "corpus_run: %s: %s\n", vlog_path, strerror(errno));
			return 1;
		}
		free(vlog);
	}
	bpf_object__for_each_program(p, obj)
		rc |= run_prog(p);
	bpf_object__for_each_program(p, obj)
		rc |= prog_info(p, xlated);
	bpf_object__for_each_map(m, obj)
		rc |= dump_map(m);
	bpf_object__close(obj);
	return rc;
}
