// SPDX-License-Identifier: BSD-2-Clause
/*
 * `btfdump map id N | pinned PATH | name NAME [--lookup KEY] [--net]
 * [--valid-json]`: dumps live BPF maps like `bpftool map dump` (or one
 * element like `bpftool map lookup`, whose words `map dump MAP` and
 * `map lookup MAP key KEY` are accepted too), keys and values formatted through the
 * map's BTF fetched from the kernel. The layout is libbtf's
 * (lbtf_map_dump_*); this file finds the maps and their BTF, map_walk.c
 * reads their elements.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "cli.h"
#include "commands.h"
#include "map_walk.h"

static const char *const prog = "btfdump";

struct map_args {
	const char *how;   /* "id", "pinned" or "name" */
	const char *what;
	char **key_words;  /* --lookup words */
	int nr_key_words;
	struct lbtf_data_opts opts;
};

/* A map we hold open, with what the kernel says about it. */
struct open_map {
	int fd;
	struct bpf_map_info info;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: btfdump [-j|-p] map {id N | pinned PATH | name NAME} "
		   "[--lookup KEY] [--net] [--valid-json]\n"
		   "       btfdump [-j|-p] map dump MAP | map lookup MAP key KEY  (bpftool's words)\n"
		   "  id N, pinned PATH, name NAME  the map(s): by id, bpffs path, or every map so named\n"
		   "  --lookup KEY   print one element (KEY: bytes, e.g. \"1 0 0 0\" or hex 01 00 00 00);\n"
		   "                 exit 1 if there is none (key KEY: the same)\n"
		   "  --net          __be16/32/64 in host order, flow keys' addresses as IP strings\n"
		   "  --valid-json   strict JSON (bitfields as numbers, 128-bit integers as strings)\n"
		   "  -h, --help     this text\n");
}

/* 0 parsed, 1 help printed, -1 a usage error (said). */
static int parse_args(int argc, char **argv, struct map_args *a)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--help") || !strcmp(w, "-h") || !strcmp(w, "help")) {
			usage(stdout);
			return 1; /* the caller exits 0 */
		} else if (!strcmp(w, "--net")) {
			a->opts.net = true;
		} else if (!strcmp(w, "--valid-json")) {
			a->opts.valid_json = true;
		} else if (!strcmp(w, "--lookup") || !strcmp(w, "key")) {
			a->key_words = argv + i + 1;
			while (i + 1 < argc && strncmp(argv[i + 1], "--", 2))
				i++, a->nr_key_words++;
			if (!a->nr_key_words) {
				cli_err(prog, "map: %s needs the key bytes", w);
				return -1;
			}
		} else if (!a->how && (!strcmp(w, "id") || !strcmp(w, "pinned") ||
				       !strcmp(w, "name")) && i + 1 < argc) {
			a->how = w;
			a->what = argv[++i];
		} else {
			cli_err(prog, "map: unexpected argument '%s' (see %s map --help)", w, prog);
			return -1;
		}
	}
	if (!a->how) {
		cli_err(prog, "map: which map? id N, pinned PATH or name NAME (see %s map --help)",
			prog);
		return -1;
	}
	return 0;
}

static int get_info(struct open_map *m)
{
	__u32 len = sizeof(m->info);

	memset(&m->info, 0, sizeof(m->info));
	if (bpf_obj_get_info_by_fd(m->fd, &m->info, &len)) {
		cli_err(prog, "map: can't get map info: %s", cli_bpf_strerror(errno));
		return -1;
	}
	return 0;
}

/* Is fd a map (and not a program or link pinned at that path)? */
static bool fd_is_map(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	return !strcmp(target, "anon_inode:bpf-map");
}

/* All maps named name (bpftool matches every one). */
static int open_by_name(const char *name, struct open_map **maps)
{
	__u32 id = 0;
	int n = 0;

	if (strlen(name) >= BPF_OBJ_NAME_LEN) {
		cli_err(prog, "map: name '%s' is longer than %d characters", name,
			BPF_OBJ_NAME_LEN - 1);
		return -1;
	}
	while (!bpf_map_get_next_id(id, &id)) {
		struct open_map m = { .fd = bpf_map_get_fd_by_id(id) };
		struct open_map *grown;

		if (m.fd < 0) {
			if (errno == ENOENT) /* gone meanwhile */
				continue;
			cli_err(prog, "map: can't open map id %u: %s", id, cli_bpf_strerror(errno));
			goto fail;
		}
		if (get_info(&m) || strncmp(name, m.info.name, BPF_OBJ_NAME_LEN)) {
			close(m.fd);
			continue;
		}
		grown = realloc(*maps, (n + 1) * sizeof(**maps));
		if (!grown) {
			close(m.fd);
			goto fail;
		}
		*maps = grown;
		(*maps)[n++] = m;
	}
	if (errno != ENOENT) {
		cli_err(prog, "map: can't walk map ids: %s", cli_bpf_strerror(errno));
		goto fail;
	}
	if (!n)
		cli_err(prog, "map: no map named '%s'", name);
	return n ? n : -1;
fail:
	while (n--)
		close((*maps)[n].fd);
	return -1;
}

