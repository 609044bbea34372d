/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Typed data printer: key/value bytes of BPF maps (or any bytes) formatted
 * through BTF, compatible with `bpftool map dump` 7.1, plus a map-dump
 * layer that reproduces bpftool's whole dump layout (hex fallback, per-CPU
 * values, JSON entries with "formatted").
 *
 * Output styles (struct lbtf_data_opts):
 *  - default (json = false): bpftool's plain-text BTF dump, a pretty
 *    JSON-like document whose bitfields and 128-bit integers are bare hex
 *    and whose pointers print as "%p";
 *  - json = true: bpftool -j/-p "formatted" values (hex strings quoted,
 *    pointers as unsigned decimal);
 *  - valid_json = true (with either): strictly valid JSON: bitfields as
 *    numbers (signed ones sign-extended), 128-bit integers as decimal
 *    strings, pointers as strings (plain) or numbers (json), strings escaped
 *    by the JSON rules.
 * Beyond bpftool: FLOAT values print as numbers and TYPE_TAG is looked
 * through (bpftool prints "(unsupported-kind" for both); with net = true,
 * typedefs named __be16/__be32/__be64 print in host order and the address
 * members of struct bpf_flow_keys print as IPv4/IPv6 address strings.
 *
 * Every read is checked against the size given; a value that does not fit
 * prints "(truncated)" (null in JSON) and the call returns -EINVAL.
 */
#ifndef LIBBTF_DATA_H
#define LIBBTF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

struct lbtf;

struct lbtf_data_opts {
	size_t sz;       /* sizeof(struct lbtf_data_opts), first as in libbpf */
	bool json;       /* bpftool -j/-p formatting instead of plain text */
	bool pretty;     /* pretty JSON (plain text is always pretty) */
	bool valid_json; /* strictly valid JSON (see above) */
	bool net;        /* network-order typedefs in host order, flow-key addresses */
};

/* ---- one typed value ---------------------------------------------------- */

struct lbtf_data_printer;

/* NULL and errno on bad options or allocation failure. */
struct lbtf_data_printer *lbtf_data_printer_new(const struct lbtf *btf, FILE *out,
						const struct lbtf_data_opts *opts);
/*
 * Print the value of type type_id held in data[0..size) as one document
 * followed by a newline. Returns 0 or a negative errno (the document is still
 * closed properly).
 */
int lbtf_data_print(struct lbtf_data_printer *p, uint32_t type_id, const void *data, size_t size);
void lbtf_data_printer_free(struct lbtf_data_printer *p);

/* ---- whole map dumps ------------------------------------------------------ */

/* What the dump layout needs to know about a map (from bpf_map_info). */
struct lbtf_map_desc {
	size_t sz;             /* sizeof(struct lbtf_map_desc) */
	uint32_t id;
	uint32_t type;         /* BPF_MAP_TYPE_* */
	const char *type_name; /* e.g. "hash", NULL if unknown (prints the number) */
	const char *name;
	uint32_t flags;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t btf_id;
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	unsigned int nr_cpus;  /* per-CPU map: possible CPUs (values at a stride of
				  value_size rounded up to 8); 0 for other maps */
};

struct lbtf_map_dump;

/*
 * A dump of nr_maps maps to out. typed: plain text uses the BTF writer (bpftool
 * does so when every map dumped has a btf_id); ignored with opts->json.
 */
struct lbtf_map_dump *lbtf_map_dump_new(FILE *out, unsigned int nr_maps, bool typed,
					const struct lbtf_data_opts *opts);
/*
 * Start the next map. btf is the map's BTF (NULL: hex only); it must live
 * until lbtf_map_dump_end().
 */
int lbtf_map_dump_begin(struct lbtf_map_dump *d, const struct lbtf_map_desc *m,
			const struct lbtf *btf);
/* One element; value holds value_size bytes, or nr_cpus strided values. */
int lbtf_map_dump_entry(struct lbtf_map_dump *d, const void *key, const void *value,
			size_t value_len);
/* A lookup that failed with errno err (positive) during the walk. */
int lbtf_map_dump_entry_error(struct lbtf_map_dump *d, const void *key, int err);
/* End of the current map ("Found N elements" in hex mode). */
int lbtf_map_dump_end(struct lbtf_map_dump *d);
/* Ends the document and frees d. */
void lbtf_map_dump_free(struct lbtf_map_dump *d);

/*
 * `map lookup`: one element printed without the surrounding array, or the
 * not-found form (value NULL). Same layout rules as the dump.
 */
int lbtf_map_print_lookup(FILE *out, const struct lbtf_map_desc *m, const struct lbtf *btf,
			  const void *key, const void *value, size_t value_len,
			  const struct lbtf_data_opts *opts);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
