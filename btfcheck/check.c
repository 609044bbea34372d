// SPDX-License-Identifier: BSD-2-Clause
/*
 * One file: read it (into one buffer, or mapped when large; never copied
 * again unless it must be changed), pick what to verify (an ELF BPF
 * object: the BTF libbpf would load, unless --raw; other ELF: .BTF as
 * stored; else the raw bytes), verify it as the kernel would, and report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "report.h"
#include "btfcheck.h"
#include "cli.h"
#include "libbtf_verify.h"
#include "io/io.h"

static const char *const prog = "btfcheck";

struct input {
	void *file;              /* the file's bytes (mapped or read) */
	size_t file_size;
	bool mapped;
	const unsigned char *data; /* the BTF to verify */
	size_t size;
	const void *dist;        /* a module's .BTF.base (distilled base), or NULL */
	size_t dist_size;
	unsigned char *owned;    /* data, when ours to write: a copy, or ob's */
	struct lbtf_object_btf ob; /* a BPF object's BTF (ob.sz set): given back to it */
};

/* The last complete line of a log, for the one-line verdict. */
static char *last_line(const char *log)
{
	size_t n = log ? strlen(log) : 0;
	const char *e, *s;

	while (n && log[n - 1] == '\n')
		n--;
	if (!n)
		return strdup("(no log)");
	e = log + n;
	for (s = e; s > log && s[-1] != '\n'; s--)
		;
	while (s < e && (*s == '\t' || *s == ' ')) /* member lines are tab-led */
		s++;
	return strndup(s, e - s);
}

/*
 * The text log streamed to stderr as it is made (a vmlinux log is ~10 MB:
 * kept whole it costs a fresh page every 4 KiB): the last line with text
 * is kept for the verdict, with any newlines after it.
 */
struct log_stream {
	char *tail;
	size_t len, cap;
	char last;      /* the last byte written */
	bool oom;
};

static void stream_log(const char *text, size_t len, void *ctx)
{
	struct log_stream *ls = ctx;
	size_t e = len, from = 0;

	fflush(stdout); /* (the verdicts before the log) */
	fwrite(text, 1, len, stderr);
	ls->last = text[len - 1];
	while (e && text[e - 1] == '\n')
		e--;
	while (e && text[e - 1] != '\n')
		e--;
	if (e) { /* a new last line starts in this chunk */
		ls->len = 0;
		from = e;
	}
	if (ls->len + (len - from) + 1 > ls->cap) {
		size_t cap = (ls->len + (len - from) + 1) * 2;
		char *t = realloc(ls->tail, cap);

		if (!t) {
			ls->oom = true;
			return;
		}
		ls->tail = t;
		ls->cap = cap;
	}
	memcpy(ls->tail + ls->len, text + from, len - from);
	ls->len += len - from;
	ls->tail[ls->len] = '\0';
}

/* A message without the "PATH: " that libbtf puts first */
static const char *unprefixed(const char *msg, const char *path)
{
	size_t n = strlen(path);

	return !strncmp(msg, path, n) && !strncmp(msg + n, ": ", 2) ? msg + n + 2 : msg;
}

static void ask_kernel(const struct input *in, uint32_t level, uint32_t size,
		       const struct lbtf_verify_result *res, const char *our_log,
		       struct btfcheck_kernel *k)
{
	char *buf = size ? calloc(1, size) : NULL;
	LBTF_OPTS(lbtf_kernel_load_opts, ko, .log_level = level, .log_buf = buf, .log_size = size);
	int err;

	k->tried = true;
	if (size && !buf) {
		k->err = ENOMEM;
		return;
	}
	err = lbtf_kernel_btf_load(in->data, in->size, &ko);
	k->true_size = ko.log_true_size;
	k->err = -err;
	k->log = buf;
	k->available = err != -EPERM && err != -ENOSYS;
	k->agree = k->err == res->err && k->true_size == res->log_true_size &&
		   (!size || !strcmp(buf, our_log ? our_log : ""));
}

