// SPDX-License-Identifier: BSD-2-Clause
/*
 * Differential test: lbtf_verify() against the running kernel's
 * BPF_BTF_LOAD on generated blobs (random type graphs, mutations, header
 * damage, truncations, the real vmlinux BTF and given objects' BTF,
 * mutated). Verdict, errno, log text and true log size must all agree.
 *
 *   diff_kernel [-s seed] [-n graphs] [-m vmlinux_mutations] [-q] [FILE...]
 * Exit 0 when there is no disagreement, 1 otherwise, 77 without BPF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libbtf.h"
#include "blobgen.h"

#define BIG_LOG (1u << 20)

static unsigned long n_total, n_bad, n_valid, n_enospc;
static unsigned long by_class[10], bad_by_class[10];
static unsigned long errno_hist[10][600];
static const char *class_names[] = { "graph", "mutated", "header", "truncated", "vmlinux",
				     "object", "log-size", "special", "limits", "targeted" };
static char *kbuf, *obuf;

/* The verifier's messages; the summary says which the kernel produced. */
static const char *const messages[] = {
	"hdr_len not found", "btf_header not found", "Unsupported btf_header", "Invalid magic",
	"Unsupported version", "Unsupported flags", "No data", "Invalid section offset",
	"Unsupported section found", "Section overlap found", "Total section length too long",
	"String section is not at the end", "Invalid string section", "Unaligned type_off",
	"No type found", "meta_needed:12", "Invalid btf_info:", "Invalid kind:",
	"Invalid name_offset:", "meta_needed:", "vlen != 0", "Invalid btf_info kind_flag",
	"Invalid int_data:", "nr_bits exceeds 128", "nr_bits exceeds type_size",
	"Unsupported encoding", "Invalid type_id", "Invalid name", "size != 0", "Invalid elem",
	"Invalid index", "Invalid member name_offset:", "Invalid member bits_offset",
	"Member bits_offset exceeds its struct size", "Unexpected size", "\tInvalid name_offset:",
	"type != 0", "Invalid func linkage", "Linkage not supported", "size == 0",
	"Invalid offset", "Invalid size", "Invalid offset+size", "Invalid btf_info size",
	"Invalid type_size", "Invalid value", "Invalid component_idx", "Exceeded max num of types",
	"Exceeded max resolving depth:32", "Loop detected", "Invalid array of int",
	"Array size overflows U32_MAX", "Invalid member", "bits_offset exceeds U32_MAX",
	"nr_copy_bits exceeds 128", "Member exceeds struct_size", "Member is not byte aligned",
	"Member is not properly aligned", "Invalid member base type", "Invalid member offset",
	"Invalid member bitfield_size", "Invalid arg#", "Not a VAR kind member", "Invalid type",
	"Invalid return type", "Type tags don't precede modifiers",
	"Max chain length or cycle detected",
};
#define NR_MESSAGES (sizeof(messages) / sizeof(messages[0]))
static unsigned long msg_seen[NR_MESSAGES];

/* The message at the end of a (complete) kernel log, counted */
static void count_message(const char *log)
{
	size_t n = strlen(log), best = 0;
	int which = -1;

	while (n && log[n - 1] == '\n')
		n--;
	for (size_t i = 0; i < NR_MESSAGES; i++) {
		size_t m = strlen(messages[i]);
		const char *end = log + n, *p;

		/* the message ends the log, or is followed by a number */
		for (p = end; p > log && (p[-1] >= '0' && p[-1] <= '9'); p--)
			;
		if (((size_t)(end - log) >= m && !memcmp(end - m, messages[i], m)) ||
		    ((size_t)(p - log) >= m && !memcmp(p - m, messages[i], m))) {
			if (m > best) {
				best = m;
				which = i;
			}
		}
	}
	if (which >= 0)
		msg_seen[which]++;
}
static int quiet;

static void save_blob(const unsigned char *b, size_t len, unsigned long n)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/vdiff-%lu.btf", n);
	f = fopen(path, "w");
	if (f) {
		fwrite(b, 1, len, f);
		fclose(f);
		fprintf(stderr, "  saved %s\n", path);
	}
}

