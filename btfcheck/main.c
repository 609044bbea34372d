// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfcheck: will the kernel load this BTF, and if not, why? The answer of
 * Linux 6.15-6.18's BPF_BTF_LOAD (verdict, errno, log), without privileges.
 *
 *   btfcheck [--log-level N] [--log-size BYTES] [--base FILE] [--strict]
 *            [--raw] [--min-kernel] [--target-kernel V] [--json] [--quiet]
 *            [--kernel] FILE...
 * An ELF BPF object (ET_REL, EM_BPF) is checked as libbpf loads it: its
 * .BTF after libbpf's fixups (libbtf_object.h), or none when it has no .BTF
 * and libbpf opens it without; --raw checks .BTF as stored.
 * Verdicts go to stdout, the kernel log and errors to stderr.
 * Exit (cli/cli.h's table): 0 all valid, 1 some rejected, 2 usage, 3 --kernel
 * found a disagreement, 4 a file is not BTF (e.g. an ELF without .BTF),
 * 5 a file cannot be read.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "report.h"
#include "btfcheck.h"
#include "io/io.h"
#include "cli.h"

static const char *const prog = "btfcheck";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: btfcheck [--log-level N] [--log-size BYTES] [--base FILE] [--strict]\n"
		"                [--raw] [--min-kernel] [--target-kernel V] [--json] [--quiet]\n"
		"                [--kernel] FILE...\n"
		"       btfcheck --target-btf PATH... [--libbpf V] [--target-kernel V] [--json]\n"
		"                [--quiet] OBJ...\n"
		"Verifies BTF (raw, ELF .BTF, or - for stdin) as the running kernel's\n"
		"BPF_BTF_LOAD would (Linux 6.15-6.18 semantics). A BPF object (ELF, EM_BPF,\n"
		"ET_REL) is checked as libbpf 1.1 loads it: its .BTF after libbpf's fixups.\n"
		"  --log-level N     kernel log level (default 1 with --json, else 0)\n"
		"  --log-size BYTES  log buffer size (default: large enough for any log)\n"
		"  --base FILE       split BTF: verify as the kernel verifies module BTF (a module\n"
		"                    with .BTF.base: verified over that, then relocated onto FILE)\n"
		"  --strict          with --base, also run pass 2 (stricter than any kernel path)\n"
		"  --raw             a BPF object's .BTF as stored, without libbpf's fixups\n"
		"  --min-kernel      the oldest kernel that loads it (and with libbpf's help)\n"
		"  --target-kernel V verify by kernel V's rules (MAJOR.MINOR; 7.1: layout\n"
		"                    section, 7.2: 24-bit vlen); a BPF object: also sanitize\n"
		"                    as libbpf would for V (default: the running kernel's)\n"
		"  --json            one JSON object per file per line (log only on rejection\n"
		"                    unless --log-level is given)\n"
		"  --quiet           do not print the log (text or JSON)\n"
		"  --kernel          also ask BPF_BTF_LOAD and compare (exit 3 on disagreement;\n"
		"                    not permitted: a \"not compared\" line, JSON \"compared\":false)\n"
		"  --target-btf PATH each BPF object's CO-RE relocations resolved against a\n"
		"                    target kernel's BTF (raw, ELF .BTF, a directory of them;\n"
		"                    repeat for more targets) as libbpf 1.8 resolves them; also\n"
		"                    its externs there, and the sanitization for its version\n"
		"  --libbpf V        with --target-btf: the CO-RE rules of libbpf V (1.8, the\n"
		"                    default, for 1.6 and later; 1.1 for 1.1 and 1.2)\n"
		"  -h, --help        this text\n"
		"  -V, --version     print the version\n"
		"Output: each file's verdict (FILE: OK, FILE: rejected: REASON (ERRNO)) on\n"
		"standard output, JSON Lines with --json; the kernel log, notes and errors on\n"
		"standard error.\n"
		"Exit status: 0 all valid, 1 some rejected (or a BPF object libbpf would not\n"
		"open), 2 usage, 3 the kernel disagreed, 4 not BTF, 5 cannot read.\n");
}

