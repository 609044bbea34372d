// SPDX-License-Identifier: BSD-2-Clause
/* btfcheck output: a verdict line on stdout and the log on stderr (text),
 * or JSON Lines on stdout. */
#include <errno.h>
#include <string.h>
#include "btfcheck.h"
#include "cli.h"
#include "libbtf_verify.h"
#include "io/io.h"

static void version_str(char *buf, size_t n, uint32_t v)
{
	if (v == LBTF_KERNEL_NONE)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%u.%u", v >> 16, (v >> 8) & 0xff);
}

/* "a, b, c" of the set bits, named by name() */
/* s after the len bytes of buf (n bytes), cut as snprintf would cut it;
 * the new length */
static size_t append(char *buf, size_t n, size_t len, const char *s)
{
	size_t k = strlen(s);

	if (k > n - 1 - len)
		k = n - 1 - len;
	memcpy(buf + len, s, k);
	buf[len + k] = 0;
	return len + k;
}

static void bit_list(char *buf, size_t n, uint32_t bits, const char *(*name)(uint32_t))
{
	size_t len = 0;

	/* appended, not snprintf'ed: printed for every object of a gate */
	*buf = 0;
	for (unsigned int i = 0; i < 32; i++) {
		const char *s;

		if (!(bits & (1u << i)) || !(s = name(1u << i)))
			continue;
		if (len)
			len = append(buf, n, len, ", ");
		len = append(buf, n, len, s);
	}
}

static void print_mink_text(const struct btfcheck_report *r)
{
	const struct lbtf_min_kernel *m = &r->mink->mk;
	char v[16], vl[16], feats[256] = "";

	if (!r->mink->done) {
		fprintf(stdout, "%s: min-kernel: unknown (%s)\n", r->file, lbtf_errmsg());
		return;
	}
	version_str(v, sizeof(v), m->version);
	version_str(vl, sizeof(vl), m->version_libbpf);
	fprintf(stdout, "%s: min-kernel: %s (%s", r->file, v, m->why);
	if (m->why_id)
		fprintf(stdout, ", type [%u]", m->why_id);
	fprintf(stdout, "); with libbpf's sanitization: %s (%s", vl, m->why_libbpf);
	if (m->why_libbpf_id)
		fprintf(stdout, ", type [%u]", m->why_libbpf_id);
	fputc(')', stdout);
	for (unsigned int i = 0; i < 7; i++) {
		uint32_t bit = 1u << i, kv = lbtf_kfeat_version(bit);

		if (m->kfeats & bit)
			snprintf(feats + strlen(feats), sizeof(feats) - strlen(feats), "%s%s below %u.%u",
				 *feats ? ", " : "", lbtf_kfeat_name(bit), kv >> 16, (kv >> 8) & 0xff);
	}
	if (*feats)
		fprintf(stdout, "; libbpf rewrites %s", feats);
	fputc('\n', stdout);
}

void btfcheck_print_text(const struct btfcheck_report *r, bool quiet)
{
	const struct lbtf_verify_result *res = r->res;
	char fix[256];

	/* the log is a diagnostic (stderr), the verdict the result (stdout):
	 * `btfcheck x.o | tee` keeps every verdict. The verdicts before go out
	 * before this file's log, the log before its verdict; the verdicts
	 * themselves are not flushed one by one (one write for a gate's
	 * verdicts, not one each) */
	if (!quiet && r->show_log && r->log_len) {
		fflush(stdout);
		fwrite(r->log, 1, r->log_len, stderr);
		if (r->log[r->log_len - 1] != '\n')
			fputc('\n', stderr);
	}
	fflush(stderr);
	/* the verdict line of every object of a gate: put, not formatted */
	fputs(r->file, stdout);
	if (r->open_failed)
		fprintf(stdout, ": rejected: libbpf would not open it: %s (%s)", r->reason,
			lbtf_errno_name(res->err));
	else if (!res->err)
		fputs(": OK", stdout);
	else
		fprintf(stdout, ": rejected: %s (%s)", r->reason, lbtf_errno_name(res->err));
	if (r->no_btf) {
		fputs(" [BPF object without .BTF: libbpf opens and loads it without BTF]", stdout);
	} else if (r->object && !r->open_failed) {
		bit_list(fix, sizeof(fix), r->fixups, cli_fixup_name);
		fputs(" [BPF object: the BTF libbpf loads; fixups: ", stdout);
		fputs(*fix ? fix : "none", stdout);
		bit_list(fix, sizeof(fix), r->sanitized, lbtf_kfeat_name);
		if (*fix) {
			fputs("; sanitized: ", stdout);
			fputs(fix, stdout);
		}
		fputc(']', stdout);
	}
	if (r->distilled)
		fprintf(stdout, " [module BTF over its .BTF.base%s]",
			r->relocated ? ", relocated onto the base"
			: res->err ? "" : "; relocation onto a vmlinux not checked (--base VMLINUX)");
	if (res->env_dependent)
		fprintf(stdout, " [kptr targets: the verdict depends on the running kernel's BTF]");
	fputc('\n', stdout);
	if (r->hint)
		fprintf(stdout, "%s: hint: %s\n", r->file, r->hint);
	if (r->mink)
		print_mink_text(r);
	if (r->kernel && r->kernel->tried) {
		if (!r->kernel->available)
			fprintf(stdout, "%s: kernel: BPF_BTF_LOAD not permitted (%s), not compared\n",
				r->file, lbtf_errno_name(r->kernel->err));
		else
			fprintf(stdout, "%s: kernel: %s (%s), %s\n", r->file,
				r->kernel->err ? "rejected" : "OK", lbtf_errno_name(r->kernel->err),
				r->kernel->agree ? "agrees" : "DISAGREES");
	}
}

