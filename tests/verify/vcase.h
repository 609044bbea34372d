/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hand-built BTF blobs for the verifier unit tests: type words, a string
 * section, and the verdict and log text the kernel gives for them.
 */
#ifndef VCASE_H
#define VCASE_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf.h"

#define W_END 0xdeadbeefu
#define INFO(k, f, v) (((uint32_t)(f) << 31) | ((uint32_t)(k) << 24) | (uint32_t)(v))
#define T_INT(name, enc, off, bits, sz) (name), INFO(1, 0, 0), (sz), (((enc) << 24) | ((off) << 16) | (bits))
#define T_REF(kind, name, type) (name), INFO(kind, 0, 0), (type)
#define T_PTR(type) T_REF(2, 0, type)
#define T_CONST(type) T_REF(10, 0, type)
#define T_TYPEDEF(name, type) T_REF(8, name, type)
#define T_TAG(name, type) T_REF(18, name, type)
#define T_ARRAY(elem, idx, n) 0, INFO(3, 0, 0), 0, (elem), (idx), (n)
#define T_STRUCT(name, vlen, sz) (name), INFO(4, 0, vlen), (sz)
#define T_STRUCT_K(name, vlen, sz) (name), INFO(4, 1, vlen), (sz)
#define T_UNION(name, vlen, sz) (name), INFO(5, 0, vlen), (sz)
#define M(name, type, off) (name), (type), (off)
#define T_ENUM(name, vlen, sz) (name), INFO(6, 0, vlen), (sz)
#define E(name, val) (name), (uint32_t)(val)
#define T_FWD(name, kflag) (name), INFO(7, kflag, 0), 0
#define T_FUNC(name, proto, linkage) (name), INFO(12, 0, linkage), (proto)
#define T_PROTO(ret, vlen) 0, INFO(13, 0, vlen), (ret)
#define P(name, type) (name), (type)
#define T_VAR(name, type, linkage) (name), INFO(14, 0, 0), (type), (linkage)
#define T_DATASEC(name, vlen, sz) (name), INFO(15, 0, vlen), (sz)
#define VSI(type, off, sz) (type), (off), (sz)
#define T_FLOAT(name, sz) (name), INFO(16, 0, 0), (sz)
#define T_DECL_TAG(name, type, idx) (name), INFO(17, 0, 0), (type), (uint32_t)(idx)

struct vblob { unsigned char *p; size_t len; };

/* header + types (words up to W_END) + strings (slen bytes) */
static inline struct vblob vb_make(const uint32_t *w, const char *strs, size_t slen)
{
	struct lbtf_header h = { LBTF_MAGIC, LBTF_VERSION, 0, LBTF_HDR_LEN_V1, 0, 0, 0, 0 };
	struct vblob b;
	size_t nw = 0;

	while (w[nw] != W_END)
		nw++;
	h.type_len = nw * 4;
	h.str_off = h.type_len;
	h.str_len = slen;
	b.len = LBTF_HDR_LEN_V1 + h.type_len + slen;
	b.p = malloc(b.len);
	assert_non_null(b.p);
	memcpy(b.p, &h, LBTF_HDR_LEN_V1);
	memcpy(b.p + LBTF_HDR_LEN_V1, w, h.type_len);
	memcpy(b.p + LBTF_HDR_LEN_V1 + h.type_len, strs, slen);
	return b;
}

#define VB(strs, ...) vb_make((const uint32_t[]){ __VA_ARGS__, W_END }, strs, sizeof(strs))

/* The log after the 9-line header dump (or the whole log if shorter). */
static inline const char *vb_after_header(const char *log)
{
	const char *p = log;

	for (int i = 0; i < 9; i++) {
		const char *nl = strchr(p, '\n');
		if (!nl)
			return log;
		p = nl + 1;
	}
	return p;
}

/* Verify at level 1 with a large buffer; check errno and the log. */
static inline void vb_expect_at(const char *file, int line, struct vblob b, int err,
				const char *log_tail, bool whole)
{
	static char buf[1 << 16];
	struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf,
				      .flags = LBTF_VERIFY_NO_KERNEL_BTF };
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	int ret = lbtf_verify(b.p, b.len, &o, &res);
	const char *got = whole ? buf : vb_after_header(buf);

	if (ret != -err || strcmp(got, log_tail)) {
		print_error("%s:%d: expected %s [%s]\n   got %s [%s]\n", file, line,
			    lbtf_errno_name(err), log_tail, lbtf_errno_name(ret), got);
		fail();
	}
	assert_int_equal(res.log_true_size, strlen(buf) + 1);
	free(b.p);
}
#define EXPECT(b, err, tail) vb_expect_at(__FILE__, __LINE__, (b), (err), (tail), false)
#define EXPECT_WHOLE(b, err, log) vb_expect_at(__FILE__, __LINE__, (b), (err), (log), true)

#endif