/* A failure before any verdict: one line (text) or an error record (JSON) */
static int fail(const struct cfg *c, const char *path, int err, const char *msg)
{
	if (c->json) {
		struct btfcheck_report rep = { .file = path, .error = unprefixed(msg, path) };

		btfcheck_print_json(&rep, c->quiet);
	}
	return cli_fail_msg(prog, path, msg, err);
}

/* Reads the file and finds the BTF in it; 0 or an exit status (reported) */
static int read_input(const struct cfg *c, const char *path, bool last, struct input *in,
		      struct btfcheck_report *rep, char **reason)
{
	/* read into one buffer or, when large, mapped, left to exit either
	 * way (see btfcheck_one()); the last input's pages serve no later
	 * one, so it is mapped from a lower size (btfcheck.h), and read into
	 * a buffer of its size (link.o, 3.6 KB: 11 -> 10 faults) */
	c->inbuf->map_from = last ? BTFCHECK_LAST_MAP_FROM : BTFCHECK_MAP_FROM;
	c->inbuf->last = last;
	if (lbtfi_file_load_reuse(path, c->inbuf, &in->file, &in->file_size, &in->mapped))
		return fail(c, path, errno, lbtf_errmsg());
	if (in->file_size >= 4 && !memcmp(in->file, "\177ELF", 4)) {
		const void *btf;
		size_t n;
		int err;

		if (!c->raw && !c->base && lbtf_is_bpf_object(in->file, in->file_size)) {
			/*
			 * The fixups are made in the file's bytes, not in a
			 * copy of its .BTF: fresh pages for a copy cost more
			 * than the pages of a private mapping written (an
			 * object's .BTF of 28 KB: 7 faults). Not with
			 * --min-kernel, which may read the object again.
			 */
			LBTF_OPTS(lbtf_object_opts, oo, .missing_features = c->missing_features,
				  .in_place = !c->min_kernel &&
					      !lbtfi_file_writable(in->file, in->file_size, in->mapped));
			struct lbtf_object_btf *ob = &in->ob;

			ob->sz = sizeof(*ob);
			rep->object = true;
			err = lbtf_object_btf(path, in->file, in->file_size, &oo, ob);
			if (err) {
				rep->open_failed = true;
				rep->open_err = -err;
				*reason = strdup(unprefixed(lbtf_errmsg(), path));
				return 0;
			}
			in->data = in->owned = ob->data;
			in->size = ob->size;
			rep->no_btf = !ob->data;
			rep->fixups = ob->fixups;
			rep->sanitized = ob->sanitized;
			return 0;
		}
		if (lbtf_elf_btf(path, in->file, in->file_size, &btf, &n))
			return fail(c, path, errno, lbtf_errmsg());
		in->data = btf;
		in->size = n;
		err = lbtf_elf_btf_base(path, in->file, in->file_size, &in->dist, &in->dist_size);
		if (err && err != -ENODATA)
			return fail(c, path, -err, lbtf_errmsg());
		if (err)
			in->dist = NULL;
		return 0;
	}
	in->data = in->file;
	in->size = in->file_size;
	return 0;
}

/* Raw mode on a BPF object that is rejected: would libbpf's fixups cure it? */
static char *fixup_hint(const struct cfg *c, const char *path, const struct input *in)
{
	LBTF_OPTS(lbtf_object_opts, oo, .missing_features = c->missing_features);
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	char *hint = NULL, names[256] = "";

	if (!c->raw || c->base || !lbtf_is_bpf_object(in->file, in->file_size) ||
	    lbtf_object_btf(path, in->file, in->file_size, &oo, &ob))
		return NULL;
	if (ob.fixups && lbtf_verify(ob.data, ob.size, NULL, NULL) == 0) {
		for (unsigned int i = 0; i < LBTF_FIXUP_COUNT; i++)
			if (ob.fixups & (1u << i))
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 *names ? ", " : "", cli_fixup_name(1u << i));
		if (asprintf(&hint, "libbpf's fixups before loading (%s) cure this: without "
			     "--raw btfcheck verifies what libbpf loads", names) < 0)
			hint = NULL;
	}
	lbtf_object_btf_free(&ob);
	return hint;
}

