// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfdump: prints BTF as bpftool prints it (raw text, JSON, C header) and
 * dumps live BPF maps with their types.
 *
 *   btfdump [-j|-p] [-c] [-B BASE] COMMAND ...
 *     file PATH [--base BASE] [format raw|c [C options]]
 *                               (a module's .BTF.base: libbtf reads .BTF over it,
 *                               or relocated onto BASE)
 *     id N [--base BASE] [format raw|c [C options]]
 *     map ...                   (see cmd_map.c)
 *     ext PATH                  .BTF.ext of a BPF object (see cmd_ext.c)
 *     PATH                      shorthand for `file PATH`
 *     btf dump file|id ...      bpftool's spelling, accepted as well
 *
 * Errors: one line on stderr naming the file and the problem; exit status
 * from cli/cli.h's table (2 usage, 4 bad input, 5 I/O or system).
 * Nothing is printed before the whole input has been parsed and checked.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "io/io.h"

static const char *prog = "btfdump";

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] COMMAND\n"
		"Commands:\n"
		"  file PATH [--base BASE] [format raw|c [C OPTIONS]]\n"
		"                      BTF of a raw file, an ELF .BTF section or /sys/kernel/btf/NAME;\n"
		"                      a module's .BTF over its own .BTF.base (distilled base), or\n"
		"                      relocated onto BASE as libbpf and the kernel do\n"
		"  id N [--base BASE] [format raw|c [C OPTIONS]]\n"
		"                      BTF object N loaded in the kernel\n"
		"  map {id N | pinned PATH | name NAME} [MAP OPTIONS]\n"
		"                      contents of a live BPF map with its types\n"
		"  ext PATH            .BTF.ext of an ELF BPF object: func_info, line_info and\n"
		"                      CO-RE relocations, named through its .BTF\n"
		"  PATH [...]          shorthand for `file PATH ...`\n"
		"  btf dump file|id .. bpftool's spelling of file and id\n"
		"  help                this text\n"
		"  map dump MAP, map lookup MAP key KEY   bpftool's spelling of map\n"
		"Options (before or after the command and its words):\n"
		"  -j, --json          compact JSON (as bpftool -j)\n"
		"  -p, --pretty        pretty JSON (as bpftool -p)\n"
		"  -c                  C header: shorthand for `format c`; C OPTIONS may follow PATH\n"
		"  -B, --base-btf BASE  base BTF for split BTF (module BTF under /sys/kernel/btf\n"
		"                      gets vmlinux by itself)\n"
		"  --base BASE         after PATH or N: the same as -B\n"
		"  -h, --help          this text\n"
		"  -V, --version       print the version\n"
		"C OPTIONS (after `format c`, or after PATH with -c); the default is the newest\n"
		"bpftool's header (v7.7+: sorted, __ksym/__weak/__bpf_fastcall, kfunc prototypes):\n"
		"  --compat 7.1|newest bpftool 7.1's layout (id order, no macros, no kfuncs,\n"
		"                      btf_type_tag(\"...\") for every type tag) or the default\n"
		"  --sort, --unsorted  name-based order (default; two kernels' headers diff\n"
		"                      cleanly) or id order (bpftool's `unsorted`)\n"
		"  --types NAME,...    only these types and what they need (struct X, union X,\n"
		"                      enum X pick a kind)\n"
		"  --kfuncs            the kfunc prototypes (extern ... __ksym) also with --compat 7.1\n"
		"  -o, --output FILE   write FILE (temporary file, then renamed); - for stdout\n"
		"MAP OPTIONS:\n"
		"  --lookup KEY        print one element (KEY: bytes, e.g. 1 0 0 0 or hex 01 00 00 00);\n"
		"                      exit 1 if there is none\n"
		"  --net               __be16/32/64 in host order, flow keys' addresses as IP strings\n"
		"  --valid-json        strict JSON (bitfields as numbers, 128-bit integers as strings)\n"
		"Exit status: 0 done, 1 --lookup found no element, 2 usage, 4 bad input,\n"
		"5 I/O or system error.\n",
		prog);
	return f == stderr ? CLI_EXIT_USAGE : cli_flush_stdout(prog);
}

