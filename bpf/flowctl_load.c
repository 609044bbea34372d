// SPDX-License-Identifier: BSD-2-Clause
/*
 * Loading bpf_flow.o: libbpf loads the object's .BTF with BPF_BTF_LOAD, creates
 * the maps with their BTF key/value type ids and loads the program, after we
 * wrote the configuration into .rodata; optionally we pin.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "flowctl.h"

__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * $FLOW_OBJ, else $B/bpf/bpf_flow.o (the test runner sets B), else the one
 * beside this flowctl: bpf/bpf_flow.o in a build tree, or
 * ../lib/flowctl/bpf_flow.o where make install puts it.
 */
const char *flow_default_obj(void)
{
	static const char *const beside[] = { "bpf/bpf_flow.o", "../lib/flowctl/bpf_flow.o" };
	static char path[4200];
	const char *p = getenv("FLOW_OBJ");
	char exe[4000], *slash;
	size_t i;
	ssize_t n;

	if (p && *p)
		return p;
	p = getenv("B");
	if (p && *p) {
		snprintf(path, sizeof(path), "%s/bpf/bpf_flow.o", p);
		return path;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash && !strcmp(slash, "/flowctl")) {
			*slash = 0;
			for (i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
				snprintf(path, sizeof(path), "%s/%s", exe, beside[i]);
				if (!access(path, R_OK))
					return path;
			}
		}
	}
	return "build/bpf/bpf_flow.o";
}

void flow_load_opts_default(struct flow_load_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->path = flow_default_obj();
	o->cfg.continue_saddr = FLOW_DEFAULT_CONTINUE_SADDR;
	o->cfg.record_every = 0;	/* record nothing unless asked */
}

__attribute__((format(printf, 2, 0)))
static int silent_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* Keep libbpf's warnings (verifier logs) for FLOWCTL_DEBUG=1. */
	if (getenv("FLOWCTL_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/* .rodata holds exactly struct flow_config (see flow_config.h). */
static int set_config(struct bpf_object *obj, const struct flow_config *cfg,
		      char *err, size_t len)
{
	struct bpf_map *m;
	const char *name;
	size_t sz;
	size_t n;

	bpf_object__for_each_map(m, obj) {
		name = bpf_map__name(m);
		n = strlen(name);
		if (!bpf_map__is_internal(m) || n < 7 || strcmp(name + n - 7, ".rodata"))
			continue;
		if (!bpf_map__initial_value(m, &sz) || sz != sizeof(*cfg))
			return fail(err, len, -EINVAL,
				    "%s: .rodata is %zu bytes, expected struct flow_config (%zu)",
				    name, sz, sizeof(*cfg));
		return bpf_map__set_initial_value(m, cfg, sizeof(*cfg));
	}
	return fail(err, len, -ENOENT, "no .rodata (struct flow_config) in the object");
}

int flow_load(struct flow_obj *fo, const struct flow_load_opts *o, char *err, size_t len)
{
	struct bpf_program *entry;
	struct bpf_map *m;
	struct bpf_btf_info info;
	__u32 ilen = sizeof(info);
	int rc, btf_fd;

	memset(fo, 0, sizeof(*fo));
	fo->prog_fd = fo->keys_fd = -1;
	libbpf_set_print(silent_print);
	fo->obj = bpf_object__open_file(o->path, NULL);
	if (!fo->obj) {
		rc = -errno;
		return fail(err, len, rc, "%s: cannot open: %s", o->path, strerror(-rc));
	}
	rc = set_config(fo->obj, &o->cfg, err, len);
	if (rc)
		goto out;
	rc = bpf_object__load(fo->obj);
	if (rc) {
		fail(err, len, rc, "%s: load failed: %s (FLOWCTL_DEBUG=1 shows the log)",
		     o->path, strerror(-rc));
		goto out;
	}
	entry = bpf_object__find_program_by_name(fo->obj, "_dissect");
	m = bpf_object__find_map_by_name(fo->obj, "last_dissection");
	if (!entry || !m) {
		rc = fail(err, len, -ENOENT, "%s: _dissect or last_dissection missing", o->path);
		goto out;
	}
	fo->prog_fd = bpf_program__fd(entry);
	fo->keys_fd = bpf_map__fd(m);
	btf_fd = bpf_object__btf_fd(fo->obj);
	memset(&info, 0, sizeof(info));
	if (btf_fd >= 0 && !bpf_obj_get_info_by_fd(btf_fd, &info, &ilen))
		fo->btf_id = info.id;
	return 0;
out:
	flow_close(fo);
	return rc;
}

void flow_close(struct flow_obj *fo)
{
	if (fo->obj)
		bpf_object__close(fo->obj);
	memset(fo, 0, sizeof(*fo));
	fo->prog_fd = fo->keys_fd = -1;
}

int flow_pin(struct flow_obj *fo, const char *dir, char *err, size_t len)
{
	static const char *const names[] = { "prog", "last_dissection" };
	int fds[] = { fo->prog_fd, fo->keys_fd };
	char path[4096];
	size_t i;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return fail(err, len, -errno, "%s: %s", dir, strerror(errno));
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (bpf_obj_pin(fds[i], path))
			return fail(err, len, -errno, "pin %s: %s", path, strerror(errno));
	}
	return 0;
}
