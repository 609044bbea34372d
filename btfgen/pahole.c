// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen's pahole-compatible command line (see pahole.h): pahole's BTF
 * encoding options, with pahole's meaning, rewritten into btfgen's own
 * (-j, -o / --in-place, --base, --features). The mapping is documented in
 * btfgen(1), PAHOLE COMPATIBILITY, and its rules in docs/PAHOLE.md.
 *
 * pahole's model of BTF features: with no --btf_features, the encoder uses
 * its historical defaults (per-CPU VARs, decl/type tags, ENUM64 on; FLOAT
 * off) changed by the older --skip_encoding_btf_* / --btf_gen_* options.
 * The first --btf_features turns every feature off, then each list turns
 * the features it names on ("default": pahole's standard set; "+a,b": the
 * standard set plus a and b). Names pahole does not know are ignored, so
 * that builds can name future features; --btf_features_strict rejects them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "report.h"
#include "pahole.h"

static const char *prog = "btfgen-pahole";

/* pahole's BTF features, in pahole's order */
enum pfeat {
	PF_ENCODE_FORCE,
	PF_VAR,
	PF_FLOAT,
	PF_DECL_TAG,
	PF_TYPE_TAG,
	PF_ENUM64,
	PF_OPTIMIZED_FUNC,
	PF_CONSISTENT_FUNC,
	PF_DECL_TAG_KFUNCS,
	PF_REPRODUCIBLE_BUILD,
	PF_DISTILLED_BASE,
	PF_GLOBAL_VAR,
	PF_ATTRIBUTES,
	PF_TRUE_SIGNATURE,
	PF_LAYOUT,
	PF_NR
};

static const struct {
	const char *name;
	bool in_default;    /* in pahole's "default" set */
	bool without_list;  /* its value when no --btf_features is given */
	/* btfgen's --features name; "" when btfgen always behaves so (no
	 * option needed); NULL when btfgen does not implement it */
	const char *ours;
} pfeats[PF_NR] = {
	/* btfgen never stops at a symbol it cannot encode: it skips it */
	[PF_ENCODE_FORCE] = { "encode_force", true, false, "" },
	/* pahole's "var" is per-CPU variables only */
	[PF_VAR] = { "var", true, true, "percpu_var" },
	[PF_FLOAT] = { "float", true, false, "float" },
	[PF_DECL_TAG] = { "decl_tag", true, true, "decl_tag" },
	[PF_TYPE_TAG] = { "type_tag", true, true, "type_tag" },
	[PF_ENUM64] = { "enum64", true, true, "enum64" },
	/* pahole v1.31's function set (docs/PAHOLE.md, "pahole v1.31's function set") */
	[PF_OPTIMIZED_FUNC] = { "optimized_func", true, false, "optimized_func" },
	[PF_CONSISTENT_FUNC] = { "consistent_func", true, false, "consistent_func" },
	[PF_DECL_TAG_KFUNCS] = { "decl_tag_kfuncs", true, false, "decl_tag_kfuncs" },
	/* btfgen's output is the same bytes at any thread count */
	[PF_REPRODUCIBLE_BUILD] = { "reproducible_build", false, false, "" },
	/* in place only (btfgen --distilled-base): pahole ignores it for a
	 * detached (raw) output, which has nowhere to put .BTF.base */
	[PF_DISTILLED_BASE] = { "distilled_base", false, false, "" },
	[PF_GLOBAL_VAR] = { "global_var", false, false, "var" },
	/* arena pointers of kfuncs (with decl_tag_kfuncs) */
	[PF_ATTRIBUTES] = { "attributes", false, false, "attributes" },
	/* pahole master (after v1.31): clones' FUNCs with their own signature */
	[PF_TRUE_SIGNATURE] = { "true_signature", false, false, "true_signature" },
	/* btfgen --layout; for base BTF only, as pahole master (178b769):
	 * ignored with --btf_base */
	[PF_LAYOUT] = { "layout", false, false, "" },
};