/* A command line error: one line, exit status 2. */
#define fail(...) cli_fail(CLI_EXIT_USAGE, prog, __VA_ARGS__)

/* libbtf's last failure, prefixed with what was being opened unless it says so */
static int open_failed(const char *what)
{
	return cli_fail_lib(prog, what);
}

/* How a source is printed, gathered from the words after it. */
struct dump_req {
	const char *base_path;
	bool c_format;
	int c_argc;       /* words after `format c` */
	char **c_argv;
};

static int parse_dump_words(int argc, char **argv, struct dump_req *r)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (r->c_format && !r->c_argv && w[0] == '-' && strcmp(w, "--base") &&
		    strcmp(w, "-B") && strcmp(w, "--base-btf")) {
			/* -c PATH --sort ...: the C options, as after `format c` */
			r->c_argc = argc - i;
			r->c_argv = argv + i;
			return 0;
		} else if (!strcmp(w, "--base") || !strcmp(w, "-B") || !strcmp(w, "--base-btf")) {
			if (++i >= argc)
				return fail("%s needs a file argument", w);
			r->base_path = argv[i];
		} else if (!strcmp(w, "format")) {
			if (++i >= argc)
				return fail("format needs raw or c");
			if (!strcmp(argv[i], "raw")) {
				r->c_format = false;
			} else if (!strcmp(argv[i], "c")) {
				r->c_format = true;
				r->c_argc = argc - i - 1;
				r->c_argv = argv + i + 1;
				return 0;
			} else {
				return fail("unknown format '%s' (raw or c)", argv[i]);
			}
		} else {
			return fail("unexpected argument '%s'", w);
		}
	}
	return 0;
}

/* Prints btf as asked, then flushes stdout and reports write errors. */
static int print_btf(const struct lbtf *btf, const struct btfdump_src *src,
		     const struct dump_req *r, const struct btfdump_opts *o)
{
	int err;

	if (r->c_format)
		return btfdump_format_c(btf, src, r->c_argc, r->c_argv, o);
	if (o->json == BTFDUMP_PLAIN)
		err = lbtf_dump_raw(btf, stdout);
	else
		err = lbtf_dump_json(btf, stdout, o->json == BTFDUMP_PRETTY);
	if (err && !ferror(stdout))
		return cli_fail(CLI_EXIT_SYSTEM, prog, "write error on standard output: %s",
				strerror(-err));
	return cli_flush_stdout(prog);
}

typedef struct lbtf *(*open_fn)(const char *src, const struct lbtf *base);

static int split_hint(const char *path, const struct lbtf *base);

/* A file that did not open: the hint to the fix if there is one, else
 * libbtf's message (kept before the hint's look at the bytes). */
static int open_failed_hint(const char *path, const struct lbtf *base)
{
	char msg[512];
	int err = errno, rc;

	snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
	rc = split_hint(path, base);
	return rc ? rc : cli_fail_msg(prog, path, msg, err);
}

/*
 * A file that failed to open, or split BTF opened over a base the user
 * gave: is it split BTF without its base, or over the wrong one? Says so
 * and returns the exit status, or 0 when the bytes show neither. A module
 * with its own distilled base (.BTF.base) is neither: libbtf opened .BTF
 * over that or relocated it, and said why if it could not.
 */
