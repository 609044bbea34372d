// SPDX-License-Identifier: BSD-2-Clause
/* btfgen's command line: the options onto lbtf_encode_opts, and the
 * combinations that make no job refused with a usage error. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cli.h"
#include "report.h"
#include "libbtf.h"
#include "libbtf_dwarf.h"
#include "io/io.h"

static void usage(const char *prog, FILE *f)
{
	fprintf(f,
		"usage: %s [-j N] [-o OUT.btf | --in-place] [--base BASE] [--features LIST] [--layout] [--sort-types] [-v] INPUT\n"
		"       %s --min-core --target-btf FULL.btf -o MIN.btf [-v] OBJ...\n"
		"  Converts the DWARF debug info of INPUT (ELF: BPF object, program, vmlinux) to BTF.\n"
		"  -o, --output OUT.btf  write a raw BTF blob (atomically); - for standard output\n"
		"  --in-place            add or replace the .BTF section of INPUT\n"
		"  -j, --jobs N          worker threads (default: online CPUs); same output for any N\n"
		"  --base BASE           emit split BTF over BASE (raw BTF or ELF with .BTF)\n"
		"  --distilled-base      with --in-place --base: split BTF over a distilled base,\n"
		"                        written as .BTF.base (out-of-tree kernel modules)\n"
		"  --style STYLE         whose conventions: clang (the default) or pahole (its\n"
		"                        type graph: flat int-indexed arrays, static FUNCs, every\n"
		"                        type kept); arrays over a base are spelled as the base's\n"
		"  --features LIST       comma list of float,enum64,type_tag,decl_tag,func,var,\n"
		"                        percpu_var,dedup,reuse; default, all, none; -NAME removes one\n"
		"                        (a list starting with -NAME changes the defaults: all but\n"
		"                        percpu_var; kernel images: percpu_var not var)\n"
		"  --progress, --no-progress\n"
		"                        a progress line on stderr, erased at the end (default:\n"
		"                        on a terminal, for runs over a second; never as pahole)\n"
		"  --min-core            minimal BTF: of FULL.btf (--target-btf), only what the\n"
		"                        CO-RE relocations of the BPF objects OBJ... need, so that\n"
		"                        libbpf resolves them with it as with FULL\n"
		"  --target-btf FULL.btf the target kernel's BTF for --min-core\n"
		"  --layout              add a layout section (libbpf 1.8, pahole's layout feature;\n"
		"                        base BTF only: kernels before it refuse such BTF)\n"
		"  --sort-types          types in name order, as the kernel build leaves them\n"
		"                        (lookups binary-search); not with a .BTF.ext\n"
		"  -v, --verbose         print notes and statistics on stderr\n"
		"  -h, --help            this text\n"
		"  -V, --version         print the version\n"
		"Exit status: 0 done, 2 usage, 4 bad input, 5 I/O or system error.\n",
		prog, prog);
}

static int parse_jobs(const char *s, int *jobs)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 1024)
		return -1;
	*jobs = (int)v;
	return 0;
}

enum { OPT_IN_PLACE = 256, OPT_BASE, OPT_FEATURES, OPT_DISTILLED_BASE, OPT_STYLE,
       OPT_PROGRESS, OPT_NO_PROGRESS, OPT_MIN_CORE, OPT_TARGET_BTF, OPT_LAYOUT,
       OPT_SORT_TYPES };
static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "features", required_argument, NULL, OPT_FEATURES },
	{ "distilled-base", no_argument, NULL, OPT_DISTILLED_BASE },
	{ "style", required_argument, NULL, OPT_STYLE },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "min-core", no_argument, NULL, OPT_MIN_CORE },
	{ "target-btf", required_argument, NULL, OPT_TARGET_BTF },
	{ "layout", no_argument, NULL, OPT_LAYOUT },
	{ "sort-types", no_argument, NULL, OPT_SORT_TYPES },
	{ "jobs", required_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* One option into a: -1, or the exit status */
