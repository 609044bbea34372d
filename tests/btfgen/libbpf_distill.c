// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbpf_distill BASE SPLIT OUT_BASE OUT_SPLIT: libbpf's own
 * btf__distill_base() (libbpf >= 1.5, built by scripts/build-libbpf.sh) of
 * raw split BTF over a raw base, both results written raw: the reference of
 * check_pahole_distilled.sh.
 */
#include <bpf/btf.h>
#include <stdio.h>

static int write_raw(const char *path, const struct btf *btf)
{
	unsigned int size;
	const void *data = btf__raw_data(btf, &size);
	FILE *f = fopen(path, "wb");

	if (!data || !f)
		return 1;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 1;
	}
	return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct btf *base, *split, *new_base, *new_split;

	if (argc != 5)
		return 2;
	base = btf__parse_raw(argv[1]);
	split = base ? btf__parse_raw_split(argv[2], base) : NULL;
	if (!split || btf__distill_base(split, &new_base, &new_split)) {
		fprintf(stderr, "libbpf_distill: cannot distill %s over %s\n", argv[2], argv[1]);
		return 1;
	}
	return write_raw(argv[3], new_base) || write_raw(argv[4], new_split);
}
