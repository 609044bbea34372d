// SPDX-License-Identifier: BSD-2-Clause
/*
 * `btfdump ... format c [C OPTIONS]`: the BTF as a C header (vmlinux.h),
 * by default as the newest bpftool (v7.7+, libbpf 1.8) prints it: types in
 * its sorted order, the __ksym/__weak/__bpf_fastcall macros, the kfunc
 * prototypes (full dumps), attribute type tags as __attribute__((NAME)).
 *   --compat 7.1    bpftool 7.1's layout: id order, no macros, no kfuncs,
 *                   every type tag as btf_type_tag("NAME")
 *   --compat newest the default
 *   --sort, --unsorted  the sorted (default) or id order, in either layout
 *   --kfuncs        the kfunc prototypes also in the 7.1 layout
 *   --types A,B     only these types and what they need; a name may be
 *                   written "struct X", "union X", "enum X" to pick a kind;
 *                   all same-named types of the allowed kinds are included
 *   --output FILE   write FILE (through a temporary file, then renamed)
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "cli.h"
#include "commands.h"
#include "io/io.h"

static const char *const prog = "btfdump";

/* One error line, naming the input: "btfdump: SRC: format c: what: detail";
 * the exit status for errno err (0: a usage error). */
static int c_fail_errno(const struct btfdump_src *src, int err, const char *what,
			const char *detail)
{
	cli_err(prog, "%s: format c: %s%s%s", src->name, what,
		detail ? ": " : "", detail ? detail : "");
	return err ? cli_exit_for_errno(err) : CLI_EXIT_USAGE;
}

static int c_fail(const struct btfdump_src *src, const char *what, const char *detail)
{
	return c_fail_errno(src, 0, what, detail);
}

/* Appends the ids of every comma-separated name in list to *ids. */
static int add_roots(const struct lbtf *btf, const struct btfdump_src *src, char *list,
		     uint32_t **ids, size_t *cnt)
{
	char *name;

	while ((name = strsep(&list, ","))) {
		int n;
		uint32_t *grown;

		if (!*name)
			continue;
		n = lbtf_dump_c_find_types(btf, name, NULL, 0);
		if (n < 0)
			return c_fail(src, lbtf_errmsg(), NULL);
		if (n == 0)
			return c_fail(src, "no type named", name);
		grown = realloc(*ids, (*cnt + n) * sizeof(**ids));
		if (!grown)
			return c_fail_errno(src, ENOMEM, "out of memory", NULL);
		*ids = grown;
		lbtf_dump_c_find_types(btf, name, *ids + *cnt, n);
		*cnt += n;
	}
	return 0;
}

/* Writes the header to path atomically (temp file, then rename). */
static int write_to(const struct lbtf *btf, const struct btfdump_src *src, const char *path,
		    const struct lbtf_dump_c_opts *opts)
{
	char *tmp;
	int fd, fd2, err;
	FILE *f;

	/* the output must not be what the BTF is read from */
	if ((src->path && lbtfi_check_output(path, src->path, "input")) ||
	    (src->base_path && lbtfi_check_output(path, src->base_path, "base")))
		return c_fail(src, lbtf_errmsg(), NULL);
	fd = lbtfi_atomic_open(path, &tmp, 0644);
	if (fd < 0)
		return c_fail_errno(src, -fd, lbtf_errmsg(), NULL);
	/* the stream gets its own descriptor: the commit syncs and closes fd */
	fd2 = dup(fd);
	f = fd2 >= 0 ? fdopen(fd2, "w") : NULL;
	if (!f) {
		if (fd2 >= 0)
			close(fd2);
		lbtfi_atomic_commit(fd, tmp, path, -ENOMEM);
		return c_fail_errno(src, ENOMEM, strerror(ENOMEM), path);
	}
	err = lbtf_dump_c(btf, f, opts);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		const char *why = err == -EIO ? "writing failed" : lbtf_errmsg();
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", why);
		lbtfi_atomic_commit(fd, tmp, path, err);
		return c_fail_errno(src, -err, msg, path);
	}
	err = lbtfi_atomic_commit(fd, tmp, path, 0);
	if (err)
		return c_fail_errno(src, -err, lbtf_errmsg(), NULL);
	return 0;
}

/* stdout is a regular file: the header goes straight into it, and an error
 * half way cuts the file back to where it started (nothing of it kept),
 * without building 5 MB in memory first. */