/* JSON string: control characters escaped; bytes that are not valid UTF-8
 * are taken as Latin-1 (the kernel prints names as raw bytes): libbtf's
 * JSON quoting, strict (lossless) */
void btfcheck_json_str(FILE *f, const char *s)
{
	lbtfi_json_put_quoted(f, s, true);
}

static void json_bits(const char *key, uint32_t bits, const char *(*name)(uint32_t))
{
	bool first = true;

	printf(",\"%s\":[", key);
	for (unsigned int i = 0; i < 32; i++) {
		if (!(bits & (1u << i)) || !name(1u << i))
			continue;
		printf("%s\"%s\"", first ? "" : ",", name(1u << i));
		first = false;
	}
	putchar(']');
}

static void print_mink_json(const struct btfcheck_report *r)
{
	const struct lbtf_min_kernel *m = &r->mink->mk;
	char v[16];

	if (!r->mink->done) {
		fputs(",\"min_kernel\":null", stdout);
		return;
	}
	version_str(v, sizeof(v), m->version);
	printf(",\"min_kernel\":{\"version\":\"%s\",\"why\":", v);
	btfcheck_json_str(stdout, m->why);
	printf(",\"why_type_id\":%u", m->why_id);
	version_str(v, sizeof(v), m->version_libbpf);
	printf(",\"with_libbpf\":\"%s\",\"with_libbpf_why\":", v);
	btfcheck_json_str(stdout, m->why_libbpf);
	printf(",\"with_libbpf_why_type_id\":%u", m->why_libbpf_id);
	json_bits("libbpf_sanitizes", m->kfeats, lbtf_kfeat_name);
	putchar('}');
}

void btfcheck_print_json(const struct btfcheck_report *r, bool quiet)
{
	const struct lbtf_verify_result *res = r->res;

	fputs("{\"file\":", stdout);
	btfcheck_json_str(stdout, r->file);
	if (r->error) {
		fputs(",\"error\":", stdout);
		btfcheck_json_str(stdout, r->error);
		fputs("}\n", stdout);
		return;
	}
	printf(",\"mode\":\"%s\"", r->object ? "object" : "raw");
	if (r->object) {
		printf(",\"libbpf_open\":%s", r->open_failed ? "false" : "true");
		if (r->no_btf)
			fputs(",\"btf\":false", stdout);
		json_bits("fixups", r->fixups, cli_fixup_name);
		json_bits("sanitized", r->sanitized, lbtf_kfeat_name);
	}
	if (r->distilled)
		printf(",\"distilled_base\":true,\"relocated\":%s", r->relocated ? "true" : "false");
	printf(",\"valid\":%s,\"errno\":%d,\"errno_name\":", res->err ? "false" : "true", res->err);
	btfcheck_json_str(stdout, res->err ? lbtf_errno_name(res->err) : "");
	if (r->reason) {
		fputs(",\"reason\":", stdout);
		btfcheck_json_str(stdout, r->reason);
	}
	if (r->hint) {
		fputs(",\"hint\":", stdout);
		btfcheck_json_str(stdout, r->hint);
	}
	if (!quiet && r->show_log) {
		fputs(",\"log\":", stdout);
		btfcheck_json_str(stdout, r->log ? r->log : "");
	}
	printf(",\"log_true_size\":%u", res->log_true_size);
	if (res->err == ENOSPC && r->log_size_set)
		printf(",\"log_size\":%u,\"log_short_by\":%u", r->log_size,
		       res->log_true_size - r->log_size);
	if (res->env_dependent)
		fputs(",\"depends_on_kernel_btf\":true", stdout);
	if (r->mink)
		print_mink_json(r);
	if (r->kernel && r->kernel->tried) {
		if (!r->kernel->available) {
			printf(",\"kernel\":{\"compared\":false,\"errno\":%d,\"errno_name\":",
			       r->kernel->err);
			btfcheck_json_str(stdout, lbtf_errno_name(r->kernel->err));
			putchar('}');
		} else {
			printf(",\"kernel\":{\"valid\":%s,\"errno\":%d,\"errno_name\":",
			       r->kernel->err ? "false" : "true", r->kernel->err);
			btfcheck_json_str(stdout, r->kernel->err ? lbtf_errno_name(r->kernel->err) : "");
			printf(",\"log_true_size\":%u,\"agree\":%s,\"compared\":true}",
			       r->kernel->true_size, r->kernel->agree ? "true" : "false");
		}
	}
	fputs("}\n", stdout);
}