/* Opens the maps the handle names; returns how many, or -1 (message printed). */
static int open_maps(const struct map_args *a, struct open_map **maps)
{
	struct open_map m;

	if (!strcmp(a->how, "name"))
		return open_by_name(a->what, maps);
	if (!strcmp(a->how, "id")) {
		char *end;
		unsigned long id = strtoul(a->what, &end, 0);

		if (!*a->what || *end || id > UINT_MAX) {
			cli_err(prog, "map: can't parse '%s' as an id", a->what);
			return -1;
		}
		m.fd = bpf_map_get_fd_by_id(id);
		if (m.fd < 0) {
			cli_err(prog, "map: no map with id %lu: %s", id, cli_bpf_strerror(errno));
			return -1;
		}
	} else {
		m.fd = bpf_obj_get(a->what);
		if (m.fd < 0) {
			cli_err(prog, "map: %s: %s", a->what, cli_bpf_strerror(errno));
			return -1;
		}
		if (!fd_is_map(m.fd)) {
			cli_err(prog, "map: %s: pinned object is not a map", a->what);
			close(m.fd);
			return -1;
		}
	}
	if (get_info(&m)) {
		close(m.fd);
		return -1;
	}
	*maps = malloc(sizeof(**maps));
	if (!*maps) {
		close(m.fd);
		return -1;
	}
	(*maps)[0] = m;
	return 1;
}

