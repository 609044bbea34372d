// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen: DWARF -> BTF, the build step that gives a compiled object its BTF.
 *
 *   btfgen [-j N] [-o OUT.btf | --in-place] [--base BASE] [--features LIST] [--layout] [--sort-types] [-v] INPUT
 *   btfgen --min-core --target-btf FULL.btf -o MIN.btf [-v] OBJ...
 *
 * Exit status: cli/cli.h's table (2 usage, 4 bad input, 5 I/O or system).
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "report.h"
#include "cli.h"
#include "libbtf.h"
#include "ext.h"
#include "keep_open.h"
#include "pahole.h"
#include "distill.h"
#include "verify_out.h"
#include "write_out.h"
#include "min_core.h"
#include "io/io.h"

/* "btfgen-pahole" for a pahole command line: one prefix for a whole run */
static const char *prog = "btfgen";

static void usage(FILE *f)
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

struct progress {
	bool on, tty, shown;
	struct timespec t0, last;
};

static double secs_since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - a->tv_sec) + (now.tv_nsec - a->tv_nsec) / 1e9;
}

/* Progress line (by default on a terminal, not in pahole's mode), only
 * once the run has taken over a second */
static void on_progress(void *ctx, uint32_t done, uint32_t total)
{
	struct progress *p = ctx;

	if (!p->on || secs_since(&p->t0) < 1.0)
		return;
	if (p->shown && done != total && secs_since(&p->last) < 0.1)
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	fprintf(stderr, "\r%s: %u/%u compile units (%u%%)", prog, done, total,
		total ? (unsigned)(100ull * done / total) : 100);
	p->shown = true;
}

/* The line goes once the work is done: erased on a terminal, ended
 * elsewhere (--progress into a log) */
static void end_progress(struct progress *p)
{
	if (p->shown)
		fputs(p->tty ? "\r\033[K" : "\n", stderr);
	p->shown = false;
}

struct warn_ctx {
	const char *input;
	bool verbose;
};

static void on_warn(void *ctx, const char *msg)
{
	struct warn_ctx *w = ctx;

	if (w->verbose)
		cli_err(prog, "%s: note: %s", w->input, msg);
}

struct cb_ctx {
	struct progress pr;
	struct warn_ctx w;
};

static void cb_progress(void *ctx, uint32_t done, uint32_t total)
{
	on_progress(&((struct cb_ctx *)ctx)->pr, done, total);
}

