// SPDX-License-Identifier: BSD-2-Clause
/*
 * Benchmark driver: raw (not deduplicated) BTF in memory -> deduplicated
 * raw BTF, by libbtf (lbtf_builder_adopt_raw + lbtf_builder_dedup + serialize:
 * the builder takes the blob over) or by libbpf
 * (btf__new + btf__dedup + btf__raw_data). One run per process so that the
 * peak RSS is the run's own. Prints "wall_s cpu_s types_out maxrss_kb
 * input_kb dedup_wall_s dedup_cpu_s dedup_kb": the run's times, the peak RSS
 * of the whole process, and its RSS just before the run (the program, its
 * libraries and the raw input read into memory: the same for both sides),
 * so that peak minus that is what the run itself took; then the dedup call
 * alone (lbtf_builder_dedup, btf__dedup): its times, and its peak RSS
 * above the RSS it started with (the high-water mark reset at its start
 * through /proc/self/clear_refs, read back from VmHWM). With OUT, the deduplicated types and strings (no header: libbpf 1.8
 * writes 32 bytes of it, libbtf 24) go to OUT, for a byte comparison.
 *   dedup_bench ours|libbpf RAW.btf [OUT]
 *   dedup_bench copies SRC.btf N OUT.btf   (SRC's types N times, ids shifted)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/btf.h>
#include "libbtf.h"
#include "io/io.h"

static double clk(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0) {
		perror(path);
		exit(1);
	}
	rewind(f);
	buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read failed\n", path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int add_delta(uint32_t *slot, void *ctx)
{
	if (*slot)
		*slot += *(uint32_t *)ctx;
	return 0;
}

static int copies(const char *src_path, int n, const char *out)
{
	struct lbtf *src = lbtf_open(src_path, NULL);
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	void *data;
	size_t size;

	if (!src) {
		fprintf(stderr, "%s: %s\n", src_path, lbtf_errmsg());
		return 1;
	}
	for (int c = 0; c < n; c++) {
		uint32_t delta = lbtf_builder_type_cnt(b) - 1;
		for (uint32_t id = 1; id < lbtf_type_cnt(src); id++) {
			int nid = lbtf_builder_add_type_copy(b, src, id);
			if (nid < 0)
				return 1;
			lbtf_type_visit_type_ids(lbtf_builder_type_by_id(b, (uint32_t)nid), add_delta, &delta);
		}
	}
	if (lbtf_builder_serialize(b, false, &data, &size) || lbtfi_write_file_atomic(out, data, size)) {
		fprintf(stderr, "%s: %s\n", out, lbtf_errmsg());
		return 1;
	}
	return 0;
}

/* The output blob of the run, kept for OUT */
static const void *out_data;
static size_t out_size;

/* The dedup call alone: times, memory above its start */
static double dedup_wall, dedup_cpu;
static long dedup_kb;

/* A field of /proc/self/status in KiB (VmRSS, VmHWM), -1 if unreadable */
static long status_kb(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	size_t n = strlen(field);
	char line[256];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* Bracket the dedup call: the high-water mark reset first (clear_refs 5) */
static long rss_at_start;

static void dedup_start(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	if (!f || fputs("5", f) < 0 || fclose(f)) {
		perror("/proc/self/clear_refs");
		exit(1);
	}
	rss_at_start = status_kb("VmRSS");
	dedup_wall = clk(CLOCK_MONOTONIC);
	dedup_cpu = clk(CLOCK_PROCESS_CPUTIME_ID);
}

static void dedup_end(void)
{
	dedup_wall = clk(CLOCK_MONOTONIC) - dedup_wall;
	dedup_cpu = clk(CLOCK_PROCESS_CPUTIME_ID) - dedup_cpu;
	dedup_kb = status_kb("VmHWM") - rss_at_start;
}

/* RSS in KiB now (/proc/self/statm: pages) */
static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, res = -1;

	if (!f || fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	if (f)
		fclose(f);
	return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Types and strings of a raw blob to path (header skipped), checked */
static int write_body(const char *path, const void *data, size_t size)
{
	struct lbtf_header h;
	FILE *f;

	if (size < sizeof(h)) {
		fprintf(stderr, "%s: output of %zu bytes, no header\n", path, size);
		return 1;
	}
	memcpy(&h, data, sizeof(h));
	if ((size_t)h.hdr_len + h.type_len + h.str_len > size) {
		fprintf(stderr, "%s: output header overruns its %zu bytes\n", path, size);
		return 1;
	}
	f = fopen(path, "wb");
	if (!f || fwrite((const char *)data + h.hdr_len, 1, (size_t)h.type_len + h.str_len, f) !=
			  (size_t)h.type_len + h.str_len ||
	    fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

/* raw (malloc'ed) is the builder's from here on: its records are edited in
 * place, as a user deduplicating a file read into memory would do */
static uint32_t run_ours(void *raw, size_t len)
{
	struct lbtf_builder *b = lbtf_builder_adopt_raw(raw, len);
	uint32_t cnt;
	void *out;
	size_t out_len;

	if (!b)
		return 0;
	dedup_start();
	if (lbtf_builder_dedup(b, NULL))
		return 0;
	dedup_end();
	if (lbtf_builder_serialize(b, false, &out, &out_len))
		return 0;
	cnt = lbtf_builder_type_cnt(b) - 1;
	lbtf_builder_free(b);
	out_data = out;
	out_size = out_len;
	return cnt;
}

static uint32_t run_libbpf(const void *raw, size_t len)
{
	struct btf *b = btf__new(raw, (uint32_t)len);
	uint32_t cnt, out_len;

	if (!b)
		return 0;
	dedup_start();
	if (btf__dedup(b, NULL))
		return 0;
	dedup_end();
	if (!(out_data = btf__raw_data(b, &out_len)))
		return 0;
	cnt = btf__type_cnt(b) - 1;
	out_size = out_len; /* (b stays: it owns out_data) */
	return cnt;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double w0, c0, w1, c1;
	uint32_t cnt;
	size_t len;
	long in_kb;
	void *raw;

	if (argc == 5 && !strcmp(argv[1], "copies"))
		return copies(argv[2], atoi(argv[3]), argv[4]);
	if ((argc != 3 && argc != 4) || (strcmp(argv[1], "ours") && strcmp(argv[1], "libbpf"))) {
		fprintf(stderr, "usage: %s ours|libbpf RAW.btf [OUT] | copies SRC N OUT\n", argv[0]);
		return 2;
	}
	raw = slurp(argv[2], &len);
	in_kb = rss_kb();
	w0 = clk(CLOCK_MONOTONIC);
	c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
	cnt = !strcmp(argv[1], "ours") ? run_ours(raw, len) : run_libbpf(raw, len);
	w1 = clk(CLOCK_MONOTONIC);
	c1 = clk(CLOCK_PROCESS_CPUTIME_ID);
	if (!cnt) {
		fprintf(stderr, "%s: dedup failed: %s\n", argv[1], lbtf_errmsg());
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	if (argc == 4 && write_body(argv[3], out_data, out_size))
		return 1;
	if (printf("%.4f %.4f %u %ld %ld %.4f %.4f %ld\n", w1 - w0, c1 - c0, cnt, ru.ru_maxrss, in_kb,
		   dedup_wall, dedup_cpu, dedup_kb) < 0 ||
	    fflush(stdout)) {
		perror("stdout");
		return 1;
	}
	return 0;
}
