// SPDX-License-Identifier: BSD-2-Clause
/*
 * Whole map dumps laid out as `bpftool map dump` / `map lookup` 7.1 lay them
 * out: hex lines and a "Found N elements" footer without BTF; a pretty
 * JSON-like array of typed entries with BTF; JSON entries with hex byte
 * arrays plus "formatted" in -j/-p mode. The bytes come from the caller
 * (no syscalls here).
 */
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct lbtf_map_dump {
	FILE *out;
	struct lbtf_data_opts o;
	struct lbtfi_json w;
	bool writer;          /* JSON or typed plain text: output goes through w */
	unsigned int nr_maps; /* several: root array and map headers */
	unsigned int done;    /* maps ended so far */
	struct lbtf_map_desc m;
	const struct lbtf *btf;
	unsigned int count;   /* elements of the current map */
};

/* The map description is required, otherwise an options struct. */
static int desc_copy(struct lbtf_map_desc *dst, const struct lbtf_map_desc *src)
{
	if (!src)
		return lbtfi_err(EINVAL, "lbtf_map_desc: missing");
	return LBTFI_OPTS_COPY(dst, src, lbtf_map_desc);
}

/* Stride of per-CPU values: the kernel rounds each copy up to 8 bytes. */
static size_t cpu_stride(const struct lbtf_map_desc *m)
{
	return ((size_t)m->value_size + 7) & ~(size_t)7;
}

static const char hexdig[] = "0123456789abcdef";

/*
 * bpftool's hex: bytes space-separated, two spaces after 8, newline every
 * 16. Formatted by hand, 16 bytes per write: dumps print millions of bytes.
 */
static void put_hex(FILE *f, const unsigned char *p, size_t n)
{
	char line[16 * 3 + 2];

	for (size_t i = 0; i < n; i += 16) {
		size_t k = 0;

		if (i)
			line[k++] = '\n';
		for (size_t j = i; j < n && j < i + 16; j++) {
			if (j > i)
				line[k++] = ' ';
			if (j == i + 8)
				line[k++] = ' ';
			line[k++] = hexdig[p[j] >> 4];
			line[k++] = hexdig[p[j] & 15];
		}
		fwrite(line, 1, k, f);
	}
}

/* JSON arrays of "0x.." strings (the writer's string path, no printf). */
static void put_hex_json(struct lbtfi_json *w, const unsigned char *p, size_t n)
{
	char s[5] = "0x00";

	lbtfi_json_start_array(w);
	for (size_t i = 0; i < n; i++) {
		s[2] = hexdig[p[i] >> 4];
		s[3] = hexdig[p[i] & 15];
		lbtfi_json_string(w, s);
	}
	lbtfi_json_end_array(w);
}

/* An entry without BTF, one of bpftool's three layouts (or the per-CPU one). */
static void plain_entry(FILE *f, const struct lbtf_map_desc *m, const unsigned char *key,
			const unsigned char *value)
{
	if (!m->nr_cpus) {
		bool break_names = m->key_size > 16 || m->value_size > 16;
		bool one_line = m->key_size + m->value_size <= 24 && !break_names;

		if (m->key_size) {
			fprintf(f, "key:%c", break_names ? '\n' : ' ');
			put_hex(f, key, m->key_size);
			fputs(one_line ? "  " : "\n", f);
		}
		if (m->value_size) {
			fprintf(f, "value:%c", break_names ? '\n' : ' ');
			put_hex(f, value, m->value_size);
		}
		fputc('\n', f);
		return;
	}
	if (m->key_size) {
		fputs("key:\n", f);
		put_hex(f, key, m->key_size);
		fputc('\n', f);
	}
	if (!m->value_size)
		return;
	for (unsigned int i = 0; i < m->nr_cpus; i++) {
		fprintf(f, "value (CPU %02u):%c", i, m->value_size > 16 ? '\n' : ' ');
		put_hex(f, value + i * cpu_stride(m), m->value_size);
		fputc('\n', f);
	}
}

/* The typed object {"key": ..., "value"/"values": ...} of one entry. */
static int typed_entry(struct lbtfi_json *w, const struct lbtf_data_opts *o, bool text,
		       const struct lbtf_map_desc *m, const struct lbtf *btf,
		       const unsigned char *key, const unsigned char *value)
{
	struct lbtf_data_opts so = *o;
	struct lbtfi_dp dp;
	int ret = 0;

	so.json = !text;
	lbtfi_dp_init(&dp, btf, w, &so,
		      m->key_size + (size_t)m->value_size * (m->nr_cpus ? m->nr_cpus : 1));
	lbtfi_json_start_object(w);
	if (m->btf_key_type_id) {
		lbtfi_json_name(w, "key");
		ret = lbtfi_dp_type(&dp, m->btf_key_type_id, 0,
				    (struct lbtfi_bytes){ key, m->key_size });
		if (ret)
			goto out;
	}
	if (!m->nr_cpus) {
		lbtfi_json_name(w, "value");
		ret = lbtfi_dp_type(&dp, m->btf_value_type_id, 0,
				    (struct lbtfi_bytes){ value, m->value_size });
		goto out;
	}
	lbtfi_json_name(w, "values");
	lbtfi_json_start_array(w);
	for (unsigned int i = 0; i < m->nr_cpus && !ret; i++) {
		lbtfi_json_start_object(w);
		lbtfi_json_int_field(w, "cpu", i);
		lbtfi_json_name(w, "value");
		ret = lbtfi_dp_type(&dp, m->btf_value_type_id, 0,
				    (struct lbtfi_bytes){ value + i * cpu_stride(m), m->value_size });
		lbtfi_json_end_object(w);
	}
	lbtfi_json_end_array(w);
out:
	lbtfi_json_end_object(w);
	return ret;
}