static void cb_warn(void *ctx, const char *msg)
{
	struct cb_ctx *c = ctx;

	end_progress(&c->pr);
	on_warn(&c->w, msg);
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

int main(int argc, char **argv)
{
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
	const char *out = NULL, *base_path = NULL, *input, *target_btf = NULL;
	struct ext_job ext = { 0 };
	struct lbtf_dwarf_stats st = { .sz = sizeof(st) };
	struct lbtf_dwarf_opts o = { .sz = sizeof(o) };
	struct cb_ctx cb = { 0 };
	struct lbtf *base = NULL;
	struct lbtf_builder *b;
	bool in_place = false, verbose = false, distilled = false, min_core = false, layout = false;
	bool sort_types = false;
	int progress = -1; /* --progress, --no-progress; -1: on a terminal */
	void *data = NULL, *base_data = NULL;
	size_t size = 0, base_size = 0;
	int c, swapped, err, rc = CLI_EXIT_SYSTEM;

#ifdef M_MMAP_THRESHOLD
	/*
	 * Large blocks from the heap, kept when freed: the driver frees a
	 * vmlinux's raw types (tens of MB) and allocates as much again (the
	 * copy, dedup's maps, prune's result); fresh mappings are faulted in
	 * page by page, reused heap is not. The process is short-lived.
	 * (libbtf's growing arrays take huge pages and, from 2 MiB on, a
	 * mapping of their own anyway; a 2 MiB threshold for everything
	 * else gave more page faults and slower runs, on kernels and modules
	 * alike.)
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	cli_hold_stdout();
	/* pahole's command line (kernel builds run PAHOLE=btfgen-pahole) */
	if (pahole_cmdline(argc, argv)) {
		prog = "btfgen-pahole";
		if ((rc = pahole_to_btfgen(argc, argv, &argc, &argv)) >= 0)
			return rc;
	}
	ext.prog = prog;
	rc = CLI_EXIT_SYSTEM;
	opterr = 0; /* reported below, in one line */
	while ((c = getopt_long(argc, argv, "j:o:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (parse_jobs(optarg, &o.jobs)) {
				cli_err(prog, "-j: '%s' is not a thread count (1-1024)", optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case OPT_IN_PLACE:
			in_place = true;
			break;
		case OPT_BASE:
			base_path = optarg;
			break;
		case OPT_DISTILLED_BASE:
			distilled = true;
			break;
		case OPT_PROGRESS:
		case OPT_NO_PROGRESS:
			progress = c == OPT_PROGRESS;
			break;
		case OPT_STYLE:
			if (!strcmp(optarg, "clang") || !strcmp(optarg, "pahole")) {
				o.style = *optarg == 'p' ? LBTF_DWARF_STYLE_PAHOLE : LBTF_DWARF_STYLE_CLANG;
				break;
			}
			cli_err(prog, "--style: '%s' is neither clang nor pahole", optarg);
			return CLI_EXIT_USAGE;
		case OPT_MIN_CORE:
			min_core = true;
			break;
		case OPT_TARGET_BTF:
			target_btf = optarg;
			break;
		case OPT_LAYOUT:
			layout = true;
			break;
		case OPT_SORT_TYPES:
			sort_types = true;
			break;
		case OPT_FEATURES:
			if (lbtf_dwarf_parse_features(optarg, &o.features)) {
				cli_err(prog, "--features: %s", lbtf_errmsg());
				return CLI_EXIT_USAGE;
			}
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return cli_flush_stdout(prog);
		case 'V':
			return cli_print_version(prog);
		default:
			return cli_bad_option(prog, "j:o:vhV", argv[optind - 1], optopt);
		}
	}
	if (min_core || target_btf) {
		if (!min_core || !target_btf || !out || in_place || base_path || distilled)
			return cli_fail(CLI_EXIT_USAGE, prog, "minimal BTF: --min-core --target-btf "
					"FULL.btf -o MIN.btf OBJ... (and no other output option)");
		if (optind >= argc)
			return cli_fail(CLI_EXIT_USAGE, prog, "--min-core: missing OBJ (see %s --help)",
					prog);
		for (int i = optind; i < argc; i++)
			if (lbtfi_check_output(out, argv[i], "input")) {
				cli_err(prog, "%s", lbtf_errmsg());
				return CLI_EXIT_USAGE;
			}
		if (lbtfi_check_output(out, target_btf, "target")) {
			cli_err(prog, "%s", lbtf_errmsg());
			return CLI_EXIT_USAGE;
		}
		lbtf_atomic_cleanup_on_signals();
		return btfgen_min_core(prog, target_btf, out, argv + optind, argc - optind, verbose);
	}
	if (optind != argc - 1)
		return cli_fail(CLI_EXIT_USAGE, prog, optind < argc ? "one INPUT only (see %s --help)"
			       : "missing INPUT (see %s --help)", prog);
	input = argv[optind];
	if (!out && !in_place) {
		cli_err(prog, "%s: where should the BTF go? -o OUT.btf (- for standard output) "
			"or --in-place (into INPUT's .BTF section)", input);
		return CLI_EXIT_USAGE;
	}
	if (out && in_place) {
		cli_err(prog, "-o and --in-place exclude each other");
		return CLI_EXIT_USAGE;
	}
	if (layout && base_path) {
		cli_err(prog, "--layout is for base BTF: split BTF is sized by its base's layout "
			"(pahole writes none for split BTF either)");
		return CLI_EXIT_USAGE;
	}
	if (distilled && (!in_place || !base_path)) {
		cli_err(prog, "--distilled-base makes a .BTF.base section for split BTF: it needs "
			"--in-place and --base");
		return CLI_EXIT_USAGE;
	}
	/* an output that is an input under another name would destroy it */
	if (out && (lbtfi_check_output(out, input, "input") ||
		    (base_path && lbtfi_check_output(out, base_path, "base")))) {
		cli_err(prog, "%s", lbtf_errmsg());
		return CLI_EXIT_USAGE; /* the command line names one file twice */
	}
	lbtf_atomic_cleanup_on_signals();
	/* clang's .BTF.ext (func/line info, CO-RE relocations) names type ids
	 * and strings of clang's .BTF: it is rewritten onto ours (ext.c) */
	if (in_place && (err = ext_open(&ext, input))) {
		rc = err;
		goto out;
	}
	if (base_path) {
		base = lbtf_open(base_path, NULL);
		if (!base) {
			rc = cli_exit_for_errno(errno);
			cli_err(prog, "%s: cannot read base BTF: %s", base_path, lbtf_errmsg());
			return rc;
		}
		if ((rc = cli_check_base_refs(prog, base_path, base)))
			goto out;
		o.base = base;
	}
	cb.pr.tty = isatty(STDERR_FILENO);
	cb.pr.on = progress < 0 ? cb.pr.tty : progress;
	clock_gettime(CLOCK_MONOTONIC, &cb.pr.t0);
	cb.w.input = input;
	cb.w.verbose = verbose;
	o.progress = cb_progress;
	o.warn = cb_warn;
	o.ctx = &cb;
	o.stats = &st;

	b = lbtf_dwarf_to_btf(input, &o);
	end_progress(&cb.pr);
	if (!b) {
		const char *msg = lbtf_errmsg();

		rc = cli_exit_for_errno(errno);
		/* every error line names the input (most messages of the
		 * converter do; "cannot read the symbol table" and others not) */
		if (!strstr(msg, input))
			cli_err(prog, "%s: %s", input, msg);
		else
			cli_err(prog, "%s", msg);
		goto out;
	}
	/* BTF without types is invalid ("No type found"); split BTF may be empty */
	if (!base && lbtf_builder_type_cnt(b) <= 1) {
		rc = CLI_EXIT_INPUT;
		cli_err(prog, "%s: no C types in its DWARF (units in other languages are skipped, "
			"-v names them); BTF without types is invalid, nothing written", input);
		goto out_b;
	}
	swapped = lbtf_elf_is_swapped(input);
	if (swapped < 0) {
		rc = cli_exit_for_errno(-swapped);
		cli_err(prog, "%s", lbtf_errmsg());
		goto out_b;
	}
	/* (a .BTF.ext's type ids would have to move with the types) */
	if (sort_types && (ext.ext || ext.gen)) {
		rc = CLI_EXIT_USAGE;
		cli_err(prog, "%s: --sort-types: the object has (or gets) a .BTF.ext, whose "
			"type ids are not renumbered", input);
		goto out_b;
	}
	if (sort_types && (err = lbtf_builder_sort_by_name(b))) {
		rc = cli_exit_for_errno(err);
		cli_err(prog, "%s: --sort-types: %s", input, lbtf_errmsg());
		goto out_b;
	}
	lbtf_builder_set_layout(b, layout);
	err = lbtf_builder_serialize(b, swapped, &data, &size);
	if (!err && in_place && ext.gen) {
		/* gcc-bpf objects: func_info/line_info from the DWARF line table */
		rc = ext_generate(&ext, input, b, swapped, &data, &size, cb_warn, &cb);
		if (rc)
			goto out_b;
		rc = CLI_EXIT_SYSTEM;
	} else if (!err && ext.ext) {
		/* the records' strings join the string section: serialize again */
		rc = ext_remap(&ext, input, b, swapped, &data, &size);
		if (rc)
			goto out_b;
		rc = CLI_EXIT_SYSTEM;
	}
	if (err) {
		rc = cli_exit_for_errno(err);
		cli_err(prog, "%s: cannot serialize BTF: %s", input, lbtf_errmsg());
		goto out_b;
	}
	/* the invariant: nothing the kernel would reject is written (a raw
	 * file is written meanwhile, and renamed into place only then) */
	if (out && !cli_is_stdout(out)) {
		if ((rc = btfgen_write_verified(prog, input, out, data, size, swapped > 0, base)))
			goto out_b;
	} else {
		if ((rc = btfgen_verify_output(prog, input, data, size, swapped > 0, base)))
			goto out_b;
		if (distilled && swapped) {
			rc = CLI_EXIT_INPUT;
			cli_err(prog, "%s: --distilled-base: an ELF of the other byte order is not "
				"supported", input);
			goto out_b;
		}
		if (distilled &&
		    (rc = btfgen_distill(prog, input, base, &data, &size, &base_data, &base_size)))
			goto out_b;
		rc = CLI_EXIT_SYSTEM;
		if (cli_is_stdout(out)) {
			if (fwrite(data, 1, size, stdout) != size || cli_flush_stdout(prog))
				goto out_b; /* cli_flush_stdout said why */
			err = 0;
		} else {
			LBTF_OPTS(lbtf_elf_write_opts, wo, .btf_ext = ext.data, .btf_ext_size = ext.size,
				  .btf_base = base_data, .btf_base_size = base_size);

			if ((rc = btfgen_keeps_open(prog, input, data, size, ext.data, ext.size)))
				goto out_b;
			rc = CLI_EXIT_SYSTEM;
			err = lbtf_elf_write_btf_opts(input, input, data, size, &wo);
		}
		if (err) {
			/* (libbtf's message names the file) */
			rc = cli_fail_msg(prog, out ? out : input, lbtf_errmsg(), err);
			goto out_b;
		}
	}
	if (verbose)
		cli_err(prog,
			"%s: %u units, %u types before dedup, %u after; %u FUNCs, %u VARs in %u DATASECs; %zu bytes", input, st.units, st.types_raw, st.types_out, st.funcs, st.vars,
			st.datasecs, size);
	rc = 0;
out_b:
	free(data);
	free(base_data);
	lbtf_builder_free(b);
out:
	ext_free(&ext);
	lbtf_free(base);
	return rc;
}