/* "MAJOR.MINOR" at the start of s as a KERNEL_VERSION code, *end after it.
 * strtoul, not sscanf: a fresh btfcheck process per object pays a page
 * fault for every code page it touches, and scanf's are several. */
int btfcheck_version_prefix(const char *s, uint32_t *v, const char **end)
{
	unsigned long a, b;
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	a = strtoul(s, &e, 10);
	if (*e != '.' || e[1] < '0' || e[1] > '9')
		return -1;
	b = strtoul(e + 1, &e, 10);
	if (!a || a > 255 || b > 255)
		return -1;
	*v = a << 16 | b << 8;
	*end = e;
	return 0;
}

/* The running kernel's BTF features by its release (libbpf probes them;
 * the release says the same for upstream kernels): sanitized when missing. */
static uint32_t running_kernel_missing(void)
{
	struct utsname u;
	const char *end;
	uint32_t v;

	if (uname(&u) || btfcheck_version_prefix(u.release, &v, &end))
		return 0;
	return LBTF_KFEAT_ALL & ~lbtf_kfeat_of_version(v);
}

/* "MAJOR.MINOR[.PATCH]" as a KERNEL_VERSION code */
static int parse_version(const char *s, uint32_t *v)
{
	const char *end;

	if (btfcheck_version_prefix(s, v, &end) || (*end && *end != '.'))
		return -1;
	return 0;
}

/* Diagnostics (the log, notes, errors) go to stderr a line at a time:
 * formatted in place, not through unbuffered stdio's 8 KiB stack buffer per
 * call (two fresh stack pages, i.e. page faults, in a short process). */
static char errbuf[1024];