static int split_hint(const char *path, const struct lbtf *base)
{
	int diag = LBTF_DIAG_NONE;
	const void *btf, *dist;
	size_t size, btf_size, dist_size;
	bool mapped, elf;
	void *data;

	if (!lbtfi_file_load(path, &data, &size, &mapped)) {
		btf = data;
		btf_size = size;
		elf = size >= 4 && !memcmp(data, "\177ELF", 4);
		/* an ELF file's .BTF (without a .BTF.base); a raw file as it is */
		if (!elf || (!lbtf_elf_btf(path, data, size, &btf, &btf_size) &&
			     lbtf_elf_btf_base(path, data, size, &dist, &dist_size) == -ENODATA))
			diag = lbtf_diagnose(btf, btf_size, base);
		lbtfi_file_unload(data, size, mapped);
	}
	if (diag != LBTF_DIAG_NEEDS_BASE && diag != LBTF_DIAG_BASE_MISMATCH)
		return 0;
	return cli_fail(CLI_EXIT_INPUT, prog, "%s: %s", path, lbtf_errmsg());
}

static struct lbtf *open_id(const char *src, const struct lbtf *base)
{
	char *end;
	unsigned long id;

	errno = 0;
	id = strtoul(src, &end, 0);
	if (errno || end == src || *end || id == 0 || id > UINT32_MAX) {
		fail("'%s' is not a BTF id", src);
		return NULL;
	}
	return lbtf_open_kernel_id(id, base);
}

/* `file PATH ...` and `id N ...`: argv[0] is the source. */
static int dump_source(int argc, char **argv, const struct btfdump_opts *o,
		       struct dump_req *r, open_fn open, const char *what)
{
	struct lbtf *base = NULL, *btf;
	int rc;

	if (argc < 1)
		return fail("%s: missing %s", what, what);
	rc = parse_dump_words(argc - 1, argv + 1, r);
	if (rc)
		return rc;
	if (r->c_format && !r->c_argv) /* -c: no C options, an empty list */
		r->c_argv = argv + argc;
	if (r->base_path) {
		base = lbtf_open(r->base_path, NULL);
		if (!base)
			return open_failed(r->base_path);
		if ((rc = cli_check_base(prog, r->base_path, base))) {
			lbtf_free(base);
			return rc;
		}
	}
	errno = 0;
	btf = open(argv[0], base);
	if (!btf) {
		if (open == open_id && errno == 0) /* bad id syntax, already said */
			rc = CLI_EXIT_USAGE;
		else if (open == open_id && errno == EPERM)
			rc = cli_fail(CLI_EXIT_SYSTEM, prog, "%s (" CLI_BPF_NEEDS ")", lbtf_errmsg());
		else if (open == open_id)
			rc = open_failed("");
		else
			rc = open_failed_hint(argv[0], base);
	} else if (!base || open == open_id || !(rc = split_hint(argv[0], base))) {
		char name[64];
		struct btfdump_src src = { argv[0], argv[0], r->base_path };

		if (open == open_id) {
			snprintf(name, sizeof(name), "id %s", argv[0]);
			src.name = name;
			src.path = NULL;
		}
		rc = print_btf(btf, &src, r, o);
	}
	lbtf_free(btf);
	lbtf_free(base);
	return rc;
}

static int cmd_file(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r)
{
	return dump_source(argc, argv, o, r, lbtf_open, "file");
}

static int cmd_id(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r)
{
	return dump_source(argc, argv, o, r, open_id, "id");
}

static int cmd_map(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r)
{
	return btfdump_cmd_map(argc, argv, o);
}

static int cmd_ext(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r)
{
	return btfdump_cmd_ext(argc, argv, o);
}

static int cmd_help(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r)
{
	return usage(stdout);
}