/*
 * Whose function rules the pahole function set follows (--func_rules).
 * A kernel build passes the same feature list to pahole v1.31 and to
 * master, which leave out different functions, so the list cannot say; the
 * default is master's: v1.31 encodes a FUNC for a .constprop/.isra clone
 * whose callers pass other arguments than the prototype says (an fentry
 * program reads garbage), which master fixed. v1.31 rules are for matching
 * a v1.31 build exactly; they ignore true_signature, as v1.31 does.
 */
enum func_rules { RULES_MASTER, RULES_V1_31 };

struct pstate {
	bool on[PF_NR];
	bool listed;        /* a --btf_features was seen */
	bool all;           /* "all" was listed */
	bool encode;        /* -J or --btf_encode_detached */
	char *detached, *base; /* optarg, passed on as argv */
	const char *jobs;
	bool jobs_all;      /* -j without a count */
	bool verbose;
	enum func_rules rules;
};

static void set_defaults(struct pstate *s)
{
	for (int i = 0; i < PF_NR; i++)
		s->on[i] = pfeats[i].without_list;
}

static int find_feature(const char *name, size_t len)
{
	for (int i = 0; i < PF_NR; i++)
		if (strlen(pfeats[i].name) == len && !strncmp(pfeats[i].name, name, len))
			return i;
	return -1;
}

static void print_supported(FILE *f)
{
	const char *sep = "";

	for (int i = 0; i < PF_NR; i++)
		if (pfeats[i].ours) {
			fprintf(f, "%s%s", sep, pfeats[i].name);
			sep = ",";
		}
}

