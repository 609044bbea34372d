// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_verify() against the kernel's BPF_BTF_LOAD (and libbpf's btf__new)
 * on the same bytes, alternating in one process, N runs each; prints
 * markdown rows with median times and ratios.
 *   verify_bench [-n runs] FILE...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "libbtf.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static unsigned char *read_blob(const char *path, size_t *len)
{
	struct lbtf *btf = lbtf_open(path, NULL);
	unsigned char *copy = NULL;
	const void *d;

	if (!btf)
		return NULL;
	d = lbtf_raw_data(btf, len);
	if ((copy = malloc(*len)))
		memcpy(copy, d, *len);
	lbtf_free(btf);
	return copy;
}

static void row(const char *what, double ours, double peer, const char *notes)
{
	printf("| %s | %.2f ms | %.2f ms | %.2f | %s |\n", what, ours * 1e3, peer * 1e3, ours / peer,
	       notes);
}

static void bench_file(const char *path, int runs)
{
	size_t len;
	unsigned char *b = read_blob(path, &len);
	static char *ourlog, *klog;
	const uint32_t logsz = 256u << 20;
	double *t_ours0 = calloc(runs, sizeof(double)), *t_k0 = calloc(runs, sizeof(double));
	double *t_ours1 = calloc(runs, sizeof(double)), *t_k1 = calloc(runs, sizeof(double));
	double *t_new = calloc(runs, sizeof(double)), *t_ours_new = calloc(runs, sizeof(double));
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char what[256];
	int kerr = 0, oerr = 0;
	char notes[256];

	if (!ourlog) {
		ourlog = malloc(logsz);
		klog = malloc(logsz);
	}
	if (!b || !ourlog || !klog || !t_ours0 || !t_k0 || !t_ours1 || !t_k1 || !t_new || !t_ours_new) {
		fprintf(stderr, "%s: cannot read\n", path);
		return;
	}
	for (int i = 0; i < runs; i++) {
		struct lbtf_verify_opts o0 = { .sz = sizeof(o0), .flags = LBTF_VERIFY_NO_KERNEL_BTF };
		LBTF_OPTS(lbtf_verify_opts, o1, .log_level = 1, .log_size = logsz, .log_buf = ourlog,
			  .flags = LBTF_VERIFY_NO_KERNEL_BTF);
		LBTF_OPTS(lbtf_kernel_load_opts, k1, .log_level = 1, .log_buf = klog, .log_size = logsz);
		struct btf *lb;
		double t;

		t = now();
		oerr = lbtf_verify(b, len, &o0, NULL);
		t_ours0[i] = now() - t;
		t = now();
		kerr = lbtf_kernel_btf_load(b, len, NULL);
		t_k0[i] = now() - t;
		t = now();
		lbtf_verify(b, len, &o1, NULL);
		t_ours1[i] = now() - t;
		t = now();
		lbtf_kernel_btf_load(b, len, &k1);
		t_k1[i] = now() - t;
		t = now();
		lb = btf__new(b, len);
		t_new[i] = now() - t;
		btf__free(lb);
		t_ours_new[i] = t_ours0[i];
	}
	if (kerr == -EPERM) {
		fprintf(stderr, "%s: BPF_BTF_LOAD not permitted, kernel rows skipped\n", path);
	} else {
		snprintf(what, sizeof(what), "verify %s (%zu bytes), log level 0", name, len);
		snprintf(notes, sizeof(notes),
			 "lbtf_verify vs kernel BPF_BTF_LOAD, same bytes, alternating; verdict %s (kernel %s)",
			 oerr ? lbtf_errno_name(oerr) : "OK", kerr ? lbtf_errno_name(kerr) : "OK");
		row(what, median(t_ours0, runs), median(t_k0, runs), notes);
		snprintf(what, sizeof(what), "verify %s, log level 1", name);
		row(what, median(t_ours1, runs), median(t_k1, runs), "full log into a 256 MiB buffer");
	}
	snprintf(what, sizeof(what), "verify %s vs libbpf btf__new", name);
	row(what, median(t_ours_new, runs), median(t_new, runs),
	    "btf__new checks far less than the kernel");
	fprintf(stderr, "%s: %d runs each\n", path, runs);
	free(b);
	free(t_ours0), free(t_k0), free(t_ours1), free(t_k1), free(t_new), free(t_ours_new);
}

int main(int argc, char **argv)
{
	int runs = 21, opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt == 'n')
			runs = atoi(optarg);
		else
			return 2;
	}
	if (runs < 1)
		runs = 1;
	for (int i = optind; i < argc; i++)
		bench_file(argv[i], runs);
	return 0;
}
