// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfcheck: will the kernel load this BTF, and if not, why? The answer of
 * Linux 6.15-6.18's BPF_BTF_LOAD (verdict, errno, log), without privileges.
 *
 *   btfcheck [--log-level N] [--log-size BYTES] [--base FILE] [--strict]
 *            [--json] [--quiet] [--kernel] FILE...
 * Exit (cli/cli.h's table): 0 all valid, 1 some rejected, 2 usage, 3 --kernel
 * found a disagreement, 4 a file is not BTF (e.g. an ELF without .BTF),
 * 5 a file cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "btfcheck.h"
#include "cli.h"

struct cfg {
	long log_level;  /* -1: default */
	long long log_size; /* -1: large enough for any log */
	const char *base_path;
	struct lbtf *base;
	bool json, quiet, kernel, strict;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: btfcheck [--log-level N] [--log-size BYTES] [--base FILE] [--strict]\n"
		"                [--json] [--quiet] [--kernel] FILE...\n"
		"Verifies BTF (raw, ELF .BTF, or - for stdin) as the running kernel's\n"
		"BPF_BTF_LOAD would (Linux 6.15-6.18 semantics).\n"
		"  --log-level N     kernel log level (default 1 with --json, else 0)\n"
		"  --log-size BYTES  log buffer size (default: large enough for any log)\n"
		"  --base FILE       split BTF: verify as the kernel verifies module BTF\n"
		"  --strict          with --base, also run pass 2 (stricter than any kernel path)\n"
		"  --json            one JSON object per file per line\n"
		"  --quiet           do not print the log\n"
		"  --kernel          also ask BPF_BTF_LOAD and compare (exit 3 on disagreement)\n"
		"  -h, --help        this text\n"
		"  -V, --version     print the version\n"
		"Exit status: 0 all valid, 1 some rejected, 2 usage, 3 the kernel disagreed,\n"
		"4 not BTF, 5 cannot read.\n");
}

/* The last complete line of a log, for the one-line verdict. */
static char *last_line(const char *log)
{
	size_t n = log ? strlen(log) : 0;
	const char *e, *s;

	while (n && log[n - 1] == '\n')
		n--;
	if (!n)
		return strdup("(no log)");
	e = log + n;
	for (s = e; s > log && s[-1] != '\n'; s--)
		;
	while (s < e && (*s == '\t' || *s == ' ')) /* member lines are tab-led */
		s++;
	return strndup(s, e - s);
}

static void ask_kernel(const struct cfg *c, const struct btfcheck_input *in, uint32_t level,
		       uint32_t size, const struct lbtf_verify_result *res, const char *our_log,
		       struct btfcheck_kernel *k)
{
	char *buf = size ? calloc(1, size) : NULL;
	LBTF_OPTS(lbtf_kernel_load_opts, ko, .log_level = level, .log_buf = buf, .log_size = size);
	int err;

	k->tried = true;
	if (size && !buf) {
		k->err = ENOMEM;
		return;
	}
	err = lbtf_kernel_btf_load(in->data, in->size, &ko);
	k->true_size = ko.log_true_size;
	k->err = -err;
	k->log = buf;
	k->available = err != -EPERM && err != -ENOSYS;
	k->agree = k->err == res->err && k->true_size == res->log_true_size &&
		   (!size || !strcmp(buf, our_log ? our_log : ""));
}