/* --btf_features[_strict]=LIST, with pahole's rules (see the top) */
static int parse_btf_features(struct pstate *s, const char *list, bool strict)
{
	const char *p = list;

	if (!s->listed) {
		for (int i = 0; i < PF_NR; i++)
			s->on[i] = false;
		s->listed = true;
	}
	if (*p == '+') {
		for (int i = 0; i < PF_NR; i++)
			s->on[i] |= pfeats[i].in_default;
		p++;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		int f = find_feature(p, len);

		if (f >= 0) {
			s->on[f] = true;
		} else if (len == 7 && !strncmp(p, "default", 7)) {
			for (int i = 0; i < PF_NR; i++)
				s->on[i] |= pfeats[i].in_default;
		} else if (len == 3 && !strncmp(p, "all", 3)) {
			/* every feature btfgen implements; distilled_base only
			 * with a base (decided once the command line is read):
			 * it makes split BTF, and "all" must work on vmlinux
			 * or a program too; not layout, which only named: the
			 * kernels before it refuse BTF with a layout section */
			for (int i = 0; i < PF_NR; i++)
				s->on[i] |= pfeats[i].ours != NULL && i != PF_DISTILLED_BASE &&
					    i != PF_LAYOUT;
			s->all = true;
		} else if (strict) {
			fprintf(stderr, "%s: --btf_features_strict: unknown BTF feature '%.*s' "
				"(supported: ", prog, (int)len, p);
			print_supported(stderr);
			fputs(")\n", stderr);
			return 2;
		} else if (s->verbose) {
			cli_err(prog, "ignoring unknown BTF feature '%.*s'", (int)len, p);
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* --lang_exclude: btfgen encodes C only and always skips other languages,
 * so excluding any of them is what it does anyway; excluding C is not */
static int check_lang_exclude(const char *list)
{
	static const char *const others[] = { "rust", "c++", "c89+", "c++03", "c++11",
					       "c++14", "c++17", "c++20", "asm" };
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
			if (strlen(others[i]) == len && !strncasecmp(others[i], p, len))
				break;
		if (i == sizeof(others) / sizeof(others[0])) {
			cli_err(prog, "--lang_exclude=%s: btfgen always encodes C units and skips "
				"other languages; excluding '%.*s' is not supported", list, (int)len, p);
			return 2;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* btfgen's --features list for the chosen pahole features, or an exit
 * status if one of them is not implemented */
static int features_list(const struct pstate *s, char *buf, size_t cap)
{
	size_t n = snprintf(buf, cap, "func,dedup,reuse");

	for (int i = 0; i < PF_NR; i++) {
		const char *ours = pfeats[i].ours;

		if (!s->on[i])
			continue;
		if (!ours) {
			cli_err(prog, "BTF feature '%s' is not implemented by btfgen (see %s "
				"--supported_btf_features)", pfeats[i].name, prog);
			return 2;
		}
		/* global variables are encoded only with "var" on, as pahole does */
		if (!*ours || (i == PF_GLOBAL_VAR && !s->on[PF_VAR]) ||
		    (i == PF_TRUE_SIGNATURE && s->rules == RULES_V1_31))
			continue;
		if (i == PF_VAR && s->on[PF_GLOBAL_VAR])
			continue;
		n += snprintf(buf + n, n < cap ? cap - n : 0, ",%s", ours);
	}
	/* master's rules for pahole's function set */
	if (s->rules == RULES_MASTER &&
	    (s->on[PF_OPTIMIZED_FUNC] || s->on[PF_CONSISTENT_FUNC] || s->on[PF_DECL_TAG_KFUNCS]))
		n += snprintf(buf + n, n < cap ? cap - n : 0, ",abi_func");
	return n < cap ? -1 : 2;
}

bool pahole_cmdline(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	size_t len;

	base = base ? base + 1 : argv[0];
	len = strlen(base);
	if (len >= 6 && !strcmp(base + len - 6, "pahole"))
		return true;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-J") || !strncmp(argv[i], "--btf_encode_detached", 21) ||
		    !strcmp(argv[i], "--btf_encode"))
			return true;
	return false;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s -J [-j[N]] [--btf_encode_detached=OUT] [--btf_base=BASE]\n"
		"          [--btf_features=LIST] [--func_rules=master|v1.31]\n"
		"          [--lang_exclude=LANGS] [older options] FILE\n"
		"       %s --version | --numeric_version | --supported_btf_features | --help\n"
		"  pahole's BTF encoding command line, carried out by btfgen: a kernel build\n"
		"  runs it as PAHOLE=btfgen-pahole (pahole's other modes are not implemented).\n"
		"  -J, --btf_encode          encode into FILE's .BTF section, in place\n"
		"  --btf_encode_detached=OUT write raw BTF to OUT instead\n"
		"  --btf_base=BASE           split BTF over BASE (a module over its vmlinux)\n"
		"  -j[N], --jobs[=N]         N threads; -j alone: every CPU; without: one\n"
		"  --btf_features=LIST       pahole's features (--supported_btf_features, default,\n"
		"                            all); the first list turns the others off; unknown\n"
		"                            names are ignored, as pahole does\n"
		"  --btf_features_strict=LIST  the same, unknown names refused\n"
		"  --func_rules=RULES        master (the default): functions as pahole master, no\n"
		"                            FUNC for a .constprop/.isra clone whose optimized-out\n"
		"                            parameters changed its ABI, true_signature known;\n"
		"                            v1.31: exactly pahole v1.31's (true_signature ignored)\n"
		"  --lang_exclude=LANGS      skip units of these languages (rust: skipped anyway)\n"
		"  --btf_gen_floats, --btf_gen_optimized, --btf_gen_all, --btf_encode_force,\n"
		"  --skip_encoding_btf_vars, --skip_encoding_btf_decl_tag,\n"
		"  --skip_encoding_btf_type_tag, --skip_encoding_btf_enum64,\n"
		"  --skip_encoding_btf_inconsistent_proto, --reproducible_build,\n"
		"  --btf_attributes          pahole's older spellings of features\n"
		"  -V, --verbose             notes and statistics on stderr\n"
		"  -q, --quiet               accepted (nothing is printed but errors anyway)\n"
		"  --version, --numeric_version  the pahole version whose command line this is\n"
		"  --supported_btf_features  the --btf_features names implemented\n"
		"  -h, --help                this text\n"
		"  The types are pahole's type graph (btfgen --style pahole): arrays flattened\n"
		"  and indexed by int, every FUNC static, every type of every unit kept; over a\n"
		"  base, arrays are spelled as the base's, so modules share its types whichever\n"
		"  encoder made it. No progress line. Same output at any -j.\n"
		"Exit status: 0 done, 2 usage, 4 bad input, 5 I/O or system error.\n",
		prog, prog);
}

enum {
	O_DETACHED = 256, O_BASE, O_FEATURES, O_FEATURES_STRICT, O_SUPPORTED, O_VERSION,
	O_NUMERIC_VERSION, O_LANG, O_LANG_EXCLUDE, O_GEN_ALL, O_FUNC_RULES,
	/* the older spellings of features: O_ALIAS + 2 * feature + value */
	O_ALIAS = 512,
};
#define ALIAS(f, v) (O_ALIAS + 2 * (f) + (v))

int pahole_to_btfgen(int argc, char **argv, int *nargc, char ***nargv)
{
	static const struct option longopts[] = {
		{ "btf_encode", no_argument, NULL, 'J' },
		{ "btf_encode_detached", required_argument, NULL, O_DETACHED },
		{ "btf_base", required_argument, NULL, O_BASE },
		{ "jobs", optional_argument, NULL, 'j' },
		{ "btf_features", required_argument, NULL, O_FEATURES },
		{ "btf_features_strict", required_argument, NULL, O_FEATURES_STRICT },
		{ "supported_btf_features", no_argument, NULL, O_SUPPORTED },
		{ "version", no_argument, NULL, O_VERSION },
		{ "numeric_version", no_argument, NULL, O_NUMERIC_VERSION },
		{ "lang", required_argument, NULL, O_LANG },
		{ "lang_exclude", required_argument, NULL, O_LANG_EXCLUDE },
		{ "btf_gen_all", no_argument, NULL, O_GEN_ALL },
		{ "func_rules", required_argument, NULL, O_FUNC_RULES },
		{ "btf_encode_force", no_argument, NULL, ALIAS(PF_ENCODE_FORCE, 1) },
		{ "skip_encoding_btf_vars", no_argument, NULL, ALIAS(PF_VAR, 0) },
		{ "btf_gen_floats", no_argument, NULL, ALIAS(PF_FLOAT, 1) },
		{ "skip_encoding_btf_decl_tag", no_argument, NULL, ALIAS(PF_DECL_TAG, 0) },
		{ "skip_encoding_btf_type_tag", no_argument, NULL, ALIAS(PF_TYPE_TAG, 0) },
		{ "skip_encoding_btf_enum64", no_argument, NULL, ALIAS(PF_ENUM64, 0) },
		{ "btf_gen_optimized", no_argument, NULL, ALIAS(PF_OPTIMIZED_FUNC, 1) },
		{ "skip_encoding_btf_inconsistent_proto", no_argument, NULL,
		  ALIAS(PF_CONSISTENT_FUNC, 1) },
		{ "reproducible_build", no_argument, NULL, ALIAS(PF_REPRODUCIBLE_BUILD, 1) },
		{ "btf_attributes", no_argument, NULL, ALIAS(PF_ATTRIBUTES, 1) },
		{ "verbose", no_argument, NULL, 'V' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char features[256];
	struct pstate s = { 0 };
	/* static: the translated command line outlives this call (btfgen parses it next) */
	static char *av[24];
	int c, n = 0, r;

	set_defaults(&s);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "Jj::Vqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'J':
			s.encode = true;
			break;
		case O_DETACHED:
			s.encode = true;
			s.detached = optarg;
			break;
		case O_BASE:
			s.base = optarg;
			break;
		case 'j':
			/* pahole: -j alone is every CPU; no -j at all is one thread */
			s.jobs = optarg;
			s.jobs_all = !optarg;
			break;
		case O_FEATURES:
		case O_FEATURES_STRICT:
			if ((r = parse_btf_features(&s, optarg, c == O_FEATURES_STRICT)))
				return r;
			break;
		case O_GEN_ALL:
			if ((r = parse_btf_features(&s, "all", false)))
				return r;
			break;
		case O_SUPPORTED:
			print_supported(stdout);
			putchar('\n');
			return cli_flush_stdout(prog);
		case O_VERSION:
			printf("v%d.%d\n", PAHOLE_COMPAT_MAJOR, PAHOLE_COMPAT_MINOR);
			return cli_flush_stdout(prog);
		case O_NUMERIC_VERSION:
			printf("%d%02d\n", PAHOLE_COMPAT_MAJOR, PAHOLE_COMPAT_MINOR);
			return cli_flush_stdout(prog);
		case O_LANG:
			cli_err(prog, "--lang=%s: btfgen encodes C units only; use --lang_exclude", optarg);
			return 2;
		case O_FUNC_RULES:
			if (!strcmp(optarg, "master")) {
				s.rules = RULES_MASTER;
			} else if (!strcmp(optarg, "v1.31") || !strcmp(optarg, "1.31")) {
				s.rules = RULES_V1_31;
			} else {
				cli_err(prog, "--func_rules=%s: expected master or v1.31", optarg);
				return 2;
			}
			break;
		case O_LANG_EXCLUDE:
			if ((r = check_lang_exclude(optarg)))
				return r;
			break;
		case 'V':
			s.verbose = true;
			break;
		case 'q':
			break;
		case 'h':
			usage(stdout);
			return cli_flush_stdout(prog);
		case '?':
			if (optopt)
				cli_err(prog, "pahole option '-%c' is not implemented (only "
					"pahole's BTF encoding options are)", optopt);
			else
				cli_err(prog, "pahole option '%s' is not implemented (only "
					"pahole's BTF encoding options are)", argv[optind - 1]);
			return 2;
		default:
			if (c < O_ALIAS || c >= ALIAS(PF_NR, 0)) {
				usage(stderr);
				return 2;
			}
			s.on[(c - O_ALIAS) / 2] = (c - O_ALIAS) & 1;
			break;
		}
	}
	if (!s.encode) {
		cli_err(prog, "only BTF encoding (-J or --btf_encode_detached) is implemented");
		return 2;
	}
	if (optind != argc - 1) {
		cli_err(prog, "%s", 
			optind == argc ? "no input file" : "one input file at a time");
		return 2;
	}
	if ((r = features_list(&s, features, sizeof(features))) >= 0)
		return r;

	av[n++] = "btfgen";
	if (!s.jobs_all) {
		long j = s.jobs ? strtol(s.jobs, NULL, 10) : 1;
		static char jbuf[16];

		snprintf(jbuf, sizeof(jbuf), "%ld", j < 1 ? 1 : j > 1024 ? 1024 : j);
		av[n++] = "-j";
		av[n++] = jbuf;
	}
	av[n++] = "--features";
	av[n++] = features;
	/* pahole's type graph (arrays over a base: the base's) */
	av[n++] = "--style";
	av[n++] = "pahole";
	/* quiet as pahole: a kernel build runs on a terminal */
	av[n++] = "--no-progress";
	if (s.base) {
		av[n++] = "--base";
		av[n++] = s.base;
	}
	if (s.detached) {
		av[n++] = "-o";
		av[n++] = s.detached;
	} else {
		av[n++] = "--in-place";
		if (s.on[PF_DISTILLED_BASE] || (s.all && s.base))
			av[n++] = "--distilled-base";
	}
	if (s.on[PF_LAYOUT] && !s.base)
		av[n++] = "--layout";
	if (s.verbose)
		av[n++] = "-v";
	/* the input after "--": a name starting with '-' is still the file */
	av[n++] = "--";
	av[n++] = argv[optind];
	av[n] = NULL;
	*nargc = n;
	*nargv = av;
	/* btfgen's own parse starts over on the new command line: 0, not 1,
	 * makes glibc's getopt forget the state of this parse too (a "--"
	 * seen here left it mid-permutation, "unknown option '--in-place'") */
	optind = 0;
	return -1;
}
