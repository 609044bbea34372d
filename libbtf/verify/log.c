// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier log: pieces formatted one at a time and cut to 1023 bytes,
 * the line shapes (plain, type, basic, member, vsi), and the final copy
 * into the caller's buffer with the kernel's rotating/fixed and ENOSPC
 * rules (6.4+ semantics).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/keep.h"
#include "util/tls.h"

/*
 * The log's buffer, kept for the thread's next verify (util/keep.h). A
 * command over many objects logs again for each one it rejects (btfcheck
 * asks for a level-1 log to name the reason): a fresh block each time was
 * an mmap and an munmap of musl's malloc per object (measured when
 * btfcheck had musl's malloc; it now has its own, btfcheck/musl/heap.c). The first block is
 * whatever the keep holds, else its least (a few hundred bytes: most logs
 * of a rejected object are a few lines), grown by doubling for a long one.
 * Larger first blocks measured worse (18 objects: 63-65 faults at 1 and
 * 4 KiB, 61 so).
 */
static LBTFI_TLS struct lbtfi_keep kept;
#define VLOG_FIRST 1 /* bytes: any block (util/keep.c: KEEP_MIN at least) */
/*
 * The buffer handed to the caller last as result.full_log
 * (LBTF_VERIFY_KEEP_LOG) and its size: lbtf_verify_result_free() gives it
 * back to the keep instead of freeing it (btfcheck frees each rejected
 * object's log so). Every hand-over sets it; a log freed with free()
 * instead is never seen again, as no later hand-over can have its address
 * without setting this anew.
 */
static LBTFI_TLS struct { char *p; size_t cap; } handed;

/*
 * The few printf conversions the verifier log uses (%s %u %d %x %zu %lld
 * %llu %%), written straight into the piece. Much faster than vsnprintf
 * for the millions of small pieces of a big log; the hot line shapes do
 * without a format at all (the vpb_* helpers, internal.h).
 */
static void vformat(struct vpb *b, const char *fmt, va_list ap)
{
	char tmp[24];

	for (const char *f = fmt; *f && b->p < b->end; f++) {
		const char *s;
		int lng = 0;

		if (*f != '%') {
			*b->p++ = *f;
			continue;
		}
		f++;
		while (*f == 'l' || *f == 'z') {
			lng += *f == 'z' ? 2 : 1;
			f++;
		}
		switch (*f) {
		case 's':
			s = va_arg(ap, const char *);
			break;
		case 'u':
		case 'x':
			s = lbtfi_vutoa(tmp + sizeof(tmp),
					lng >= 2 ? (lng == 2 && f[-1] == 'z' ? va_arg(ap, size_t)
									     : va_arg(ap, unsigned long long))
						 : va_arg(ap, unsigned int), *f == 'x');
			break;
		case 'd': {
			long long v = lng >= 2 ? va_arg(ap, long long) : va_arg(ap, int);
			char *digits = lbtfi_vutoa(tmp + sizeof(tmp),
						   v < 0 ? -(unsigned long long)v : (unsigned long long)v,
						   false);
			if (v < 0)
				*--digits = '-';
			s = digits;
			break;
		}
		case '%':
			s = "%";
			break;
		default: /* not used by the verifier */
			s = "";
			if (!*f)
				f--;
		}
		vpb_str(b, s);
	}
}

void lbtfi_vlog_flush(struct vlog *log)
{
	if (!log->fn || !log->len)
		return;
	log->fn(log->buf, log->len, log->ctx);
	log->flushed += log->len;
	log->len = 0;
}

/*
 * One piece, as one bpf_verifier_vlog() call: opened (room for the
 * kernel's 1024-byte vscnprintf buffer, 1023 bytes of text), written, then
 * closed (in kernel mode, printk's "BPF: " line). false: out of memory.
 */
bool lbtfi_vpb_open_slow(struct vlog *log, struct vpb *b)
{
	if (log->oom)
		return false;
	/* streamed: one chunk-sized buffer, reused (no fresh pages to touch) */
	if (log->fn && log->len + VLOG_PIECE + 8 > VLOG_STREAM_CHUNK)
		lbtfi_vlog_flush(log);
	if (!log->buf) {
		log->buf = lbtfi_keep_take(&kept, VLOG_FIRST, &log->cap);
		if (!log->buf) {
			log->oom = true;
			return false;
		}
	}
	if (log->cap - log->len < VLOG_PIECE + 8) {
		if (LBTFI_GROW(log->buf, log->cap, log->len + VLOG_PIECE + 8)) {
			log->oom = true;
			return false;
		}
	}
	b->start = log->buf + log->len;
	if (log->kernel) {
		memcpy(b->start, "BPF: ", 5);
		b->start += 5;
	}
	b->p = b->start;
	b->end = b->start + VLOG_PIECE - 1;
	return true;
}

/* printk("BPF: %s") of the piece, with a newline */
void lbtfi_vpb_close_kernel(struct vlog *log, struct vpb *b)
{
	size_t n = b->p - b->start;

	log->len += 5 + n;
	if (!n || log->buf[log->len - 1] != '\n')
		log->buf[log->len++] = '\n';
	log->buf[log->len] = '\0';
	log->any = true;
}

static void vpiece(struct vlog *log, const char *fmt, va_list ap)
{
	struct vpb b;

	if (!lbtfi_vpb_open(log, &b))
		return;
	vformat(&b, fmt, ap);
	lbtfi_vpb_close(log, &b);
}

/* A piece of fixed text */
static void lit_piece(struct vlog *log, const char *text)
{
	struct vpb b;

	if (!lbtfi_vpb_open(log, &b))
		return;
	vpb_str(&b, text);
	lbtfi_vpb_close(log, &b);
}

