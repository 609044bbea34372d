// SPDX-License-Identifier: BSD-2-Clause
/*
 * .BTF.ext printed for people (raw text) and programs (JSON), every record
 * named through the .BTF it was made with:
 *  - func_info: per ELF section, each FUNC with its instruction offset;
 *  - line_info: file:line:col and the source line clang stored;
 *  - CO-RE relocations: the kind (libbpf's words), the root type, the
 *    access string and what it reaches as a member path:
 *      struct task_struct::real_parent          (field "0:57")
 *      struct sk_buff::cb[2]                    (an array element)
 *      struct x::u.(anon).y                     (an anonymous member)
 *      struct task_struct[1]::pid               (the root as an array)
 *      enum bpf_map_type::BPF_MAP_TYPE_RINGBUF  (enumerator kinds)
 *    A string that does not resolve is printed as such, with why.
 * insn_off is printed as the file has it (clang: bytes from the section's
 * start), with the instruction index next to it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dump/internal.h"
#include "dump/json_writer.h"
#include "libbtf_dump.h"
#include "libbtf_ext.h"
#include "libbtf_relo.h"

static const char *str(const struct lbtf *btf, uint32_t off)
{
	const char *s = lbtf_name_by_offset(btf, off);

	return s ? s : "(invalid)";
}

/* The member path of a relocation into buf; false (buf says why) when the
 * access string does not resolve against btf */
static bool relo_path(const struct lbtf *btf, const struct lbtf_ext_core_relo *r, char *buf,
		      size_t len)
{
	return lbtf_core_relo_path(btf, r, buf, len) == 0;
}

static const char *kind_word(enum lbtf_ext_kind k)
{
	static const char *const words[] = { "func_info", "line_info", "core_relo" };

	return words[k];
}

/* Record i of section s of kind k into the three forms; 0 or <0 */
union rec {
	struct lbtf_ext_func_info fi;
	struct lbtf_ext_line_info li;
	struct lbtf_ext_core_relo cr;
};

static int get_rec(const struct lbtf_ext *ext, enum lbtf_ext_kind k, uint32_t s, uint32_t i,
		   union rec *r)
{
	switch (k) {
	case LBTF_EXT_FUNC_INFO: return lbtf_ext_func_info(ext, s, i, &r->fi);
	case LBTF_EXT_LINE_INFO: return lbtf_ext_line_info(ext, s, i, &r->li);
	default: return lbtf_ext_core_relo(ext, s, i, &r->cr);
	}
}

static void raw_rec(const struct lbtf *btf, enum lbtf_ext_kind k, const union rec *r, FILE *out)
{
	char buf[1024];
	const char *kn;

	switch (k) {
	case LBTF_EXT_FUNC_INFO: {
		const struct lbtf_type *t = lbtf_type_by_id(btf, r->fi.type_id);

		fprintf(out, "\tinsn_off=%u (insn %u) type_id=%u %s '%s'\n", r->fi.insn_off,
			r->fi.insn_off / 8, r->fi.type_id, t ? lbtf_kind_name(lbtf_kind(t)) : "(none)",
			t ? lbtfi_dump_name(btf, t->name_off) : "(invalid)");
		break;
	}
	case LBTF_EXT_LINE_INFO:
		fprintf(out, "\tinsn_off=%u (insn %u) %s:%u:%u\t%s\n", r->li.insn_off,
			r->li.insn_off / 8, str(btf, r->li.file_name_off), r->li.line, r->li.col,
			str(btf, r->li.line_off));
		break;
	default: {
		bool ok = relo_path(btf, &r->cr, buf, sizeof(buf));

		kn = lbtf_core_relo_kind_name(r->cr.kind);
		fprintf(out, "\tinsn_off=%u (insn %u) %s type_id=%u access=%s %s%s\n", r->cr.insn_off,
			r->cr.insn_off / 8, kn ? kn : "(unknown kind)", r->cr.type_id,
			str(btf, r->cr.access_str_off), ok ? "" : "unresolved: ", buf);
		break;
	}
	}
}