/* ENOSPC: how much more room the log needs, and the verdict with room */
static char *enospc_reason(const struct lbtf_verify_result *res, uint32_t size,
			   const struct lbtf_verify_result *full)
{
	char *line = full->err ? last_line(full->full_log) : NULL, *s = NULL;

	if (asprintf(&s, "log buffer too small: the log needs %u bytes, --log-size gave %u "
		     "(%u more); with room: %s%s%s%s", res->log_true_size, size,
		     res->log_true_size - size, full->err ? "rejected (" : "OK",
		     full->err ? lbtf_errno_name(full->err) : "", full->err ? "): " : "",
		     line ? line : "") < 0)
		s = NULL;
	free(line);
	return s;
}

static char *diag_hint(const struct input *in, const struct lbtf *base)
{
	int d = lbtf_diagnose(in->data, in->size, base);

	return d == LBTF_DIAG_NEEDS_BASE || d == LBTF_DIAG_BASE_MISMATCH ? strdup(lbtf_errmsg()) : NULL;
}

/*
 * A module's .BTF.base, the distilled base its .BTF is split over, taken as
 * the kernel's module loader takes it before it verifies .BTF: parsed and
 * verified as kernel BTF is (btf_parse_base; pass 2 cannot fail on the
 * memberless types a distilled base may hold), then held to those kinds
 * (btf_relocate's first check). NULL with *dist set, or why the kernel
 * would refuse the module's BTF (*err its errno).
 */
static char *distilled_base(const struct input *in, struct lbtf **dist, int *err)
{
	LBTF_OPTS(lbtf_verify_opts, o, .log_level = 1,
		  .flags = LBTF_VERIFY_NO_SPECIAL | LBTF_VERIFY_NO_KERNEL_BTF | LBTF_VERIFY_KEEP_LOG);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	const void *data;
	size_t size;
	char *why = NULL, *line;

	*dist = lbtf_new(in->dist, in->dist_size, NULL);
	if (!*dist) {
		*err = errno;
		if (asprintf(&why, ".BTF.base: %s", lbtf_errmsg()) < 0)
			why = NULL;
		return why;
	}
	data = lbtf_raw_data(*dist, &size); /* in this host's byte order */
	if (lbtf_verify(data, size, &o, &res) < 0 && !res.err) {
		*err = errno;
		why = strdup(lbtf_errmsg());
	} else if (res.err) {
		*err = res.err;
		line = last_line(res.full_log);
		if (asprintf(&why, ".BTF.base: %s", line ? line : "") < 0)
			why = NULL;
		free(line);
	} else if ((*err = -lbtf_distilled_base_check(*dist, ".BTF.base"))) {
		why = strdup(lbtf_errmsg());
	}
	lbtf_verify_result_free(&res);
	return why;
}

/* The kernel's last step for a module's .BTF over .BTF.base: relocated onto
 * the vmlinux given (--base). NULL, or why it cannot be (*err its errno). */
static char *relocate_onto(const struct cfg *c, const char *path, const struct input *in,
			   const struct lbtf *dist, int *err)
{
	struct lbtf *split = lbtf_new(in->data, in->size, dist), *rel = NULL;
	char *why = NULL;

	if (split)
		rel = lbtf_relocate(split, c->base, NULL);
	if (!rel) {
		*err = errno;
		why = strdup(unprefixed(lbtf_errmsg(), path));
	}
	lbtf_free(rel);
	lbtf_free(split);
	return why;
}