/* Tail of a log for a report: the last 300 bytes */
static const char *tail(const char *s)
{
	size_t n = strlen(s);
	return n > 300 ? s + n - 300 : s;
}

static int compare(int cls, const unsigned char *b, size_t len, uint32_t level, uint32_t size)
{
	struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = level, .log_size = size,
				      .log_buf = size ? obuf : NULL };
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	uint32_t ktrue = 0;
	int kerr, oerr;

	if (size) {
		memset(kbuf, 0, size < BIG_LOG * 64 ? size : BIG_LOG * 64);
		memset(obuf, 0, size < BIG_LOG * 64 ? size : BIG_LOG * 64);
	}
	LBTF_OPTS(lbtf_kernel_load_opts, ko, .log_level = level, .log_buf = size ? kbuf : NULL,
		  .log_size = size);
	kerr = lbtf_kernel_btf_load(b, len, &ko);
	ktrue = ko.log_true_size;
	oerr = lbtf_verify(b, len, &o, &res);
	n_total++;
	by_class[cls]++;
	if (!kerr)
		n_valid++;
	if (kerr == -ENOSPC)
		n_enospc++;
	if (-kerr >= 0 && -kerr < 600)
		errno_hist[cls][-kerr]++;
	if (kerr && kerr != -ENOSPC && size == BIG_LOG)
		count_message(kbuf);
	if (kerr == oerr && ktrue == res.log_true_size && (!size || !strcmp(kbuf, obuf)))
		return 0;
	n_bad++;
	bad_by_class[cls]++;
	if (n_bad <= 5 && !quiet) {
		fprintf(stderr, "DISAGREE #%lu (%s, level %u, log_size %u, %zu bytes):\n", n_total,
			class_names[cls], level, size, len);
		fprintf(stderr, "  kernel: %s true_size %u\n  ours:   %s true_size %u\n",
			lbtf_errno_name(kerr), ktrue, lbtf_errno_name(oerr), res.log_true_size);
		if (size) {
			fprintf(stderr, "  kernel log tail: [%s]\n", tail(kbuf));
			fprintf(stderr, "  our log tail:    [%s]\n", tail(obuf));
		}
		save_blob(b, len, n_total);
	}
	return 1;
}

/* Log level and size for one blob: mostly level 1 with room, some with a
 * small buffer (rotating or fixed), some level 0, some size-only. */
static void pick_log(struct rng *r, uint32_t *level, uint32_t *size)
{
	uint32_t k = rnd_n(r, 100);

	*level = 1;
	*size = BIG_LOG;
	if (k < 8) {
		*level = chance(r, 50) ? 1 : 1 | LBTF_LOG_FIXED;
		*size = 1 + rnd_n(r, 400);
	} else if (k < 12) {
		*level = 0;
		*size = 0;
	} else if (k < 15) {
		*size = 0;
	} else if (k < 18) {
		*level = PICK(r, ((uint32_t[]){ 2, 3, 4, 6, 7, 15 }));
	}
}

static void run_blob(struct rng *r, int cls, unsigned char *b, size_t len)
{
	uint32_t level, size;

	pick_log(r, &level, &size);
	compare(cls, b, len, level, size);
}

static unsigned char *read_all(const char *path, size_t *len)
{
	struct lbtf *btf = lbtf_open(path, NULL);
	const void *d;
	unsigned char *copy;

	if (!btf)
		return NULL;
	d = lbtf_raw_data(btf, len);
	copy = malloc(*len);
	if (copy)
		memcpy(copy, d, *len);
	lbtf_free(btf);
	return copy;
}

/* A real BTF, mutated in place n times, each compared (then restored). */
static void run_real(struct rng *r, int cls, unsigned char *b, size_t len, unsigned int n,
		     bool big_logs)
{
	unsigned char *m = malloc(len);

	if (!m)
		return;
	for (unsigned int i = 0; i < n; i++) {
		size_t mlen = len;
		uint32_t level = 1, size = big_logs ? 64u << 20 : i % 2 ? BIG_LOG : 1 + rnd_n(r, 4096);

		memcpy(m, b, len);
		if (i > 0)
			gmutate(r, m, len);
		if (i % 5 == 4)
			mlen = LBTF_HDR_LEN_V1 + rnd_n(r, len - LBTF_HDR_LEN_V1);
		if (i % 7 == 3)
			level = 0, size = 0;
		else if (i % 3 == 2)
			level |= LBTF_LOG_FIXED;
		compare(cls, m, mlen, level, size);
	}
	free(m);
}