int lbtf_dump_ext_raw(const struct lbtf *btf, const struct lbtf_ext *ext, FILE *out)
{
	int k, err;

	if (!btf || !ext || !out)
		return -EINVAL;
	for (k = 0; k < LBTF_EXT_KIND_CNT; k++) {
		uint32_t s, i, nsec = lbtf_ext_sec_cnt(ext, k);

		fprintf(out, "%s: %u section%s\n", kind_word(k), nsec, nsec == 1 ? "" : "s");
		for (s = 0; s < nsec; s++) {
			struct lbtf_ext_sec sec;

			if ((err = lbtf_ext_sec(ext, k, s, &sec)))
				return err;
			fprintf(out, "section '%s': %u record%s\n", str(btf, sec.sec_name_off),
				sec.rec_cnt, sec.rec_cnt == 1 ? "" : "s");
			for (i = 0; i < sec.rec_cnt; i++) {
				union rec r;

				if ((err = get_rec(ext, k, s, i, &r)))
					return err;
				raw_rec(btf, k, &r, out);
			}
		}
	}
	return ferror(out) ? -EIO : 0;
}

static void json_rec(const struct lbtf *btf, enum lbtf_ext_kind k, const union rec *r,
		     struct lbtfi_json *w)
{
	char buf[1024];

	lbtfi_json_start_object(w);
	switch (k) {
	case LBTF_EXT_FUNC_INFO: {
		const struct lbtf_type *t = lbtf_type_by_id(btf, r->fi.type_id);

		LBTFI_JSON_UINT_FIELD(w, "insn_off", r->fi.insn_off);
		LBTFI_JSON_UINT_FIELD(w, "type_id", r->fi.type_id);
		LBTFI_JSON_STRING_FIELD(w, "kind", t ? lbtf_kind_name(lbtf_kind(t)) : "(none)");
		LBTFI_JSON_STRING_FIELD(w, "name", t ? lbtfi_dump_name(btf, t->name_off) : "(invalid)");
		break;
	}
	case LBTF_EXT_LINE_INFO:
		LBTFI_JSON_UINT_FIELD(w, "insn_off", r->li.insn_off);
		LBTFI_JSON_STRING_FIELD(w, "file", str(btf, r->li.file_name_off));
		LBTFI_JSON_UINT_FIELD(w, "line", r->li.line);
		LBTFI_JSON_UINT_FIELD(w, "col", r->li.col);
		LBTFI_JSON_STRING_FIELD(w, "src", str(btf, r->li.line_off));
		break;
	default: {
		const char *kn = lbtf_core_relo_kind_name(r->cr.kind);
		bool ok = relo_path(btf, &r->cr, buf, sizeof(buf));

		LBTFI_JSON_UINT_FIELD(w, "insn_off", r->cr.insn_off);
		if (kn)
			LBTFI_JSON_STRING_FIELD(w, "kind", kn);
		else
			LBTFI_JSON_UINT_FIELD(w, "kind", r->cr.kind);
		LBTFI_JSON_UINT_FIELD(w, "type_id", r->cr.type_id);
		LBTFI_JSON_STRING_FIELD(w, "access", str(btf, r->cr.access_str_off));
		if (ok)
			LBTFI_JSON_STRING_FIELD(w, "path", buf);
		else
			LBTFI_JSON_STRING_FIELD(w, "error", buf);
		break;
	}
	}
	lbtfi_json_end_object(w);
}

int lbtf_dump_ext_json(const struct lbtf *btf, const struct lbtf_ext *ext, FILE *out, bool pretty)
{
	struct lbtfi_json w;
	int k, err;

	if (!btf || !ext || !out)
		return -EINVAL;
	lbtfi_json_init(&w, out, pretty);
	/* no bpftool output to match: source lines keep their backslashes */
	w.strict = true;
	lbtfi_json_start_object(&w);
	for (k = 0; k < LBTF_EXT_KIND_CNT; k++) {
		uint32_t s, i, nsec = lbtf_ext_sec_cnt(ext, k);

		lbtfi_json_name(&w, kind_word(k));
		lbtfi_json_start_array(&w);
		for (s = 0; s < nsec; s++) {
			struct lbtf_ext_sec sec;

			if ((err = lbtf_ext_sec(ext, k, s, &sec)))
				return err;
			lbtfi_json_start_object(&w);
			LBTFI_JSON_STRING_FIELD(&w, "section", str(btf, sec.sec_name_off));
			LBTFI_JSON_NAME(&w, "records");
			lbtfi_json_start_array(&w);
			for (i = 0; i < sec.rec_cnt; i++) {
				union rec r;

				if ((err = get_rec(ext, k, s, i, &r)))
					return err;
				json_rec(btf, k, &r, &w);
			}
			lbtfi_json_end_array(&w);
			lbtfi_json_end_object(&w);
		}
		lbtfi_json_end_array(&w);
	}
	lbtfi_json_end_object(&w);
	lbtfi_json_finish(&w);
	return ferror(out) ? -EIO : 0;
}