static int parse_num(const char *s, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || end == s || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "log-level", required_argument, NULL, 'l' }, { "log-size", required_argument, NULL, 's' },
		{ "base", required_argument, NULL, 'b' },      { "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },           { "kernel", no_argument, NULL, 'k' },
		{ "strict", no_argument, NULL, 'S' },          { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },         { "raw", no_argument, NULL, 'r' },
		{ "min-kernel", no_argument, NULL, 'm' },     { "target-kernel", required_argument, NULL, 't' },
		{ "target-btf", required_argument, NULL, 'T' }, { "libbpf", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	struct lbtfi_readbuf inbuf = { .map_from = BTFCHECK_MAP_FROM, .max_maps = BTFCHECK_MAPS_LEFT,
				       .populate_below = BTFCHECK_POPULATE_BELOW };
	struct cfg c = { .log_level = -1, .log_size = -1, .inbuf = &inbuf };
	/* precedence: disagreement 3 > cannot read or write 5 > not BTF 4 > rejected 1 */
	static const int rank[] = { [0] = 0, [1] = 1, [4] = 2, [5] = 3, [3] = 4 };
	uint32_t target = 0;
	char **target_btfs = NULL;
	const char *libbpf = NULL;
	int opt, rc, worst = 0, ntarget_btfs = 0;
	long long v;

	cli_hold_stdout();
	setvbuf(stderr, errbuf, _IOLBF, sizeof(errbuf));
	opterr = 0; /* reported below, in one line */
	while ((opt = getopt_long(argc, argv, "l:s:b:jqkShVrmt:T:L:", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			if (parse_num(optarg, LBTF_LOG_MASK, &v)) {
				cli_err(prog, "bad --log-level '%s' (0 to %u: the kernel's "
					"BPF_LOG_* bits)", optarg, LBTF_LOG_MASK);
				return 2;
			}
			c.log_level = v;
			break;
		case 's':
			if (parse_num(optarg, LBTF_LOG_MAX_SIZE, &v)) {
				cli_err(prog, "bad --log-size '%s' (0 to %u bytes)", optarg,
					LBTF_LOG_MAX_SIZE);
				return 2;
			}
			c.log_size = v;
			break;
		case 'b': c.base_path = optarg; break;
		case 'j': c.json = true; break;
		case 'q': c.quiet = true; break;
		case 'k': c.kernel = true; break;
		case 'S': c.strict = true; break;
		case 'r': c.raw = true; break;
		case 'm': c.min_kernel = true; break;
		case 't':
			if (parse_version(optarg, &target)) {
				cli_err(prog, "bad --target-kernel '%s' (MAJOR.MINOR)", optarg);
				return 2;
			}
			break;
		case 'T': {
			char **v = realloc(target_btfs, (ntarget_btfs + 1) * sizeof(*v));

			if (!v)
				return cli_fail(CLI_EXIT_SYSTEM, prog, "out of memory");
			target_btfs = v;
			target_btfs[ntarget_btfs++] = optarg;
			break;
		}
		case 'L':
			if (strcmp(optarg, "1.8") && strcmp(optarg, "1.1")) {
				free(target_btfs);
				cli_err(prog, "bad --libbpf '%s' (1.8 or 1.1)", optarg);
				return 2;
			}
			libbpf = optarg;
			break;
		case 'h': usage(stdout); return cli_flush_stdout(prog);
		case 'V': return cli_print_version(prog);
		default: return cli_bad_option(prog, "l:s:b:jqkShVrmt:T:L:", argv[optind - 1], optopt);
		}
	}
	if (optind >= argc)
		return cli_fail(CLI_EXIT_USAGE, prog, "missing FILE (see %s --help)", prog);
	if (target_btfs && (c.raw || c.kernel || c.base_path || c.strict || c.min_kernel ||
			    c.log_level >= 0 || c.log_size >= 0)) {
		free(target_btfs);
		return cli_fail(CLI_EXIT_USAGE, prog, "--target-btf takes no other option than "
				"--libbpf, --target-kernel, --json and --quiet");
	}
	if (libbpf && !target_btfs)
		return cli_fail(CLI_EXIT_USAGE, prog, "--libbpf goes with --target-btf");
	c.target_version = target;
	c.rules_11 = libbpf && !strcmp(libbpf, "1.1");
	if (target_btfs) {
		worst = btfcheck_targets(&c, target_btfs, ntarget_btfs, argv + optind, argc - optind);
		free(target_btfs);
		rc = cli_finish_stdout(prog);
		return rc ? rc : worst;
	}
	if (c.log_size > 0 && (c.log_level >= 0 ? c.log_level : c.json ? 1 : 0) == 0) {
		cli_err(prog, "--log-size with --log-level 0 (the kernel refuses a log "
			"buffer without a level)");
		return 2;
	}
	c.missing_features = target ? LBTF_KFEAT_ALL & ~lbtf_kfeat_of_version(target)
				    : running_kernel_missing();
	if (c.strict && !c.base_path) {
		cli_err(prog, "--strict needs --base");
		return 2;
	}
	if (c.base_path && !(c.base = lbtf_open(c.base_path, NULL)))
		return cli_fail_lib(prog, c.base_path); /* the path named once */
	if (c.base) {
		int rc = cli_check_base("btfcheck", c.base_path, c.base);

		if (rc) {
			lbtf_free(c.base);
			return rc;
		}
	}
	if (c.kernel && c.base)
		cli_err(prog, "--kernel ignored with --base (BPF_BTF_LOAD has no split BTF)");
	for (int i = optind; i < argc; i++) {
		int r = btfcheck_one(&c, argv[i], i == argc - 1);

		if (rank[r] > rank[worst])
			worst = r;
	}
	lbtf_free(c.base);
	lbtfi_readbuf_free(&inbuf);
	/* a verdict or record that never reached stdout is a failure, a
	 * system one (5) like every write error */
	rc = cli_finish_stdout(prog);
	return rank[rc] > rank[worst] ? rc : worst;
}