static void piece(struct vlog *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void piece(struct vlog *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpiece(log, fmt, ap);
	va_end(ap);
}

void (lbtfi_vlog)(struct venv *env, const char *fmt, ...)
{
	va_list ap;

	if (!lbtfi_vlog_on(env))
		return;
	va_start(ap, fmt);
	vpiece(&env->log, fmt, ap);
	va_end(ap);
}

/* " <msg>" then the newline, the tail every line shape shares */
static void vtail(struct vlog *log, const char *fmt, va_list ap)
{
	if (fmt && *fmt) {
		lit_piece(log, " ");
		vpiece(log, fmt, ap);
	}
	lit_piece(log, "\n");
}

void (lbtfi_vlog_type)(struct venv *env, const struct lbtf_type *t, bool details, const char *fmt,
		     ...)
{
	struct vpb b;
	va_list ap;

	if (!lbtfi_vlog_on(env) || (env->log.kernel && !fmt))
		return;
	/* "[%u] %s %s%s": id, kind, name, and a space before details */
	if (lbtfi_vpb_open(&env->log, &b)) {
		vpb_lit(&b, "[");
		vpb_u(&b, env->log_id);
		vpb_lit(&b, "] ");
		vpb_str(&b, lbtf_kind_name(vk(t)));
		vpb_lit(&b, " ");
		vpb_str(&b, lbtfi_vname(env, t->name_off));
		if (details)
			vpb_lit(&b, " ");
		lbtfi_vpb_close(&env->log, &b);
	}
	if (details)
		lbtfi_vops(t)->log_details(env, t);
	va_start(ap, fmt);
	vtail(&env->log, fmt, ap);
	va_end(ap);
}

void (lbtfi_vlog_member)(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		       const char *fmt, ...)
{
	struct vpb b;
	va_list ap;

	if (!lbtfi_vlog_on(env) || (env->log.kernel && !fmt))
		return;
	/* pass 1 already printed the struct; later, say which struct it is */
	if (env->phase != PHASE_META)
		vlog_type(env, st, NULL);
	/* "\t%s type_id=%u bitfield_size=%u bits_offset=%u" (kind_flag),
	 * else "\t%s type_id=%u bits_offset=%u" */
	if (lbtfi_vpb_open(&env->log, &b)) {
		vpb_lit(&b, "\t");
		vpb_str(&b, lbtfi_vname(env, m->name_off));
		vpb_lit(&b, " type_id=");
		vpb_u(&b, m->type);
		if (lbtf_kflag(st)) {
			vpb_lit(&b, " bitfield_size=");
			vpb_u(&b, m->offset >> 24);
		}
		vpb_lit(&b, " bits_offset=");
		vpb_u(&b, lbtf_kflag(st) ? m->offset & 0xffffff : m->offset);
		lbtfi_vpb_close(&env->log, &b);
	}
	va_start(ap, fmt);
	vtail(&env->log, fmt, ap);
	va_end(ap);
}

void (lbtfi_vlog_vsi)(struct venv *env, const struct lbtf_type *dt,
		    const struct lbtf_var_secinfo *vsi, const char *fmt, ...)
{
	va_list ap;

	if (!lbtfi_vlog_on(env) || (env->log.kernel && !fmt))
		return;
	if (env->phase != PHASE_META)
		vlog_type(env, dt, NULL);
	piece(&env->log, "\t type_id=%u offset=%u size=%u", vsi->type, vsi->offset, vsi->size);
	va_start(ap, fmt);
	vtail(&env->log, fmt, ap);
	va_end(ap);
}

int lbtfi_vlog_finalize(struct venv *env, const struct lbtf_verify_opts *o,
			struct lbtf_verify_result *res)
{
	struct vlog *log = &env->log;
	uint64_t true_size = log->any ? (uint64_t)log->flushed + log->len + 1 : 0;
	size_t n = 0;

	res->log_true_size = true_size > UINT32_MAX ? UINT32_MAX : (uint32_t)true_size;
	res->true_size_written = true;
	res->log_len = 0;
	if (log->kernel) /* printk: nothing for a user buffer, true size 0 */
		res->log_true_size = 0;
	if (!log->level || log->kernel)
		return 0;
	if (o->log_buf && o->log_size && log->any) {
		n = log->len < o->log_size - 1 ? log->len : o->log_size - 1;
		if (o->log_level & LBTF_LOG_FIXED)
			memcpy(o->log_buf, log->buf, n);
		else /* rotating: the last bytes survive */
			memcpy(o->log_buf, log->buf + log->len - n, n);
		o->log_buf[n] = '\0';
		res->log_len = n;
	}
	if (o->log_buf && true_size > o->log_size)
		return -ENOSPC;
	return 0;
}

char *lbtfi_vlog_take(struct vlog *log)
{
	char *text;

	handed.p = NULL;
	/* no log written (level 0): an empty one, in the kept buffer too, as
	 * malloc'ing one byte per verify churned a group of musl's malloc */
	if (!log->buf)
		log->buf = lbtfi_keep_take(&kept, VLOG_FIRST, &log->cap);
	text = log->buf;
	if (!text)
		return NULL;
	text[log->len] = '\0';
	handed.p = text;
	handed.cap = log->cap;
	log->buf = NULL;
	log->cap = 0;
	return text;
}

void lbtfi_vlog_release(struct vlog *log)
{
	lbtfi_keep_give(&kept, log->buf, log->cap);
	log->buf = NULL;
	log->cap = 0;
}

void lbtfi_vlog_free_taken(char *text)
{
	if (text && text == handed.p) {
		handed.p = NULL;
		lbtfi_keep_give(&kept, text, handed.cap);
		return;
	}
	free(text);
}