/* An entry of bpftool -j: hex arrays, then "formatted" when BTF is known. */
static int json_entry(struct lbtfi_json *w, const struct lbtf_data_opts *o,
		      const struct lbtf_map_desc *m, const struct lbtf *btf,
		      const unsigned char *key, const unsigned char *value)
{
	int ret = 0;

	lbtfi_json_start_object(w);
	lbtfi_json_name(w, "key");
	put_hex_json(w, key, m->key_size);
	if (!m->nr_cpus) {
		lbtfi_json_name(w, "value");
		put_hex_json(w, value, m->value_size);
	} else {
		lbtfi_json_name(w, "values");
		lbtfi_json_start_array(w);
		for (unsigned int i = 0; i < m->nr_cpus; i++) {
			lbtfi_json_start_object(w);
			lbtfi_json_int_field(w, "cpu", i);
			lbtfi_json_name(w, "value");
			put_hex_json(w, value + i * cpu_stride(m), m->value_size);
			lbtfi_json_end_object(w);
		}
		lbtfi_json_end_array(w);
	}
	if (btf) {
		lbtfi_json_name(w, "formatted");
		ret = typed_entry(w, o, false, m, btf, key, value);
	}
	lbtfi_json_end_object(w);
	return ret;
}

/* Bytes an entry's value buffer must hold. */
static size_t value_need(const struct lbtf_map_desc *m)
{
	return m->nr_cpus ? cpu_stride(m) * (m->nr_cpus - 1) + m->value_size : m->value_size;
}

static int print_entry(FILE *out, struct lbtfi_json *w, bool writer, const struct lbtf_data_opts *o,
		       const struct lbtf_map_desc *m, const struct lbtf *btf,
		       const void *key, const void *value, size_t value_len)
{
	if ((!key && m->key_size) || (!value && m->value_size) || value_len < value_need(m))
		return lbtfi_err(EINVAL, "map entry: value buffer of %zu bytes, %zu needed",
				 value_len, value_need(m));
	if (o->json)
		return json_entry(w, o, m, btf, key, value);
	if (writer && btf)
		return typed_entry(w, o, true, m, btf, key, value);
	/* bpftool prints hex even inside its typed writer when BTF is missing */
	plain_entry(out, m, key, value);
	return 0;
}