static bool is_per_cpu(__u32 type)
{
	return type == BPF_MAP_TYPE_PERCPU_HASH || type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH || type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

/*
 * The map's description for the printer and its BTF (NULL without a value
 * type, as bpftool decides). struct_ops values are typed by vmlinux BTF.
 */
static int describe(const struct open_map *om, struct lbtf_map_desc *d, struct lbtf **btf)
{
	const struct bpf_map_info *i = &om->info;

	*d = (struct lbtf_map_desc){
		.sz = sizeof(*d), .id = i->id, .type = i->type,
		.type_name = libbpf_bpf_map_type_str(i->type), .name = i->name,
		.flags = i->map_flags, .key_size = i->key_size, .value_size = i->value_size,
		.btf_id = i->btf_id, .btf_key_type_id = i->btf_key_type_id,
		.btf_value_type_id = i->btf_value_type_id,
	};
	if (is_per_cpu(i->type)) {
		int n = libbpf_num_possible_cpus();

		if (n <= 0) {
			cli_err(prog, "map: can't count possible CPUs");
			return -1;
		}
		d->nr_cpus = n;
	}
	*btf = NULL;
	if (i->btf_vmlinux_value_type_id) {
		*btf = lbtf_open_vmlinux();
		d->btf_value_type_id = i->btf_vmlinux_value_type_id;
	} else if (i->btf_value_type_id) {
		*btf = lbtf_open_kernel_id(i->btf_id, NULL);
	} else {
		return 0;
	}
	if (!*btf) {
		cli_err(prog, "map id %u: can't get BTF id %u: %s", i->id, i->btf_id,
			lbtf_errmsg());
		return -1;
	}
	return 0;
}

/* Maps whose elements are not reached by key: say so instead of failing
 * in the key walk. */
static bool has_no_keys(const struct open_map *om)
{
	__u32 t = om->info.type;

	if (t != BPF_MAP_TYPE_RINGBUF && t != BPF_MAP_TYPE_USER_RINGBUF)
		return false;
	cli_err(prog, "map id %u (%s '%s'): ringbuf maps hold no keys to dump; their "
		"records are read through the map's mmap (e.g. libbpf's ring_buffer__poll)",
		om->info.id, libbpf_bpf_map_type_str(t), om->info.name);
	return true;
}

static int dump_one(struct lbtf_map_dump *dump, const struct open_map *om)
{
	struct lbtf_map_desc d;
	struct lbtf *btf;
	int ret;

	if (describe(om, &d, &btf))
		return -1;
	if (lbtf_map_dump_begin(dump, &d, btf)) {
		cli_err(prog, "map id %u: %s", d.id, lbtf_errmsg());
		lbtf_free(btf);
		return -1;
	}
	ret = btfdump_map_walk(om->fd, &d, dump);
	lbtf_map_dump_end(dump);
	lbtf_free(btf);
	return ret;
}

/* Key bytes as bpftool reads them: numbers (base 0), or base 16 after "hex". */
static int parse_key(const struct map_args *a, unsigned char *key, __u32 size)
{
	__u32 n = 0;
	int base = 0;

	for (int i = 0; i < a->nr_key_words; i++) {
		char *copy = strdup(a->key_words[i]), *save = NULL;

		if (!copy)
			return -1;
		for (char *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
			char *end;
			unsigned long v;

			if (!n && !base && !strcmp(tok, "hex")) {
				base = 16;
				continue;
			}
			v = strtoul(tok, &end, base);
			if (*end || v > 0xff) {
				cli_err(prog, "map: --lookup: bad key byte '%s'", tok);
				free(copy);
				return -1;
			}
			if (n < size)
				key[n] = v;
			n++;
		}
		free(copy);
	}
	if (n != size) {
		cli_err(prog, "map: --lookup: key needs %u bytes, got %u", size, n);
		return -1;
	}
	return 0;
}

/* The exit status: 0 found, 1 no such key, 2 a bad key, 5 a failure. */
static int lookup(const struct map_args *a, const struct open_map *om)
{
	struct lbtf_map_desc d;
	struct lbtf *btf;
	unsigned char *key = NULL, *value = NULL;
	size_t vlen;
	int ret = CLI_EXIT_SYSTEM;

	if (has_no_keys(om) || describe(om, &d, &btf))
		return CLI_EXIT_SYSTEM;
	vlen = btfdump_value_buf_size(&d);
	key = calloc(1, d.key_size ?: 1);
	value = calloc(1, vlen ?: 1);
	if (!key || !value)
		goto out;
	if (parse_key(a, key, d.key_size)) {
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	if (bpf_map_lookup_elem(om->fd, key, value)) {
		if (errno != ENOENT) {
			cli_err(prog, "map id %u: lookup failed: %s", d.id, cli_bpf_strerror(errno));
			goto out;
		}
		lbtf_map_print_lookup(stdout, &d, btf, key, NULL, 0, &a->opts);
		ret = CLI_EXIT_NO; /* not found: non-zero exit, as bpftool */
		goto out;
	}
	/* a typed print that fails midway still ends well-formed, as bpftool's */
	lbtf_map_print_lookup(stdout, &d, btf, key, value, vlen, &a->opts);
	ret = 0;
out:
	free(key);
	free(value);
	lbtf_free(btf);
	return ret;
}

int btfdump_cmd_map(int argc, char **argv, const struct btfdump_opts *o)
{
	struct map_args a = { .opts = { .sz = sizeof(a.opts) } };
	struct open_map *maps = NULL;
	struct lbtf_map_dump *dump;
	const char *verb = NULL;
	bool typed = true;
	int n, ret = 0;

	/* bpftool's verbs: `map dump id N`, `map lookup id N key 1 0 0 0` */
	if (argc && !strcmp(argv[0], "dump"))
		argc--, argv++, verb = "dump";
	else if (argc && !strcmp(argv[0], "lookup"))
		argc--, argv++, verb = "lookup";
	n = parse_args(argc, argv, &a);
	if (n)
		return n > 0 ? cli_flush_stdout("btfdump") : CLI_EXIT_USAGE;
	if (verb && !strcmp(verb, "lookup") != !!a.key_words)
		return cli_fail(CLI_EXIT_USAGE, prog, "map %s: %s", verb, a.key_words ?
				"a key is for `map lookup`" : "which key? key BYTES (see btfdump map --help)");
	a.opts.json = o && o->json != BTFDUMP_PLAIN;
	a.opts.pretty = o && o->json == BTFDUMP_PRETTY;
	n = open_maps(&a, &maps);
	if (n < 0)
		return CLI_EXIT_SYSTEM;
	if (a.key_words) {
		if (n > 1) {
			cli_err(prog, "map: %d maps are named '%s', --lookup needs one",
				n, a.what);
			ret = CLI_EXIT_USAGE;
		} else {
			ret = lookup(&a, &maps[0]);
		}
		goto out;
	}
	for (int i = 0; i < n; i++) {
		if (has_no_keys(&maps[i])) { /* before anything is printed */
			ret = CLI_EXIT_SYSTEM;
			goto out;
		}
		/* bpftool types plain text only if all have BTF */
		typed = typed && maps[i].info.btf_id;
	}
	dump = lbtf_map_dump_new(stdout, n, typed, &a.opts);
	if (!dump) {
		cli_err(prog, "map: %s", lbtf_errmsg());
		ret = CLI_EXIT_SYSTEM;
		goto out;
	}
	for (int i = 0; i < n && !ret; i++)
		ret = dump_one(dump, &maps[i]) ? CLI_EXIT_SYSTEM : 0;
	lbtf_map_dump_free(dump);
out:
	for (int i = 0; i < n; i++)
		close(maps[i].fd);
	free(maps);
	if (cli_flush_stdout("btfdump") && !ret)
		ret = CLI_EXIT_SYSTEM;
	return ret;
}