static int check_one(const struct cfg *c, const char *path)
{
	struct lbtf_verify_opts o = { .sz = sizeof(o) };
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	struct btfcheck_input in;
	struct btfcheck_kernel k = { 0 };
	struct btfcheck_report rep = { .file = path, .res = &res };
	char *buf = NULL, *reason = NULL;
	struct lbtf *sysfs_base = NULL;
	uint32_t level = c->log_level >= 0 ? c->log_level : c->json ? 1 : 0;
	bool swapped = false;
	int rc;

	if (lbtf_read_bytes(path, (void **)&in.data, &in.size)) {
		rc = cli_exit_for_errno(errno);
		fprintf(stderr, "btfcheck: %s\n", lbtf_errmsg()); /* names the file */
		return rc;
	}
	/* the other byte order: verified as a kernel of that order would */
	if (lbtf_diagnose(in.data, in.size, NULL) == LBTF_DIAG_OPPOSITE_ENDIAN) {
		fprintf(stderr, "btfcheck: %s: note: %s; verified as a kernel of its byte order "
			"would verify it (this kernel loads only its own)%s\n", path, lbtf_errmsg(),
			c->kernel ? ", so no --kernel comparison" : "");
		swapped = lbtf_bytes_to_host(in.data, in.size) == 1;
	}
	o.log_level = level;
	o.base = c->base;
	/* module BTF from sysfs is split BTF over vmlinux, like lbtf_open() */
	if (!o.base && lbtf_path_is_sysfs_module(path)) {
		sysfs_base = lbtf_open_vmlinux();
		if (!sysfs_base) {
			rc = cli_exit_for_errno(errno);
			fprintf(stderr, "btfcheck: %s: no vmlinux BTF for this module BTF: %s\n", path,
				lbtf_errmsg());
			free(in.data);
			return rc;
		}
		o.base = sysfs_base;
	}
	o.flags = c->strict ? LBTF_VERIFY_STRICT : 0;
	if (c->log_size >= 0) {
		o.log_size = c->log_size;
		buf = c->log_size ? calloc(1, c->log_size) : NULL;
		if (c->log_size && !buf) {
			fprintf(stderr, "btfcheck: out of memory\n");
			free(in.data);
			lbtf_free(sysfs_base);
			return CLI_EXIT_SYSTEM;
		}
		o.log_buf = buf;
	} else {
		o.flags |= LBTF_VERIFY_KEEP_LOG; /* the whole log, never ENOSPC */
	}
	/* split BTF is module BTF: the kernel logs it to dmesg, messages only */
	if (o.base && level)
		o.flags |= LBTF_VERIFY_KERNEL_LOG | LBTF_VERIFY_KEEP_LOG;
	if (lbtf_verify(in.data, in.size, &o, &res) < 0 && !res.err) {
		rc = cli_exit_for_errno(errno);
		fprintf(stderr, "btfcheck: %s: %s\n", path, lbtf_errmsg());
		free(in.data);
		free(buf);
		lbtf_free(sysfs_base);
		return rc;
	}
	rep.log = buf && !(o.flags & LBTF_VERIFY_KERNEL_LOG) ? buf : res.full_log;
	if (res.err) {
		const char *why = rep.log;
		struct lbtf_verify_result again = { .sz = sizeof(again) };
		struct lbtf_verify_opts o1 = o;

		if (!res.true_size_written) {
			/* refused before any log: the size limit or the log attributes */
			reason = strdup(in.size > LBTF_MAX_FILE_SIZE ? "BTF larger than 16 MiB"
								    : "invalid log attributes");
		} else if (!level || !why || !*why || (o.flags & LBTF_VERIFY_KERNEL_LOG)) {
			/* no (user-style) log: find the reason with a full level-1 log */
			o1.log_level = 1;
			o1.log_buf = NULL;
			o1.log_size = 0;
			o1.flags = (o1.flags | LBTF_VERIFY_KEEP_LOG) & ~LBTF_VERIFY_KERNEL_LOG;
			lbtf_verify(in.data, in.size, &o1, &again);
			reason = last_line(again.full_log);
			lbtf_verify_result_free(&again);
		} else {
			reason = last_line(why);
		}
		rep.reason = reason;
	}
	if (c->kernel && !o.base && !swapped) {
		/* without --log-size, give the kernel exactly the room our log
		 * needs: its text and size are then compared too */
		uint32_t ksize = c->log_size >= 0 ? o.log_size
				 : level && res.true_size_written ? res.log_true_size : 0;
		ask_kernel(c, &in, level, ksize, &res, rep.log, &k);
		rep.kernel = &k;
	}
	if (c->json)
		btfcheck_print_json(&rep);
	else
		btfcheck_print_text(&rep, c->quiet);
	rc = k.tried && k.available && !k.agree ? 3 : res.err ? 1 : 0;
	free(k.log);
	free(reason);
	free(buf);
	free(in.data);
	lbtf_free(sysfs_base);
	lbtf_verify_result_free(&res);
	return rc;
}

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

/*
 * A closed stdout (fd 1 not open) would be taken over by the first file we
 * open; hold it with a read-only /dev/null so every write to it fails.
 */
static void stdout_hold(void)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0 && fd != STDOUT_FILENO)
			close(fd);
	}
}

/* Flush and close stdout; report a write error once. 0 when all went out. */
static int stdout_finish(void)
{
	int err = 0;

	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (err)
		fprintf(stderr, "btfcheck: write error on standard output: %s\n", strerror(err));
	return err;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "log-level", required_argument, NULL, 'l' }, { "log-size", required_argument, NULL, 's' },
		{ "base", required_argument, NULL, 'b' },      { "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },           { "kernel", no_argument, NULL, 'k' },
		{ "strict", no_argument, NULL, 'S' },          { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cfg c = { .log_level = -1, .log_size = -1 };
	int opt, worst = 0;
	long long v;

	stdout_hold();
	while ((opt = getopt_long(argc, argv, "l:s:b:jqkShV", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			if (parse_num(optarg, UINT32_MAX, &v)) {
				fprintf(stderr, "btfcheck: bad --log-level '%s'\n", optarg);
				return 2;
			}
			c.log_level = v;
			break;
		case 's':
			if (parse_num(optarg, UINT32_MAX, &v)) {
				fprintf(stderr, "btfcheck: bad --log-size '%s'\n", optarg);
				return 2;
			}
			c.log_size = v;
			break;
		case 'b': c.base_path = optarg; break;
		case 'j': c.json = true; break;
		case 'q': c.quiet = true; break;
		case 'k': c.kernel = true; break;
		case 'S': c.strict = true; break;
		case 'h': usage(stdout); return cli_flush_stdout("btfcheck");
		case 'V': return cli_print_version("btfcheck");
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (c.strict && !c.base_path) {
		fprintf(stderr, "btfcheck: --strict needs --base\n");
		return 2;
	}
	if (c.base_path && !(c.base = lbtf_open(c.base_path, NULL))) {
		int rc = cli_exit_for_errno(errno);

		fprintf(stderr, "btfcheck: %s: %s\n", c.base_path, lbtf_errmsg());
		return rc;
	}
	if (c.base) {
		int rc = cli_check_base("btfcheck", c.base_path, c.base);

		if (rc) {
			lbtf_free(c.base);
			return rc;
		}
	}
	if (c.kernel && c.base)
		fprintf(stderr, "btfcheck: --kernel ignored with --base (BPF_BTF_LOAD has no split BTF)\n");
	for (int i = optind; i < argc; i++) {
		static const int rank[] = { [0] = 0, [1] = 1, [4] = 2, [5] = 3, [3] = 4 };
		int rc = check_one(&c, argv[i]);

		/* precedence: disagreement 3 > cannot read 5 > not BTF 4 > rejected 1 */
		if (rank[rc] > rank[worst])
			worst = rc;
	}
	lbtf_free(c.base);
	/* a verdict or record that never reached stdout is a failure */
	if (stdout_finish())
		return 2;
	return worst;
}