static int take_option(const char *prog, int c, struct btfgen_args *a, char **argv)
{
	struct lbtf_encode_opts *o = &a->o;

	switch (c) {
	case 'j':
		if (parse_jobs(optarg, &o->jobs))
			return cli_fail(CLI_EXIT_USAGE, prog, "-j: '%s' is not a thread count (1-1024)",
					optarg);
		break;
	case 'o':
		a->out = optarg;
		break;
	case OPT_IN_PLACE:
		o->in_place = true;
		break;
	case OPT_BASE:
		o->base_path = optarg;
		break;
	case OPT_DISTILLED_BASE:
		o->distilled_base = true;
		break;
	case OPT_PROGRESS:
	case OPT_NO_PROGRESS:
		a->progress = c == OPT_PROGRESS;
		break;
	case OPT_STYLE:
		if (!strcmp(optarg, "clang") || !strcmp(optarg, "pahole")) {
			o->style = *optarg == 'p' ? LBTF_DWARF_STYLE_PAHOLE : LBTF_DWARF_STYLE_CLANG;
			break;
		}
		return cli_fail(CLI_EXIT_USAGE, prog, "--style: '%s' is neither clang nor pahole",
				optarg);
	case OPT_MIN_CORE:
		a->min_core = true;
		break;
	case OPT_TARGET_BTF:
		a->target_btf = optarg;
		break;
	case OPT_LAYOUT:
		o->layout = true;
		break;
	case OPT_SORT_TYPES:
		o->sort_types = true;
		break;
	case OPT_FEATURES:
		if (lbtf_dwarf_parse_features(optarg, &o->features))
			return cli_fail(CLI_EXIT_USAGE, prog, "--features: %s", lbtf_errmsg());
		break;
	case 'v':
		a->verbose = true;
		break;
	case 'h':
		usage(prog, stdout);
		return cli_flush_stdout(prog);
	case 'V':
		return cli_print_version(prog);
	default:
		return cli_bad_option(prog, "j:o:vhV", argv[optind - 1], optopt);
	}
	return -1;
}

/* --min-core's command line: -1 or the exit status */
static int check_min_core(const char *prog, int argc, char **argv, struct btfgen_args *a)
{
	const struct lbtf_encode_opts *o = &a->o;

	if (!a->min_core || !a->target_btf || !a->out || o->in_place || o->base_path ||
	    o->distilled_base)
		return cli_fail(CLI_EXIT_USAGE, prog, "minimal BTF: --min-core --target-btf "
				"FULL.btf -o MIN.btf OBJ... (and no other output option)");
	if (optind >= argc)
		return cli_fail(CLI_EXIT_USAGE, prog, "--min-core: missing OBJ (see %s --help)",
				prog);
	for (int i = optind; i < argc; i++)
		if (lbtfi_check_output(a->out, argv[i], "input"))
			return cli_fail(CLI_EXIT_USAGE, prog, "%s", lbtf_errmsg());
	if (lbtfi_check_output(a->out, a->target_btf, "target"))
		return cli_fail(CLI_EXIT_USAGE, prog, "%s", lbtf_errmsg());
	a->objs = argv + optind;
	a->nobjs = argc - optind;
	return -1;
}

/* An encoding's command line: -1 or the exit status */
static int check_encode(const char *prog, int argc, char **argv, struct btfgen_args *a)
{
	struct lbtf_encode_opts *o = &a->o;

	if (optind != argc - 1)
		return cli_fail(CLI_EXIT_USAGE, prog, optind < argc ? "one INPUT only (see %s --help)"
				: "missing INPUT (see %s --help)", prog);
	a->input = argv[optind];
	if (!a->out && !o->in_place)
		return cli_fail(CLI_EXIT_USAGE, prog, "%s: where should the BTF go? -o OUT.btf (- "
				"for standard output) or --in-place (into INPUT's .BTF section)",
				a->input);
	if (a->out && o->in_place)
		return cli_fail(CLI_EXIT_USAGE, prog, "-o and --in-place exclude each other");
	if (o->layout && o->base_path)
		return cli_fail(CLI_EXIT_USAGE, prog, "--layout is for base BTF: split BTF is sized "
				"by its base's layout (pahole writes none for split BTF either)");
	if (o->distilled_base && (!o->in_place || !o->base_path))
		return cli_fail(CLI_EXIT_USAGE, prog, "--distilled-base makes a .BTF.base section "
				"for split BTF: it needs --in-place and --base");
	/* an output that is an input under another name would destroy it
	 * (the command line names one file twice: a usage error) */
	if (a->out && (lbtfi_check_output(a->out, a->input, "input") ||
		       (o->base_path && lbtfi_check_output(a->out, o->base_path, "base"))))
		return cli_fail(CLI_EXIT_USAGE, prog, "%s", lbtf_errmsg());
	if (!cli_is_stdout(a->out))
		o->output = a->out; /* (standard output: the blob comes back) */
	return -1;
}

int btfgen_parse_args(const char *prog, int argc, char **argv, struct btfgen_args *a)
{
	int c, rc;

	*a = (struct btfgen_args){ .o.sz = sizeof(a->o), .progress = -1 };
	opterr = 0; /* reported in one line */
	while ((c = getopt_long(argc, argv, "j:o:vhV", longopts, NULL)) != -1)
		if ((rc = take_option(prog, c, a, argv)) >= 0)
			return rc;
	if (a->min_core || a->target_btf)
		return check_min_core(prog, argc, argv, a);
	return check_encode(prog, argc, argv, a);
}