int btfcheck_one(const struct cfg *c, const char *path, bool last)
{
	struct lbtf_verify_opts o = { .sz = sizeof(o) };
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	struct input in = { 0 };
	struct btfcheck_kernel k = { 0 };
	struct btfcheck_mink mink = { 0 };
	struct btfcheck_report rep = { .file = path, .res = &res };
	char *buf = NULL, *reason = NULL, *hint = NULL;
	struct lbtf *sysfs_base = NULL, *dist = NULL;
	struct log_stream ls = { 0 };
	uint32_t level = c->log_level >= 0 ? c->log_level : c->json ? 1 : 0;
	bool swapped = false;
	int rc;

	rc = read_input(c, path, last, &in, &rep, &reason);
	if (rc)
		goto out;
	if (rep.open_failed) {
		/* libbpf would not open the object: no BTF reaches the kernel */
		res.err = rep.open_err;
		goto report;
	}
	if (rep.no_btf) /* libbpf loads the object without BTF: nothing to verify */
		goto report;
	/* the other byte order: verified as a kernel of that order would */
	if (lbtf_diagnose(in.data, in.size, NULL) == LBTF_DIAG_OPPOSITE_ENDIAN) {
		cli_err(prog, "%s: note: %s; verified as a kernel of its byte order "
			"would verify it (this kernel loads only its own)%s", path, lbtf_errmsg(),
			c->kernel ? ", so no --kernel comparison" : "");
		if (!in.owned) {
			in.owned = malloc(in.size ? in.size : 1);
			if (!in.owned) {
				rc = fail(c, path, ENOMEM, "out of memory");
				goto out;
			}
			memcpy(in.owned, in.data, in.size);
			in.data = in.owned;
		}
		swapped = lbtf_bytes_to_host(in.owned, in.size) == 1;
	}
	o.log_level = level;
	o.base = c->base;
	/* a module with a distilled base: verified over it, as the kernel
	 * does before relocating it onto vmlinux */
	if (in.dist) {
		rep.distilled = true;
		reason = distilled_base(&in, &dist, &res.err);
		if (res.err || reason) {
			res.err = res.err ? res.err : ENOMEM;
			goto report;
		}
		o.base = dist;
	}
	/* module BTF from sysfs is split BTF over vmlinux, like lbtf_open() */
	if (!o.base && lbtfi_path_is_sysfs_module(path)) {
		sysfs_base = lbtf_open_vmlinux();
		if (!sysfs_base) {
			char msg[512];

			snprintf(msg, sizeof(msg), "no vmlinux BTF for this module BTF: %s", lbtf_errmsg());
			rc = fail(c, path, errno, msg);
			goto out;
		}
		o.base = sysfs_base;
	}
	o.flags = c->strict ? LBTF_VERIFY_STRICT : 0;
	o.kernel_version = c->target_version; /* 0: the default rule set */
	if (c->log_size >= 0) {
		o.log_size = c->log_size;
		buf = c->log_size ? calloc(1, c->log_size) : NULL;
		if (c->log_size && !buf) {
			rc = fail(c, path, ENOMEM, "out of memory");
			goto out;
		}
		o.log_buf = buf;
		rep.log_size = c->log_size;
		rep.log_size_set = true;
	} else {
		o.flags |= LBTF_VERIFY_KEEP_LOG; /* the whole log, never ENOSPC */
	}
	/* split BTF is module BTF: the kernel logs it to dmesg, messages only */
	if (o.base && level)
		o.flags |= LBTF_VERIFY_KERNEL_LOG | LBTF_VERIFY_KEEP_LOG;
	/* the whole text log, nothing to compare it with: straight to stderr */
	if (level && !buf && !o.base && !c->json && !c->quiet && !c->kernel) {
		o.log_fn = stream_log;
		o.log_ctx = &ls;
	}
	if (lbtf_verify(in.data, in.size, &o, &res) < 0 && !res.err) {
		rc = fail(c, path, errno, lbtf_errmsg());
		goto out;
	}
	if (ls.oom) {
		rc = fail(c, path, ENOMEM, "out of memory");
		goto out;
	}
	if (ls.last && ls.last != '\n')
		fputc('\n', stderr);
	rep.log = buf && !(o.flags & LBTF_VERIFY_KERNEL_LOG) ? buf : res.full_log;
	/* a whole vmlinux log is ~10 MB: its length is known, never measured */
	rep.log_len = !rep.log ? 0 : rep.log == res.full_log ? res.full_log_len : strlen(rep.log);
	if (res.err) {
		const char *why = o.log_fn ? ls.tail : rep.log;
		struct lbtf_verify_result again = { .sz = sizeof(again) };
		struct lbtf_verify_opts o1 = o;

		if (!res.true_size_written) {
			/* refused before any log: the size limit or the log attributes */
			reason = strdup(in.size > LBTF_MAX_FILE_SIZE ? "BTF larger than 16 MiB"
								   : "invalid log attributes");
		} else if (!level || !why || !*why || (o.flags & LBTF_VERIFY_KERNEL_LOG) ||
			   res.err == ENOSPC) {
			/* no (whole, user-style) log: the reason from a full level-1 log */
			o1.log_level = 1;
			o1.log_buf = NULL;
			o1.log_size = 0;
			o1.flags = (o1.flags | LBTF_VERIFY_KEEP_LOG) & ~LBTF_VERIFY_KERNEL_LOG;
			lbtf_verify(in.data, in.size, &o1, &again);
			if (res.err == ENOSPC)
				reason = enospc_reason(&res, o.log_size, &again);
			else
				reason = last_line(again.full_log);
			lbtf_verify_result_free(&again);
		} else {
			reason = last_line(why);
		}
		/* the special-field pass logs nothing: its cause, not the
		 * log's last line, which names whatever type came last */
		if (res.cause[0] && res.err != ENOSPC) {
			free(reason);
			reason = strdup(res.cause);
		}
		hint = fixup_hint(c, path, &in);
		if (!hint)
			hint = diag_hint(&in, o.base);
	}
	if (!res.err && dist && c->base) {
		reason = relocate_onto(c, path, &in, dist, &res.err);
		rep.relocated = !reason;
	}
	if (c->min_kernel) {
		mink.mk.sz = sizeof(mink.mk);
		if (rep.sanitized) {
			/* which kernels: of the BTF before sanitization */
			struct lbtf_object_btf ob = { .sz = sizeof(ob) };

			mink.done = !lbtf_object_btf(path, in.file, in.file_size, NULL, &ob) &&
				    !lbtf_min_kernel(ob.data, ob.size, NULL, &mink.mk);
			lbtf_object_btf_free(&ob);
		} else {
			LBTF_OPTS(lbtf_min_kernel_opts, mo,
				  .start_id = o.base ? lbtf_type_cnt(o.base) : 0,
				  .distilled_base = rep.distilled);

			mink.done = !lbtf_min_kernel(in.data, in.size, &mo, &mink.mk);
		}
		rep.mink = &mink;
	}
	if (c->kernel && !o.base && !swapped) {
		/* without --log-size, give the kernel exactly the room our log
		 * needs: its text and size are then compared too */
		uint32_t ksize = c->log_size >= 0 ? o.log_size
				 : level && res.true_size_written ? res.log_true_size : 0;
		ask_kernel(&in, level, ksize, &res, rep.log, &k);
		rep.kernel = &k;
	}
report:
	rep.reason = reason;
	rep.hint = hint;
	/* JSON: the log of a rejection, or when a level was asked for */
	rep.show_log = !c->quiet && (!c->json || c->log_level >= 0 || res.err);
	if (c->json)
		btfcheck_print_json(&rep, c->quiet);
	else
		btfcheck_print_text(&rep, c->quiet);
	rc = k.tried && k.available && !k.agree ? CLI_EXIT_DISAGREE : res.err ? CLI_EXIT_NO : 0;
out:
	free(ls.tail);
	free(k.log);
	free(reason);
	free(hint);
	free(buf);
	if (in.ob.sz) /* (its block is kept for the next object's BTF) */
		lbtf_object_btf_free(&in.ob);
	else
		free(in.owned);
	/*
	 * Page faults, mappings and munmap are what a check of a small BPF
	 * object costs most on the VMs we measure. The inputs are read into
	 * one buffer (c->inbuf), faulted in once for all of them, the last
	 * one too when small: a mapping of its own, in a region of the
	 * address space with no page tables yet, costs more than reading a
	 * few KiB into pages of the heap. Large ones are mapped and
	 * their mappings left to exit's teardown, cheaper than munmap. So
	 * in.file is never released here.
	 */
	lbtf_free(sysfs_base);
	lbtf_free(dist);
	lbtf_verify_result_free(&res);
	return rc;
}