int main(int argc, char **argv)
{
	uint64_t seed = 0x5eed0b7f;
	unsigned long graphs = 16000, vm_mut = 24;
	struct rng r;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:m:q")) != -1) {
		if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (opt == 'n')
			graphs = strtoul(optarg, NULL, 0);
		else if (opt == 'm')
			vm_mut = strtoul(optarg, NULL, 0);
		else if (opt == 'q')
			quiet = 1;
		else
			return 2;
	}
	kbuf = malloc(64u << 20);
	obuf = malloc(64u << 20);
	if (!kbuf || !obuf)
		return 2;
	{
		static const unsigned char probe[] = { 0 };
		int e = lbtf_kernel_btf_load(probe, 1, NULL);
		if (e == -EPERM || e == -ENOSYS) {
			printf("SKIP: BPF_BTF_LOAD not permitted here (%s)\n", lbtf_errno_name(e));
			return 77;
		}
	}
	r.s = seed;

	for (unsigned long i = 0; i < graphs; i++) {
		size_t len;
		unsigned char *b = i % 2 ? gen_planned(&r, 1 + rnd_n(&r, 30), &len)
					 : gen_graph(&r, 1 + rnd_n(&r, 24), &len);
		unsigned int what = rnd_n(&r, 100);

		if (what < 55) {
			run_blob(&r, 0, b, len);
		} else if (what < 85) {
			for (unsigned int k = 1 + rnd_n(&r, 3); k; k--)
				gmutate(&r, b, len);
			run_blob(&r, 1, b, len);
		} else if (what < 88) {
			unsigned char *e = gextend_hdr(&r, b, &len);
			run_blob(&r, 2, e, len);
			free(e);
		} else if (what < 93) {
			struct lbtf_header *h = (struct lbtf_header *)b;
			gmutate(&r, b, len); /* bias to the header */
			((uint32_t *)h)[1 + rnd_n(&r, 5)] += (int)rnd_n(&r, 9) - 4;
			run_blob(&r, 2, b, len);
		} else {
			run_blob(&r, 3, b, rnd_n(&r, len + 1));
		}
		free(b);
	}
	/* the same graphs again with every small log size 1..N: rotation */
	r.s = seed ^ 0x1234;
	for (unsigned int i = 0; i < 400; i++) {
		size_t len;
		unsigned char *b = gen_graph(&r, 1 + rnd_n(&r, 8), &len);
		compare(6, b, len, chance(&r, 50) ? 1 : 9, 1 + i % 200);
		free(b);
	}

	/* special fields: locks, graph roots and nodes, kptrs */
	for (unsigned int i = 0; i < 3000; i++) {
		size_t len;
		unsigned char *b = gen_special(&r, &len);
		if (chance(&r, 20))
			gmutate(&r, b, len);
		run_blob(&r, 7, b, len);
		free(b);
	}

	/* past the type-count limit: 1048576 PTRs, types beyond id 1048574 dropped */
	{
		const uint32_t n = 1048576 + rnd_n(&r, 16);
		size_t tl = (size_t)n * 12, len = 24 + tl + 1;
		struct lbtf_header h = { LBTF_MAGIC, 1, 0, 24, 0, tl, tl, 1 };
		unsigned char *b = calloc(1, len);

		if (b) {
			memcpy(b, &h, 24);
			for (uint32_t i = 0; i < n; i++)
				memcpy(b + 24 + i * 12, (uint32_t[]){ 0, lbtf_info(LBTF_KIND_PTR, 0, 0),
								      i % 7 ? 0 : i + 3 }, 12);
			compare(8, b, len, 1, 4096);
			compare(8, b, len, 1 | LBTF_LOG_FIXED, BIG_LOG);
			for (uint32_t i = 0; i < n; i++) /* now every reference is void */
				memset(b + 24 + i * 12 + 8, 0, 4);
			compare(8, b, len, 1, 4096);
			compare(8, b, len, 0, 0);
			free(b);
		}
	}

	/* deep chains, odd members, DATASEC sums, strings-first layouts */
	for (unsigned int i = 0; i < 2500; i++) {
		size_t len;
		unsigned char *b = gen_targeted(&r, &len);
		compare(9, b, len, 1, BIG_LOG);
		free(b);
	}

	/* refused before any log: bad log attributes, more than 16 MiB */
	{
		size_t len;
		unsigned char *b = gen_graph(&r, 3, &len), *big;

		compare(8, b, len, 16, 64);          /* BPF_LOG_KERNEL */
		compare(8, b, len, 0, 64);           /* a buffer without a level */
		compare(8, b, len, 1, 0x40000000u);  /* over UINT_MAX >> 2 */
		free(b);
		big = calloc(1, LBTF_MAX_FILE_SIZE + 1);
		if (big) {
			memcpy(big, (uint16_t[]){ LBTF_MAGIC }, 2);
			compare(8, big, LBTF_MAX_FILE_SIZE + 1, 1, 64);
			free(big);
		}
	}

	/* a 40-long modifier chain resolved piecewise: the tag walk's ELOOP */
	{
		struct gbuf t = { 0 };
		struct lbtf_header h = { LBTF_MAGIC, 1, 0, 24, 0, 0, 0, 5 };
		unsigned char *b;

		for (int k = 0; k < 3; k++)
			gput(&t, (uint32_t[]){ 0, lbtf_info(LBTF_KIND_PTR, 0, 0), 33 - 10 * k }, 12);
		for (int k = 1; k <= 40; k++)
			gput(&t, (uint32_t[]){ 0, lbtf_info(k % 9 ? LBTF_KIND_CONST : LBTF_KIND_VOLATILE, 0, 0),
					       k < 40 ? 3 + k + 1 : 44 }, 12);
		gput(&t, (uint32_t[]){ 1, lbtf_info(LBTF_KIND_INT, 0, 0), 4, 32 }, 16);
		h.type_len = h.str_off = t.len;
		b = malloc(24 + t.len + 5);
		if (b) {
			memcpy(b, &h, 24);
			memcpy(b + 24, t.p, t.len);
			memcpy(b + 24 + t.len, "\0int", 5);
			compare(8, b, 24 + t.len + 5, 1, BIG_LOG);
			free(b);
		}
		free(t.p);
	}

	if (vm_mut) {
		size_t len;
		unsigned char *vm = read_all("/sys/kernel/btf/vmlinux", &len);
		if (vm) {
			run_real(&r, 4, vm, len, vm_mut / 2, true);
			run_real(&r, 4, vm, len, vm_mut - vm_mut / 2, false);
			free(vm);
		}
	}
	for (int i = optind; i < argc; i++) {
		size_t len;
		unsigned char *b = read_all(argv[i], &len);
		if (!b) {
			fprintf(stderr, "%s: %s\n", argv[i], lbtf_errmsg());
			continue;
		}
		run_real(&r, 5, b, len, 300, false);
		free(b);
	}

	printf("differential verifier test, seed 0x%llx: %lu blobs, %lu disagreements "
	       "(kernel loaded %lu, ENOSPC %lu)\n",
	       (unsigned long long)seed, n_total, n_bad, n_valid, n_enospc);
	for (int c = 0; c < 10; c++) {
		printf("  %-10s %7lu blobs %5lu disagreements  kernel verdicts:", class_names[c],
		       by_class[c], bad_by_class[c]);
		for (int e = 0; e < 600; e++)
			if (errno_hist[c][e])
				printf(" %s %lu", e ? lbtf_errno_name(e) : "OK", errno_hist[c][e]);
		putchar('\n');
	}
	{
		unsigned int seen = 0;
		for (size_t i = 0; i < NR_MESSAGES; i++)
			seen += !!msg_seen[i];
		printf("  kernel messages produced: %u of %zu; never:", seen, NR_MESSAGES);
		for (size_t i = 0; i < NR_MESSAGES; i++)
			if (!msg_seen[i])
				printf(" \"%s\"", messages[i]);
		putchar('\n');
	}
	return n_bad ? 1 : 0;
}
