// SPDX-License-Identifier: BSD-2-Clause
/*
 * The oracle of the CO-RE tests: libbpf itself (1.8, built from its source
 * by scripts/build-libbpf.sh; tests/relo/lib.sh's need_oracle links it)
 * resolving an object's relocations against a target BTF (btf_custom_path),
 * its decisions read from its debug log as bpf_object__prepare() relocates
 * (no program reaches the kernel):
 *   relo_oracle OBJ TARGET_BTF
 * prints one line per relocation libbpf handled, "SECTION RELO# RESULT":
 *   value N [mem A->B]   the instruction patched to N (load size A -> B)
 *   poison               made an invalid call
 *   fail                 the load fails there (libbpf stops)
 * and, before them, one line per __ksym extern libbpf resolved against the
 * running kernel's BTF (btf_custom_path does not apply to externs):
 *   extern NAME ID | extern NAME missing | extern NAME incompatible
 * Needs the BPF syscall (root) since libbpf probes the kernel first.
 * RELO_ORACLE_LOG=1 copies libbpf's whole log to stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#define MAX_RELOS 4096

struct rec {
	char prog[128];
	int idx;
	char res[96];
};

static struct rec recs[MAX_RELOS];
static int nrecs;
static char externs[64][160];
static int nexterns;

static struct rec *get(const char *prog, int idx)
{
	for (int i = 0; i < nrecs; i++)
		if (recs[i].idx == idx && !strcmp(recs[i].prog, prog))
			return &recs[i];
	if (nrecs == MAX_RELOS)
		return NULL;
	snprintf(recs[nrecs].prog, sizeof(recs[nrecs].prog), "%s", prog);
	recs[nrecs].idx = idx;
	recs[nrecs].res[0] = '\0';
	return &recs[nrecs++];
}

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024], prog[128], *p;
	unsigned long long a, b;
	unsigned int ma, mb;
	struct rec *r;
	int idx;

	vsnprintf(line, sizeof(line), fmt, ap);
	if (getenv("RELO_ORACLE_LOG"))
		fputs(line, stderr);
	if ((p = strstr(line, "extern (")) && (p = strstr(p, "ksym) '")) && nexterns < 64) {
		char name[128];
		int id;

		if (sscanf(p, "ksym) '%127[^']'", name) != 1)
			return 0;
		p = strstr(p, "': ") + 3;
		/* 1.1: "resolved to kernel [ID]", 1.8: "resolved to vmlinux [ID]"
		 * (a module's name for a module's kfunc: not vmlinux, left out) */
		if (sscanf(p, "resolved to kernel [%d]", &id) == 1 ||
		    sscanf(p, "resolved to vmlinux [%d]", &id) == 1 || sscanf(p, "resolved to [%d]", &id) == 1)
			snprintf(externs[nexterns++], sizeof(externs[0]), "extern %s %d", name, id);
		else if (strstr(p, "not found"))
			snprintf(externs[nexterns++], sizeof(externs[0]), "extern %s missing", name);
		else if (strstr(p, "incompatible"))
			snprintf(externs[nexterns++], sizeof(externs[0]), "extern %s incompatible", name);
		return 0;
	}
	p = strstr(line, "prog '"); /* after libbpf's "libbpf: " */
	if (!p || sscanf(p, "prog '%127[^']': relo #%d: ", prog, &idx) != 2)
		return 0;
	if (!(r = get(prog, idx)))
		return 0;
	if (strstr(line, "substituting insn")) {
		snprintf(r->res, sizeof(r->res), "poison");
	} else if (strstr(line, "failed to relocate") || strstr(line, "failed to patch")) {
		snprintf(r->res, sizeof(r->res), "fail");
	} else if ((p = strstr(line, " mem_sz ")) && sscanf(p, " mem_sz %u -> %u", &ma, &mb) == 2) {
		size_t n = strlen(r->res);

		snprintf(r->res + n, sizeof(r->res) - n, " mem %u->%u", ma, mb);
	} else if ((p = strstr(line, "patched insn")) && (p = strstr(p, ") ")) &&
		   sscanf(strchr(p + 2, ' '), " %llu -> %llu", &a, &b) == 2) {
		snprintf(r->res, sizeof(r->res), "value %llu", b);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;

	if (argc != 3) {
		fprintf(stderr, "usage: relo_oracle OBJ TARGET_BTF\n");
		return 2;
	}
	libbpf_set_print(print);
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = argv[2]);
	obj = bpf_object__open_file(argv[1], &opts);
	if (!obj) {
		fprintf(stderr, "relo_oracle: cannot open %s\n", argv[1]);
		return 1;
	}
	/* relocation comes before map creation in prepare (libbpf >= 1.6; the
	 * system's 1.1 for the libbpf-1.1 rules has only load), which may fail
	 * for objects made for other kernels: fine */
#if LIBBPF_MAJOR_VERSION > 1 || LIBBPF_MINOR_VERSION >= 6
	bpf_object__prepare(obj);
#else
	bpf_object__load(obj);
#endif
	for (int i = 0; i < nexterns; i++)
		printf("%s\n", externs[i]);
	for (int i = 0; i < nrecs; i++) {
		const char *sec = NULL;

		bpf_object__for_each_program(prog, obj)
			if (!strcmp(bpf_program__name(prog), recs[i].prog))
				sec = bpf_program__section_name(prog);
		if (recs[i].res[0])
			printf("%s %d %s\n", sec ? sec : ".text", recs[i].idx, recs[i].res);
	}
	bpf_object__close(obj);
	return 0;
}
