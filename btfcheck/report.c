// SPDX-License-Identifier: BSD-2-Clause
/* btfcheck output: the log and a verdict line (text) or JSON Lines. */
#include <string.h>
#include "btfcheck.h"

void btfcheck_print_text(const struct btfcheck_report *r, bool quiet)
{
	const struct lbtf_verify_result *res = r->res;

	if (!quiet && r->log && *r->log) {
		fputs(r->log, stdout);
		if (r->log[strlen(r->log) - 1] != '\n')
			putchar('\n');
	}
	fflush(stdout);
	if (!res->err)
		fprintf(stderr, "%s: OK", r->file);
	else
		fprintf(stderr, "%s: rejected: %s (%s)", r->file, r->reason,
			lbtf_errno_name(res->err));
	if (res->env_dependent)
		fprintf(stderr, " [kptr targets: the verdict depends on the running kernel's BTF]");
	fputc('\n', stderr);
	if (r->kernel && r->kernel->tried) {
		if (!r->kernel->available)
			fprintf(stderr, "%s: kernel: BPF_BTF_LOAD not permitted (%s), not compared\n",
				r->file, lbtf_errno_name(r->kernel->err));
		else
			fprintf(stderr, "%s: kernel: %s (%s), %s\n", r->file,
				r->kernel->err ? "rejected" : "OK", lbtf_errno_name(r->kernel->err),
				r->kernel->agree ? "agrees" : "DISAGREES");
	}
}

/* JSON string: control characters escaped; bytes that are not valid UTF-8
 * are taken as Latin-1 (the kernel prints names as raw bytes). */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		int n = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : 0;
		int ok = c >= 0x80 && n;

		for (int i = 1; ok && i <= n; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c >= 0x80 && ok) {
			fwrite(p, 1, n + 1, f);
			p += n;
		} else if (c >= 0x80) {
			fprintf(f, "\\u%04x", c);
		} else {
			fputc(c, f);
		}
		p++;
	}
	fputc('"', f);
}

void btfcheck_print_json(const struct btfcheck_report *r)
{
	const struct lbtf_verify_result *res = r->res;

	fputs("{\"file\":", stdout);
	json_str(stdout, r->file);
	printf(",\"valid\":%s,\"errno\":%d,\"errno_name\":", res->err ? "false" : "true", res->err);
	json_str(stdout, res->err ? lbtf_errno_name(res->err) : "");
	fputs(",\"log\":", stdout);
	json_str(stdout, r->log ? r->log : "");
	printf(",\"log_true_size\":%u", res->log_true_size);
	if (res->env_dependent)
		fputs(",\"depends_on_kernel_btf\":true", stdout);
	if (r->kernel && r->kernel->tried) {
		if (!r->kernel->available) {
			fputs(",\"kernel\":null", stdout);
		} else {
			printf(",\"kernel\":{\"valid\":%s,\"errno\":%d,\"errno_name\":",
			       r->kernel->err ? "false" : "true", r->kernel->err);
			json_str(stdout, r->kernel->err ? lbtf_errno_name(r->kernel->err) : "");
			printf(",\"log_true_size\":%u,\"agree\":%s}", r->kernel->true_size,
			       r->kernel->agree ? "true" : "false");
		}
	}
	fputs("}\n", stdout);
}