/* `btf dump file|id ...`, bpftool's own words */
static int cmd_btf(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r);

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r);
} commands[] = {
	{ "file", cmd_file },
	{ "id", cmd_id },
	{ "map", cmd_map },
	{ "ext", cmd_ext },
	{ "btf", cmd_btf },
	{ "help", cmd_help },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int cmd_btf(int argc, char **argv, const struct btfdump_opts *o, struct dump_req *r)
{
	const struct command *c;

	if (argc < 2 || strcmp(argv[0], "dump") ||
	    !(c = find_command(argv[1])) || (c->run != cmd_file && c->run != cmd_id))
		return fail("expected `btf dump file PATH` or `btf dump id N`");
	return c->run(argc - 2, argv + 2, o, r);
}

/* A global option word (or a bundle of -j, -p, -c), and whether it takes
 * the next word as its value. */
static bool is_global_option(const char *w, bool after_map, bool *takes_value)
{
	*takes_value = !strcmp(w, "-B") || !strcmp(w, "--base-btf");
	if (*takes_value || !strncmp(w, "--base-btf=", 11) || !strcmp(w, "--json") ||
	    !strcmp(w, "--pretty") || !strcmp(w, "-V") || !strcmp(w, "--version"))
		return true;
	/* `map ... -h` is the map command's own help */
	if (!strcmp(w, "-h") || !strcmp(w, "--help"))
		return !after_map;
	return w[0] == '-' && w[1] && strspn(w + 1, "jpc") == strlen(w + 1);
}

/*
 * Options after the command's words (`btfdump x.o -j`), as bpftool and GNU
 * getopt accept them: the global options are moved, in their order, before
 * the first word that is not one, where getopt then reads them. The value
 * of a command's own option (-o FILE, --types LIST, --compat V, --base
 * FILE) and the map named by id/pinned/name stay where they are, and
 * nothing after "--" moves.
 */
static void hoist_global_options(int argc, char **argv)
{
	static const char *const valued[] = {
		"-o", "--output", "--types", "--compat", "--base", "id", "pinned", "name",
	};
	int front = 1; /* where the next global option goes */
	bool in_command = false, after_map = false;

	for (int i = 1; i < argc; i++) {
		char *w = argv[i];
		bool takes_value;
		int n;

		if (!strcmp(w, "--"))
			return;
		/* (-B without its value stays, for its own error) */
		if (is_global_option(w, after_map, &takes_value) && (!takes_value || i + 1 < argc)) {
			n = takes_value ? 2 : 1;
			if (in_command) {
				char *moved[2] = { argv[i], n == 2 ? argv[i + 1] : NULL };

				memmove(argv + front + n, argv + front, (i - front) * sizeof(*argv));
				memcpy(argv + front, moved, n * sizeof(*argv));
			}
			front += n;
			i += n - 1;
			continue;
		}
		if (!in_command)
			after_map = !strcmp(w, "map");
		in_command = true;
		for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			if (!strcmp(w, valued[k]) && i + 1 < argc) {
				i++;
				break;
			}
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "base-btf", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char stdout_buf[1 << 17];
	struct btfdump_opts o = { BTFDUMP_PLAIN };
	struct dump_req r = { NULL };
	const struct command *c;
	int opt;

	cli_hold_stdout();
	setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	opterr = 0; /* unknown options are reported below, in one line */
	lbtfi_atomic_cleanup_on_signals(); /* format c -o writes through a temporary file */
	hoist_global_options(argc, argv);
	while ((opt = getopt_long(argc, argv, "+jpcB:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			if (o.json == BTFDUMP_PLAIN)
				o.json = BTFDUMP_JSON;
			break;
		case 'p':
			o.json = BTFDUMP_PRETTY;
			break;
		case 'c':
			r.c_format = true;
			break;
		case 'B':
			r.base_path = optarg;
			break;
		case 'h':
			return usage(stdout);
		case 'V':
			return cli_print_version(prog);
		default:
			return cli_bad_option(prog, "+jpcB:hV", argv[optind - 1], optopt);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		return fail("missing command or file (see %s --help)", prog);
	c = find_command(argv[0]);
	if (c)
		return c->run(argc - 1, argv + 1, &o, &r);
	/* `btfdump PATH ...` */
	return cmd_file(argc, argv, &o, &r);
}