static int print_into_file(const struct lbtf *btf, const struct btfdump_src *src,
			   const struct lbtf_dump_c_opts *opts, off_t start)
{
	int err = lbtf_dump_c(btf, stdout, opts);

	bool wrote = !err && !fflush(stdout) && !ferror(stdout);
	int e = errno ? errno : EIO;

	if (wrote)
		return 0;
	__fpurge(stdout); /* what is still buffered must not come out at exit */
	if (ftruncate(STDOUT_FILENO, start) == 0)
		lseek(STDOUT_FILENO, start, SEEK_SET);
	if (!err || err == -EIO)
		return c_fail_errno(src, err ? EIO : e, "write error on standard output",
				    strerror(err ? EIO : e));
	return c_fail_errno(src, -err, lbtf_errmsg(), NULL);
}

/* Prints the header on stdout, whole or not at all: into a regular file
 * directly (cut back on error), else made in memory first, so an error
 * found half way leaves nothing on stdout. */
static int print_whole(const struct lbtf *btf, const struct btfdump_src *src,
		       const struct lbtf_dump_c_opts *opts)
{
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	FILE *mem;
	off_t start;
	int err;

	fflush(stdout);
	if (!fstat(STDOUT_FILENO, &st) && S_ISREG(st.st_mode) &&
	    (start = lseek(STDOUT_FILENO, 0, SEEK_CUR)) >= 0 &&
	    !(fcntl(STDOUT_FILENO, F_GETFL) & O_APPEND))
		return print_into_file(btf, src, opts, start);
	mem = open_memstream(&buf, &len);
	if (!mem)
		return c_fail_errno(src, ENOMEM, "out of memory", NULL);
	err = lbtf_dump_c(btf, mem, opts);
	if (fclose(mem) && !err) {
		free(buf);
		return c_fail_errno(src, ENOMEM, "out of memory", NULL);
	}
	if (err) {
		free(buf);
		return c_fail_errno(src, -err, lbtf_errmsg(), NULL);
	}
	if ((len && fwrite(buf, 1, len, stdout) != len) || fflush(stdout) || ferror(stdout)) {
		int e = errno ? errno : EIO;

		free(buf);
		return c_fail_errno(src, e, "write error on standard output", strerror(e));
	}
	free(buf);
	return 0;
}

int btfdump_format_c(const struct lbtf *btf, const struct btfdump_src *src, int argc, char **argv,
		     const struct btfdump_opts *o)
{
	struct lbtf_dump_c_opts opts = { .sz = sizeof(opts) };
	const char *output = NULL, *compat = "newest";
	int sort = -1, kfuncs = -1; /* -1: as the layout has it */
	uint32_t *ids = NULL;
	size_t cnt = 0;
	int rc = 0;

	for (int i = 0; i < argc && !rc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--sort") || !strcmp(a, "sort")) {
			sort = 1;
		} else if (!strcmp(a, "--kfuncs")) {
			kfuncs = 1;
		} else if (!strcmp(a, "--unsorted") || !strcmp(a, "unsorted")) {
			sort = 0;
		} else if (!strcmp(a, "--compat") || !strncmp(a, "--compat=", 9)) {
			if (a[8] == '=')
				compat = a + 9;
			else if (i + 1 < argc)
				compat = argv[++i];
			else
				rc = c_fail(src, "missing value after", a);
			if (!rc && strcmp(compat, "7.1") && strcmp(compat, "newest"))
				rc = c_fail(src, "--compat takes 7.1 or newest, not", compat);
		} else if (!strncmp(a, "--types=", 8)) {
			rc = add_roots(btf, src, argv[i] + 8, &ids, &cnt);
		} else if (!strcmp(a, "--types") || !strcmp(a, "--output") || !strcmp(a, "-o")) {
			if (i + 1 >= argc)
				rc = c_fail(src, "missing value after", a);
			else if (a[2] == 't')
				rc = add_roots(btf, src, argv[++i], &ids, &cnt);
			else
				output = argv[++i];
		} else {
			rc = c_fail(src, "unknown option", a);
		}
	}
	if (!rc) {
		bool newest = !strcmp(compat, "newest");

		opts.sort = sort < 0 ? newest : sort;
		opts.kfuncs = kfuncs < 0 ? newest : kfuncs;
		opts.macros = newest;
		opts.attr_type_tags = newest;
		opts.root_ids = ids;
		opts.root_cnt = cnt;
		if (output && !cli_is_stdout(output))
			rc = write_to(btf, src, output, &opts);
		else
			rc = print_whole(btf, src, &opts);
	}
	free(ids);
	return rc;
}