struct lbtf_map_dump *lbtf_map_dump_new(FILE *out, unsigned int nr_maps, bool typed,
					const struct lbtf_data_opts *opts)
{
	struct lbtf_map_dump *d;
	struct lbtf_data_opts o;
	int err;

	if (!out || !nr_maps)
		return lbtfi_err_ptr(EINVAL, "lbtf_map_dump_new: out and nr_maps are required");
	err = LBTFI_OPTS_COPY(&o, opts, lbtf_data_opts);
	if (err) {
		errno = -err;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	d->out = out;
	d->o = o;
	d->nr_maps = nr_maps;
	d->writer = o.json || typed;
	lbtfi_json_init(&d->w, out, o.json ? o.pretty : true);
	if (d->writer && nr_maps > 1)
		lbtfi_json_start_array(&d->w);
	return d;
}

/* "ID: TYPE  name NAME  flags 0x0" as `bpftool map show` begins a map. */
static void plain_header(FILE *f, const struct lbtf_map_desc *m)
{
	fprintf(f, "%u: ", m->id);
	if (m->type_name)
		fprintf(f, "%s  ", m->type_name);
	else
		fprintf(f, "type %u  ", m->type);
	if (m->name && *m->name)
		fprintf(f, "name %s  ", m->name);
	fprintf(f, "flags 0x%x\n", m->flags);
}

static void json_header(struct lbtfi_json *w, const struct lbtf_map_desc *m)
{
	lbtfi_json_uint_field(w, "id", m->id);
	if (m->type_name)
		lbtfi_json_string_field(w, "type", m->type_name);
	else
		lbtfi_json_uint_field(w, "type", m->type);
	if (m->name && *m->name)
		lbtfi_json_string_field(w, "name", m->name);
	lbtfi_json_name(w, "flags");
	lbtfi_json_printf(w, "%d", (int)m->flags);
}

int lbtf_map_dump_begin(struct lbtf_map_dump *d, const struct lbtf_map_desc *m,
			const struct lbtf *btf)
{
	int err;

	if (!d)
		return lbtfi_err(EINVAL, "lbtf_map_dump_begin: no dump");
	err = desc_copy(&d->m, m);
	if (err)
		return err;
	d->btf = btf;
	d->count = 0;
	if (d->writer) {
		if (d->nr_maps > 1) {
			lbtfi_json_start_object(&d->w);
			json_header(&d->w, &d->m);
			lbtfi_json_name(&d->w, "elements");
		}
		lbtfi_json_start_array(&d->w);
	} else if (d->nr_maps > 1) {
		plain_header(d->out, &d->m);
	}
	return 0;
}

int lbtf_map_dump_entry(struct lbtf_map_dump *d, const void *key, const void *value,
			size_t value_len)
{
	int ret;

	if (!d)
		return lbtfi_err(EINVAL, "lbtf_map_dump_entry: no dump");
	if (value_len < value_need(&d->m))
		return lbtfi_err(EINVAL, "map entry: value buffer of %zu bytes, %zu needed",
				 value_len, value_need(&d->m));
	/* bpftool counts the entry even when its typed print failed */
	d->count++;
	ret = print_entry(d->out, &d->w, d->writer, &d->o, &d->m, d->btf, key, value, value_len);
	return ret;
}

int lbtf_map_dump_entry_error(struct lbtf_map_dump *d, const void *key, int err)
{
	const struct lbtf_map_desc *m;
	const char *msg;

	if (!d)
		return lbtfi_err(EINVAL, "lbtf_map_dump_entry_error: no dump");
	m = &d->m;
	/* empty slots of prog arrays and maps of maps are not errors */
	if (err == ENOENT && (m->type == BPF_MAP_TYPE_PROG_ARRAY ||
			      m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
			      m->type == BPF_MAP_TYPE_HASH_OF_MAPS))
		return 0;
	if (d->o.json) {
		lbtfi_json_start_object(&d->w);
		lbtfi_json_name(&d->w, "key");
		put_hex_json(&d->w, key, m->key_size);
		lbtfi_json_name(&d->w, "value");
		lbtfi_json_start_object(&d->w);
		lbtfi_json_string_field(&d->w, "error", strerror(err));
		lbtfi_json_end_object(&d->w);
		lbtfi_json_end_object(&d->w);
		return 0;
	}
	if (err == ENOENT)
		msg = "<no entry>";
	else if (err == ENOSPC && m->type == BPF_MAP_TYPE_REUSEPORT_SOCKARRAY)
		msg = "<cannot read>";
	else
		msg = strerror(err);

	size_t len = strlen(msg);
	bool break_names = m->key_size > 16 || len > 16;
	bool one_line = m->key_size + len <= 24 && !break_names;

	fprintf(d->out, "key:%c", break_names ? '\n' : ' ');
	put_hex(d->out, key, m->key_size);
	fputs(one_line ? "  " : "\n", d->out);
	fprintf(d->out, "value:%c%s\n", break_names ? '\n' : ' ', msg);
	return 0;
}

int lbtf_map_dump_end(struct lbtf_map_dump *d)
{
	if (!d)
		return lbtfi_err(EINVAL, "lbtf_map_dump_end: no dump");
	d->done++;
	if (d->writer) {
		lbtfi_json_end_array(&d->w);
		if (d->nr_maps > 1)
			lbtfi_json_end_object(&d->w);
		return 0;
	}
	fprintf(d->out, "Found %u element%s\n", d->count, d->count != 1 ? "s" : "");
	if (d->done < d->nr_maps)
		fputc('\n', d->out);
	return 0;
}

void lbtf_map_dump_free(struct lbtf_map_dump *d)
{
	if (!d)
		return;
	if (d->writer) {
		if (d->nr_maps > 1)
			lbtfi_json_end_array(&d->w);
		lbtfi_json_finish(&d->w);
	}
	fflush(d->out);
	free(d);
}

int lbtf_map_print_lookup(FILE *out, const struct lbtf_map_desc *m, const struct lbtf *btf,
			  const void *key, const void *value, size_t value_len,
			  const struct lbtf_data_opts *opts)
{
	struct lbtf_map_desc md;
	struct lbtf_data_opts o;
	struct lbtfi_json w;
	int ret;

	if (!out)
		return lbtfi_err(EINVAL, "lbtf_map_print_lookup: no output");
	ret = LBTFI_OPTS_COPY(&o, opts, lbtf_data_opts);
	if (!ret)
		ret = desc_copy(&md, m);
	if (ret)
		return ret;
	lbtfi_json_init(&w, out, o.json ? o.pretty : true);
	if (!value) {
		if (o.json) {
			lbtfi_json_null(&w);
			lbtfi_json_finish(&w);
		} else {
			fputs("key:\n", out);
			put_hex(out, key, md.key_size);
			fputs("\n\nNot found\n", out);
		}
		return 0;
	}
	ret = print_entry(out, &w, btf != NULL, &o, &md, btf, key, value, value_len);
	if (o.json || btf)
		lbtfi_json_finish(&w);
	return ret;
}
