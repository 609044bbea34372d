// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_dwarf_to_btf(): the driver.
 *
 * The problem. A file's DWARF is thousands of compile units, each
 * describing again every type of the headers it includes: a kernel's
 * units bring ~1,600 types each, most of them seen in the units before. BTF wants each type once. Converting every unit on its own and
 * deduplicating at the end is correct but converts the same types
 * thousands of times; converting on several threads must not let the
 * output depend on their number or on scheduling; and memory must stay
 * bounded while the threads run ahead.
 *
 * The answer. The units are cut into fixed groups of consecutive units
 * (the cut depends on the input only); worker threads take groups in file
 * order, each with its own DWARF handle, and convert a group into its own
 * builder, where a later unit reuses the types an earlier one converted
 * when their structural signatures match (dwarf_reuse/reuse.c). The calling thread
 * appends the finished builders strictly in group order, places the VARs
 * in DATASECs and deduplicates; workers stay at most a window of groups
 * ahead of it. Reuse is a bet: it pairs a declaration with a definition
 * of the same name, which is wrong when the output turns out to hold
 * several definitions of that name. So with reuse the groups are kept,
 * the pairings are checked against the output, and a group whose pairing
 * did not hold is converted again without reuse and the output put
 * together again (dwarf_reuse/reuse.c says why).
 *
 * The steps (lbtf_dwarf_to_btf, at the end, one error path):
 *   open_input     the options; the file whose DWARF is read (its own, or
 *                  the separate debug file it names)
 *   listing_start  the unit list read on a thread of its own, meanwhile
 *   load_elf       the ELF's sections and symbols; the features in effect,
 *                  the byte order
 *   list_done      the unit list joined; the reuse policy it decides
 *   convert_groups the threads, pahole's function table loaded while they
 *                  start (pfuncs_gate), the appending, the redo of groups
 *                  whose pairings did not hold (convert_all)
 *   prune          after dedup: first FUNC of each name, unreferenced
 *                  DW_OP_convert types, a BPF object's type set
 *   run_free       one cleanup for every outcome
 * At -j1 the same steps run in turn on one thread, none beside another
 * (solo_thread, at the end).
 */
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "internal.h"
#include "dedup/internal.h"
#include "util/heap.h"
#include "util/side.h"

/*
 * Units per group: the more, the more types are reused rather than
 * converted again (a kernel unit brings ~1,600 types, most of them seen in
 * the units before it), the fewer groups to spread over the threads.
 */
#define GROUP_UNITS 48u

/*
 * The stack of a thread that converts (the workers, and the one that
 * converts groups again): conversion recurses along type chains.
 */
#define CONVERT_STACK ((size_t)64 << 20)

struct unit_result {
	struct lbtf_builder *b;   /* until appended */
	uint32_t first, end;      /* then its types in the driver's raw builder */
	char *paired;             /* lbtfi_dw_group_paired_names() */
	size_t paired_len;
	struct lbtfi_dw_group_defs defs; /* found when first appended (keep) */
	bool redo;                /* to be converted again */
	struct lbtfi_dw_var *vars;
	uint32_t nvars, nfuncs;
	uint64_t warned;
	uint32_t other_tags[8];
	int err;
	char *errmsg;
	bool done;
};

/*
 * pahole's function table (lbtfi_dw_pfuncs_load, from the symbols) is
 * loaded by the calling thread once the workers run, instead of before
 * they start (57M instructions of a kernel, the longest of the serial work
 * at the start): a worker that meets its first subprogram before the table
 * is loaded waits for it here (subprogram_when_loaded). The output is the
 * same: the table is whole before any subprogram is converted.
 */
struct pfuncs_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool pending;             /* to be loaded (load_pfuncs) */
	bool ready;               /* loaded, or failed (err) */
	int err;
	struct lbtfi_dw_elf_info *ei;
};

struct driver {
	const char *path;
	struct lbtfi_dw_global g;
	struct pfuncs_gate *gate; /* (a pointer: workers see the driver const) */
	struct lbtfi_dr_file units;     /* unit headers, read once, shared by the workers */
	struct lbtfi_dw_unit_list ul;
	struct unit_result *res;  /* per group */
	/* per group: being converted again since early_redo (the flag is not
	 * in res[], which that thread overwrites when it is done) */
	bool *early;
	uint32_t ngroups;
	pthread_mutex_t mu;
	pthread_cond_t cv_done, cv_room;
	uint32_t next, consumed, window;
	bool stop;
	bool keep;                /* the groups stay for a second look (reuse) */
	/* the handle the unit headers were read with, for the first
	 * converter (ET_REL: its sections are relocated once, not again) */
	struct lbtfi_dw_handle spare;
	bool has_spare;
	/* a linked file's: every converter reads through it and units, whose
	 * sections are its (converters call no libdw): one mapping, so each
	 * page of .debug_str, .debug_loclists... is faulted in and counted
	 * in RSS once, not once per thread */
	struct lbtfi_dw_handle shared;
	bool has_shared;
	/* -j1: every step on one thread (lbtf_dwarf_to_btf), the groups
	 * converted by the appender as it comes to them (assemble) */
	bool solo;
};

/* The thread's error message, prefixed with the input's path (err < 0) */
static int with_path(const char *path, int err)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
	return lbtfi_err(-err, "%s: %s", path, msg);
}

static void fail_unit(struct unit_result *r, int err)
{
	r->err = err < 0 ? err : -EINVAL;
	r->errmsg = strdup(lbtf_errmsg());
}

static void finish(struct driver *d, uint32_t i, struct unit_result *r)
{
	pthread_mutex_lock(&d->mu);
	d->res[i] = *r;
	d->res[i].done = true;
	pthread_cond_broadcast(&d->cv_done);
	pthread_mutex_unlock(&d->mu);
}

static bool take_group(struct driver *d, uint32_t *i)
{
	bool ok;

	pthread_mutex_lock(&d->mu);
	while (!d->stop && d->next < d->ngroups && d->next >= d->consumed + d->window)
		pthread_cond_wait(&d->cv_room, &d->mu);
	ok = !d->stop && d->next < d->ngroups;
	if (ok)
		*i = d->next++;
	pthread_mutex_unlock(&d->mu);
	return ok;
}

/* One unit into the group's builder; converted again without reuse when a
 * reused type did not hold */
static int convert_unit(struct driver *d, struct lbtfi_dw_unit *u, uint32_t i)
{
	struct lbtfi_dw_unit_mark m;
	struct lbtfi_dw_die die;
	int err;

	lbtfi_dw_unit_next(u);
	lbtfi_dw_unit_mark(u, &m);
	err = lbtfi_dr_die_at(u->rd, u->rd->main, d->ul.die_offs[i], &die);
	if (!err)
		err = lbtfi_dw_convert_unit(u, &die);
	if (err == 1) {
		lbtfi_dw_unit_rollback(u, &m);
		err = lbtfi_dw_convert_unit(u, &die);
	}
	if (!err)
		err = lbtfi_dw_reuse_commit(lbtfi_dw_ru(u));
	return err;
}

static void convert_group(struct driver *d, struct lbtfi_dw_unit *u, uint32_t gi, bool reuse)
{
	uint32_t i = gi * GROUP_UNITS, end = i + GROUP_UNITS < d->ul.n ? i + GROUP_UNITS : d->ul.n;
	struct unit_result r = { 0 };
	int err = 0;

	lbtfi_dw_unit_reset(u);
	u->b = lbtf_builder_new(d->g.base);
	u->ru.grp = reuse ? lbtfi_dw_group_new() : NULL;
	if (!u->b || (reuse && !u->ru.grp))
		err = -ENOMEM;
	for (; !err && i < end; i++) {
		err = convert_unit(d, u, i);
		/* units prepared for this one (dwz partial units are shared);
		 * not the unit itself (its bytes, abbreviations) */
		lbtfi_dr_ctx_forget(u->rd, u->rd->main, d->ul.die_offs[i]);
		lbtfi_dr_ctx_trim(u->rd, 8);
	}
	if (!err)
		lbtfi_dw_group_finish(lbtfi_dw_ru(u));
	if (!err)
		err = lbtfi_dw_group_paired_names(lbtfi_dw_ru(u), &r.paired, &r.paired_len);
	lbtfi_dw_group_free(u->ru.grp);
	u->ru.grp = NULL;
	if (err)
		err = with_path(d->path, err);
	if (err) {
		fail_unit(&r, err);
		lbtf_builder_free(u->b);
		free(u->vars);
		free(r.paired);
		r.paired = NULL;
	} else {
		r.b = u->b;
		r.vars = u->vars;
		r.nvars = u->nvars;
		r.nfuncs = u->nfuncs;
	}
	r.warned = u->warned;
	memcpy(r.other_tags, u->other_tags, sizeof(r.other_tags));
	u->vars = NULL; /* handed over */
	u->warned = 0;
	memset(u->other_tags, 0, sizeof(u->other_tags));
	finish(d, gi, &r);
}

/* lbtfi_dw_global.subprogram while the table is loaded (pfuncs_gate) */
static int subprogram_when_loaded(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	const struct driver *d = (const struct driver *)((const char *)u->g -
							 offsetof(struct driver, g));
	struct pfuncs_gate *gate = d->gate;
	int err;

	if (!__atomic_load_n(&gate->ready, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&gate->mu);
		while (!gate->ready)
			pthread_cond_wait(&gate->cv, &gate->mu);
		pthread_mutex_unlock(&gate->mu);
	}
	err = gate->err;
	if (err) /* (the calling thread reports the cause) */
		return lbtfi_err(-err, "pahole's function table was not loaded");
	return lbtfi_dw_funcs_subprogram(u, die);
}

/* The table loaded, the workers waiting for it let go (also on failure:
 * their groups fail, the load's error is the run's) */
static int load_pfuncs(struct pfuncs_gate *gate, uint32_t features)
{
	int err;

	if (!gate->pending)
		return 0;
	gate->pending = false;
	err = lbtfi_dw_pfuncs_load(gate->ei, features);
	/* (the symbol table's pages, 3 MB of a kernel, out of the
	 * conversion's memory; the names' pages come back as they are
	 * looked up) */
	lbtfi_dw_drop_file_pages(gate->ei->elf);
	pthread_mutex_lock(&gate->mu);
	gate->err = err;
	__atomic_store_n(&gate->ready, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&gate->cv);
	pthread_mutex_unlock(&gate->mu);
	return err;
}

/* What a thread converts with: its own DWARF handle, reader and unit */
struct converter {
	struct lbtfi_dw_handle h;         /* its own (ET_REL), and its file f */
	struct lbtfi_dr_file f;
	const struct lbtfi_dr_file *file; /* f or the driver's units */
	struct lbtfi_dr_ctx rd;
	struct lbtfi_dw_unit u;
};

static int converter_open(struct driver *d, struct converter *c)
{
	const struct lbtfi_dw_handle *h = &c->h;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->h.fd = -1;
	if (d->has_shared) {
		h = &d->shared;
		c->file = &d->units;
	} else {
		pthread_mutex_lock(&d->mu);
		if (d->has_spare) {
			c->h = d->spare;
			d->has_spare = false;
		} else {
			err = 1;
		}
		pthread_mutex_unlock(&d->mu);
		if (err)
			err = lbtfi_dw_handle_open(&c->h, d->path, d->g.ei->is_rel);
		if (!err)
			err = lbtfi_dr_file_open(&c->f, c->h.dw, &d->units, NULL);
		if (err) {
			lbtfi_dr_file_close(&c->f);
			lbtfi_dw_handle_close(&c->h);
			return err;
		}
		c->file = &c->f;
	}
	lbtfi_dr_ctx_init(&c->rd, c->file);
	if (h->info_in_file)
		lbtfi_dr_ctx_read_units(&c->rd, h->fd, h->info_foff);
	err = lbtfi_dw_unit_init(&c->u, &d->g, &c->rd);
	if (err) {
		lbtfi_dr_ctx_free(&c->rd);
		if (c->file == &c->f) {
			lbtfi_dr_file_close(&c->f);
			lbtfi_dw_handle_close(&c->h);
		}
	}
	return err;
}

static void converter_close(struct converter *c)
{
	lbtfi_dw_unit_free(&c->u);
	lbtfi_dr_ctx_free(&c->rd);
	if (c->file == &c->f) {
		lbtfi_dr_file_close(&c->f);
		lbtfi_dw_handle_close(&c->h);
	}
}

static void *worker(void *arg)
{
	struct driver *d = arg;
	struct converter c;
	uint32_t i;
	int err;

	err = converter_open(d, &c);
	if (err) {
		/* report on the first group nobody converted yet */
		if (take_group(d, &i)) {
			struct unit_result r = { 0 };

			fail_unit(&r, err);
			finish(d, i, &r);
		}
		return NULL;
	}
	while (take_group(d, &i))
		convert_group(d, &c.u, i, d->g.features & LBTF_DWARF_FEAT_REUSE);
	converter_close(&c);
	return NULL;
}

/* -j1 (solo): group i converted by the appender, when it comes to it, with
 * the converter c it opened (open_err: could not) */
static void convert_here(struct driver *d, struct converter *c, int open_err, uint32_t i)
{
	struct unit_result r = { 0 };

	if (!open_err) {
		convert_group(d, &c->u, i, d->g.features & LBTF_DWARF_FEAT_REUSE);
		return;
	}
	fail_unit(&r, open_err);
	finish(d, i, &r);
}

static void free_result(struct unit_result *r)
{
	lbtf_builder_free(r->b);
	free(r->vars);
	free(r->errmsg);
	free(r->paired);
	lbtfi_dw_group_defs_free(&r->defs);
	memset(r, 0, sizeof(*r));
}

/*
 * The groups marked redo, converted again without reuse (exactly as a plain
 * conversion does) by a thread of its own, while the caller puts the output
 * together again: the appender waits for such a group as for a worker's.
 * (Done by the main thread, a redone group would sit on its critical path
 * after the workers end; it is, when no thread can be made.)
 */
struct again {
	struct driver *d;
	uint32_t *groups;
	bool *reuse;     /* per entry of groups: converted with reuse (NULL: none is) */
	uint32_t n;      /* groups (0: none converted again) */
	struct lbtfi_side side;
};

static void *again_thread(void *arg)
{
	struct again *a = arg;
	struct driver *d = a->d;
	struct converter c;
	uint32_t k, i;
	int err = converter_open(d, &c);

	if (err)
		err = with_path(d->path, err);
	for (k = 0; k < a->n; k++) {
		i = a->groups[k];
		if (err) {
			struct unit_result r = { 0 };

			fail_unit(&r, err);
			finish(d, i, &r);
			continue;
		}
		convert_group(d, &c.u, i, a->reuse && a->reuse[k]);
	}
	if (!err)
		converter_close(&c);
	return NULL;
}

/* Starts converting the redo groups again (all: every group, the others
 * with reuse as the first time): their results are emptied here, before
 * anybody waits for them */
static int again_start(struct driver *d, struct again *a, bool all)
{
	size_t n = d->ngroups ? d->ngroups : 1;
	uint32_t i;

	memset(a, 0, sizeof(*a));
	a->d = d;
	a->groups = malloc(n * sizeof(*a->groups));
	a->reuse = all ? malloc(n * sizeof(*a->reuse)) : NULL;
	if (!a->groups || (all && !a->reuse))
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < d->ngroups; i++) {
		if (!all && (d->early[i] || !d->res[i].redo))
			continue;
		if (all)
			a->reuse[a->n] = (d->g.features & LBTF_DWARF_FEAT_REUSE) && !d->res[i].redo;
		free_result(&d->res[i]);
		a->groups[a->n++] = i;
	}
	if (a->n) /* (else all of them started early) */
		lbtfi_side_start_stack(&a->side, again_thread, a, CONVERT_STACK);
	return 0;
}

static void again_join(struct again *a)
{
	lbtfi_side_join(&a->side);
	free(a->groups);
	free(a->reuse);
	memset(a, 0, sizeof(*a));
}

/* The driver ---------------------------------------------------------------- */

static int start_workers(struct driver *d, pthread_t *tids, int jobs, int *started)
{
	pthread_attr_t attr;
	int i, err = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, CONVERT_STACK);
	for (i = 0; i < jobs; i++) {
		err = pthread_create(&tids[i], &attr, worker, d);
		if (err)
			break;
	}
	pthread_attr_destroy(&attr);
	*started = i;
	return i ? 0 : lbtfi_err(err, "cannot start a thread: %s", strerror(err));
}

static void stop_workers(struct driver *d, pthread_t *tids, int n)
{
	int i;

	pthread_mutex_lock(&d->mu);
	d->stop = true;
	pthread_cond_broadcast(&d->cv_room);
	pthread_mutex_unlock(&d->mu);
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
}

static struct unit_result *wait_unit(struct driver *d, uint32_t i)
{
	pthread_mutex_lock(&d->mu);
	while (!d->res[i].done)
		pthread_cond_wait(&d->cv_done, &d->mu);
	pthread_mutex_unlock(&d->mu);
	return &d->res[i];
}

static void release_unit(struct driver *d, struct unit_result *r)
{
	if (!d->keep || r->err) {
		free_result(r);
	} else { /* (what a new look needs stays: its types are in raw) */
		lbtf_builder_free(r->b);
		r->b = NULL;
	}
	pthread_mutex_lock(&d->mu);
	d->consumed++;
	pthread_cond_broadcast(&d->cv_room);
	pthread_mutex_unlock(&d->mu);
}

/*
 * Deduplicate whenever this many raw types have been appended since the last
 * time: memory stays bounded by (result + one batch) instead of every unit's
 * types. Depends only on the input, so the output is the same at any -j.
 */
#define DEDUP_BATCH_TYPES 400000u

struct collected {
	struct lbtfi_dw_var *vars;
	uint32_t n, cap;
	uint32_t raw_since_dedup, types_raw;
	bool deduped, has_externs;
	uint64_t warned;
	uint32_t tags[32], ntags;
	uint32_t funcs;
	/* (keep) the definitions of the groups appended so far, by shape:
	 * the pairing check's table, grown group by group (group_defs.c) */
	struct lbtfi_dw_defs pairs;
	bool pairs_on;
	/* (keep, after fold_early) the table of the first conversions: the
	 * one the look after the last group had before early redos were
	 * folded in (fold_early says why), grown with the later groups */
	struct lbtfi_dw_defs before;
	bool before_on;
	uint32_t fold_upto;       /* groups from here on go into before too */
};

static void collected_free(struct collected *c)
{
	free(c->vars);
	c->vars = NULL;
	if (c->pairs_on)
		lbtfi_dw_defs_free(&c->pairs);
	c->pairs_on = false;
	if (c->before_on)
		lbtfi_eq_defs_free(&c->before.defs);
	c->before_on = false;
}

/* Append group r to out (its builder, or its types in old: see
 * split_at_redo) and collect its VARs with their new ids; in_place: its
 * types are in out already, where the last look put them */
static int take_result(struct driver *d, struct lbtf_builder *out, struct unit_result *r,
		       const struct lbtf_builder *old, bool in_place, struct collected *c)
{
	uint32_t unit_start = d->g.base ? lbtf_type_cnt(d->g.base) : 1, i, n;
	int first;

	c->warned |= r->warned;
	lbtfi_dw_merge_tags(c->tags, &c->ntags, 32, r->other_tags);
	if (r->err)
		return lbtfi_err(-r->err, "%s", r->errmsg ? r->errmsg : "conversion failed");
	if (in_place)
		first = (int)r->first;
	else if (r->b)
		first = lbtf_builder_append(out, r->b);
	else
		first = lbtfi_builder_append_range(out, old, r->first, r->end);
	if (first < 0)
		return first;
	n = in_place ? r->end - r->first : lbtf_builder_type_cnt(out) - first;
	r->first = first;
	r->end = first + n;
	if (c->pairs_on) {
		int err = lbtfi_dw_group_defs_add(&c->pairs.defs, out, r->first, r->end, &r->defs);

		if (!err && c->before_on && (uint32_t)(r - d->res) >= c->fold_upto)
			err = lbtfi_dw_group_defs_add(&c->before.defs, out, r->first, r->end,
						      &r->defs);
		if (err)
			return err;
	}
	c->raw_since_dedup += n;
	c->types_raw += n;
	c->funcs += r->nfuncs;
	if (LBTFI_GROW(c->vars, c->cap, (size_t)c->n + r->nvars))
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < r->nvars; i++) {
		c->has_externs |= r->vars[i].ext != LBTFI_DW_EXT_NONE;
		c->vars[c->n] = r->vars[i];
		c->vars[c->n].id = first + (r->vars[i].id - unit_start);
		c->n++;
	}
	return 0;
}

static int dedup_now(struct lbtf_builder *out)
{
	struct lbtf_dedup_opts dopts = { .sz = sizeof(dopts) };
	int err = lbtf_builder_dedup(out, &dopts);

	return err > 0 ? 0 : err;
}

/*
 * Intermediate dedups renumber types; VARs are never merged or reordered by
 * dedup, so the i-th VAR of the builder is the i-th collected variable.
 * Checked by name, never assumed.
 */
static int rebind_vars(struct lbtf_builder *out, const struct lbtfi_dw_elf_info *ei, struct collected *c,
		       uint32_t start)
{
	uint32_t id, k = 0, cnt = lbtf_builder_type_cnt(out);

	for (id = start; id < cnt && k < c->n; id++) {
		struct lbtf_type *t = lbtf_builder_type_by_id(out, id);
		const char *name;

		if (!t || lbtf_kind(t) != LBTF_KIND_VAR)
			continue;
		name = lbtf_builder_str(out, t->name_off);
		if (!name || strcmp(name, ei->syms[c->vars[k].sym].name))
			return lbtfi_err(EINVAL, "VAR %u is '%s', expected '%s' after dedup", id,
					 name ? name : "?", ei->syms[c->vars[k].sym].name);
		c->vars[k++].id = id;
	}
	if (k != c->n)
		return lbtfi_err(EINVAL, "found %u of %u VARs after dedup", k, c->n);
	return 0;
}

static uint32_t effective_features(const struct lbtf_dwarf_opts *o, const struct lbtfi_dw_elf_info *ei)
{
	uint32_t f = o && o->features ? o->features
				      : LBTF_DWARF_FEAT_DEFAULT | LBTF_DWARF_FEAT_INPUT_VARS;

	if ((f & LBTF_DWARF_FEAT_INPUT_VARS) && (f & LBTF_DWARF_FEAT_VAR) && ei->is_kernel) {
		/* kernel images: per-CPU variables only, as kernel builds do */
		f &= ~LBTF_DWARF_FEAT_VAR;
		f |= LBTF_DWARF_FEAT_PERCPU_VAR;
	}
	return f & (LBTF_DWARF_FEAT_ALL | LBTFI_DW_PAHOLE_FUNCS | LBTF_DWARF_FEAT_ATTRIBUTES);
}

/*
 * The groups' types into out, in order: the first time from the workers as
 * they finish (workers set); later the groups before kept are in out
 * already, and the others come from the groups converted again and old
 * (split_at_redo). Without keep, deduplicated by batches.
 */
static bool any_pairing_upto(const struct driver *d, uint32_t upto);

/* The groups appended when early_redo looks: all but the last 8 (a
 * vmlinux has ~50), all but the last one of fewer */
static uint32_t early_point(const struct driver *d)
{
	return d->ngroups > 9 ? d->ngroups - 8 : d->ngroups - 1;
}
static int early_redo(struct driver *d, const struct lbtfi_dw_defs *defs, uint32_t upto,
		      struct again *a);
static int split_at_redo(struct driver *d, struct lbtf_builder *raw, uint32_t upto,
			 struct lbtf_builder **old, uint32_t *kept);

/*
 * The groups early_redo converts again put into out as soon as they are
 * done, before the groups after upto are appended (the workers convert
 * those meanwhile), instead of by a second look after the last group: that
 * look put the output together again on the critical path after the
 * workers. out is cut back where the first of them began (split_at_redo),
 * the groups before it are taken again where they are (their VARs and
 * definitions collected again), then the groups up to upto in order: one
 * converted again from its new builder (waited for), the others from where
 * the cut moved them. out is then what that second look put together.
 *
 * Which groups are converted again, and how, stays as before, so the output
 * is the same: the look after the last group is made first with the table
 * of the first conversions (c->before, kept and grown with the later
 * groups), as before; when it finds no other group, the look of the second
 * round follows at once on the output as it is (convert_all). Warnings are
 * those of the first conversions, reported once, as before.
 */
static int fold_early(struct driver *d, struct lbtf_builder *out, uint32_t upto,
		      struct collected *c, struct again *early)
{
	struct lbtf_builder *moved = NULL;
	uint32_t kept, i;
	int err;

	if (!early->n)
		return 0;
	err = split_at_redo(d, out, upto, &moved, &kept);
	if (!err) {
		c->before = c->pairs;
		c->before_on = true;
		c->fold_upto = upto;
		err = lbtfi_eq_defs_init(&c->pairs.defs);
		c->pairs_on = !err;
	}
	c->n = 0;
	c->types_raw = c->funcs = c->raw_since_dedup = 0;
	c->has_externs = false;
	for (i = 0; !err && i < upto; i++) {
		struct unit_result *r;

		if (!d->early[i]) {
			err = take_result(d, out, &d->res[i], moved, i < kept, c);
			continue;
		}
		r = wait_unit(d, i);
		r->warned = 0; /* (those of its first conversion were taken) */
		memset(r->other_tags, 0, sizeof(r->other_tags));
		err = take_result(d, out, r, NULL, false, c);
		lbtf_builder_free(r->b); /* (what a new look needs stays) */
		r->b = NULL;
		d->early[i] = false;
	}
	lbtf_builder_free(moved);
	again_join(early);
	return err;
}

static int assemble(struct driver *d, const struct lbtf_dwarf_opts *o, struct lbtf_builder *out,
		    const struct lbtf_builder *old, uint32_t kept, struct collected *c,
		    bool workers, struct again *early)
{
	pthread_t *tids = NULL;
	int jobs = o && o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	int started = 0, err = 0, open_err = 0;
	bool here = workers && d->solo; /* (convert_here) */
	struct converter conv;
	uint32_t i;

	if (jobs < 1)
		jobs = 1;
	if ((uint32_t)jobs > d->ngroups)
		jobs = d->ngroups ? d->ngroups : 1;
	if (d->keep) {
		c->pairs.out = out;
		if ((err = lbtfi_eq_defs_init(&c->pairs.defs)))
			return err;
		c->pairs_on = true;
	}
	if (here) {
		/* (the table whole before the first subprogram, which would
		 * otherwise wait for it on this very thread) */
		err = load_pfuncs(d->gate, d->g.features);
		open_err = converter_open(d, &conv);
	} else if (workers) {
		/* Room for the workers to keep converting while the appender
		 * runs a batch dedup, so the stages overlap instead of taking
		 * turns */
		d->window = 2 * jobs + 2;
		tids = calloc(jobs, sizeof(*tids));
		if (!tids)
			return lbtfi_err(ENOMEM, "out of memory");
		err = start_workers(d, tids, jobs, &started);
		if (!err)
			err = load_pfuncs(d->gate, d->g.features);
	}
	for (i = 0; !err && i < d->ngroups; i++) {
		struct unit_result *r;

		if (here)
			convert_here(d, &conv, open_err, i);
		r = wait_unit(d, i);
		err = take_result(d, out, r, old, i < kept, c);
		release_unit(d, r);
		/* (what the units before it read once is not read again:
		 * out of the peak memory; a worker's current unit may read
		 * a few of those pages again) */
		if (workers && d->has_shared)
			lbtfi_dw_drop_read_once(&d->shared);
		/* (not with externs: extern FUNCs may merge, so they could not
		 * be found again in order the way VARs are) */
		if (!err && !d->keep && (d->g.features & LBTF_DWARF_FEAT_DEDUP) &&
		    !c->has_externs && c->raw_since_dedup >= DEDUP_BATCH_TYPES &&
		    i + 1 < d->ngroups) {
			err = dedup_now(out);
			c->raw_since_dedup = 0;
			c->deduped = true;
		}
		if (workers && o && o->progress)
			o->progress(o->ctx, i + 1 < d->ngroups ? (i + 1) * GROUP_UNITS : d->ul.n,
				    d->ul.n);
		/* (at a point that depends on the input only: see early_redo) */
		if (!err && workers && d->keep && (d->g.features & LBTF_DWARF_FEAT_DEDUP) &&
		    d->ngroups >= 3 && i + 1 == early_point(d) && any_pairing_upto(d, i + 1))
			err = early_redo(d, &c->pairs, i + 1, early) ?:
			      fold_early(d, out, i + 1, c, early);
	}
	if (here && !open_err)
		converter_close(&conv);
	if (workers && !here) {
		stop_workers(d, tids, started);
		free(tids);
	}
	if (!err && workers) /* (the same when groups are converted again) */
		lbtfi_dw_report_warnings(o, c->warned, c->tags, c->ntags);
	return err;
}

/*
 * The free pages of the heap given back: what the workers freed (their
 * units, die maps, reuse tables and group builders, 17 MB of a kernel at
 * -j1) stays resident in glibc's arenas otherwise, under the dedup that
 * follows. Not after dedup or prune: what follows them (prune, serialize,
 * verify) stays under the peak with what they freed kept for reuse (a
 * kernel, 6.18 flags: RSS 48-52 MB from dedup to the end against a peak
 * of 60-68 MB, at the end of the conversion or in dedup), and giving it
 * back took 5-6 ms of the single-threaded end, its pages faulted again.
 */
static void release_free_pages(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/*
 * The release after an assembly on a thread of its own, joined before
 * dedup: the caller meanwhile checks the pairings and places the VARs.
 * (On the caller, malloc_trim took 7-8 ms of the single-threaded end of a
 * kernel, 6.18 flags, its main thread's CPU from the last append to dedup
 * 12.7 -> 6.0 ms, median of 6; the peak is unchanged: dedup, whose tables
 * would sit over pages not given back yet, starts after the join.) When
 * no thread can be made, the caller releases them itself (lbtfi_side).
 * Not at -j1: there the trim is on the one thread's path, and dedup faults
 * the pages in again that it would reuse (a kernel, 6.18 flags: 6,594 ->
 * 4,209 page faults, 0.974x and 0.990x CPU in runs pinned to each CPU, 16
 * pairs; peak RSS 53 -> 56 MB).
 */
static void *release_thread(void *arg)
{
	(void)arg;
	release_free_pages();
	return NULL;
}

/* out deduplicated; *strs (when strs is not NULL), if still NULL, made a
 * builder with out's first strs_len bytes of strings before the strings
 * change (convert_all's look after dedup may need them) */
static int dedup_all(struct lbtf_builder *out, struct lbtf_builder **strs, size_t strs_len)
{
	struct lbtf_dedup_opts dopts = { .sz = sizeof(dopts) };
	uint32_t before, pass = 0;
	bool settled;
	int err;

	/* Again while it merges more: a struct graph that reaches two copies
	 * of one type (a group's builder mixes types of several units) can
	 * keep dedup from pairing it with its twin in one pass, as in libbpf;
	 * the next pass sees the copies merged. Not when the pass says
	 * another would merge nothing (no struct left beside a twin of its
	 * hash and shape): it would give the same types back. The strings
	 * are compacted before another pass (each pass hashes the offsets
	 * as before), not after the last: prune does it once, after what it
	 * drops (lbtfi_dw_prune). */
	for (;;) {
		before = lbtf_builder_type_cnt(out);
		err = lbtfi_builder_dedup_types(out, &dopts, &settled);
		if (err || settled || ++pass >= 4 || lbtf_builder_type_cnt(out) >= before)
			return err;
		if (strs && !*strs && !(*strs = lbtfi_builder_new_strs_upto(out, strs_len)))
			return -ENOMEM; /* (the message is set) */
		if ((err = lbtfi_dedup_strings(out)))
			return err;
	}
}

/* Marks the groups [0, upto) whose pairings do not hold in the output
 * whose definitions defs holds: before dedup (by shape, the groups' own
 * table: collected.pairs), those that cannot hold; how many, <0 error (a
 * group converted again early stays marked: its pairings did not hold in
 * part of the output, so they do not in all of it) */
static int check_pairings_upto(struct driver *d, const struct lbtfi_dw_defs *defs, uint32_t upto)
{
	uint32_t i;
	int n = 0, bad;

	for (i = 0; i < upto; i++) {
		if (d->early[i]) { /* (its result is the other thread's now) */
			n++;
			continue;
		}
		bad = lbtfi_dw_defs_check(defs, d->res[i].paired, d->res[i].paired_len);
		if (bad < 0) {
			n = bad;
			break;
		}
		d->res[i].redo = bad > 0;
		n += bad > 0;
	}
	return n;
}

/* The same for every group, against a deduplicated output (by id) */
static int check_pairings_deduped(struct driver *d, const struct lbtf_builder *out)
{
	struct lbtfi_dw_defs defs;
	int n;

	if ((n = lbtfi_dw_defs_init(&defs, out, false)))
		return n;
	n = check_pairings_upto(d, &defs, d->ngroups);
	lbtfi_dw_defs_free(&defs);
	return n;
}

/*
 * A first look before the last groups are appended (early_point, while
 * the workers convert them): the groups whose pairings already fail over
 * the groups appended so far fail over all of them (a name with several
 * shapes keeps them), so they are converted again now, by a thread of
 * their own, instead of after the last group (a kernel has such groups:
 * converted after the last group, they sit on the critical path after the
 * workers). The check
 * after the last group counts them again, with any others; which groups
 * are converted again, and how, is as before: the output is the same.
 */
static int early_redo(struct driver *d, const struct lbtfi_dw_defs *defs, uint32_t upto,
		      struct again *a)
{
	int bad = check_pairings_upto(d, defs, upto);
	uint32_t i;

	if (bad <= 0)
		return bad;
	memset(a, 0, sizeof(*a));
	a->d = d;
	a->groups = malloc(upto * sizeof(*a->groups));
	if (!a->groups)
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < upto; i++)
		if (d->res[i].redo) {
			free_result(&d->res[i]);
			d->early[i] = true;
			a->groups[a->n++] = i;
		}
	/* (the thread's arena is new memory beside the workers' own: what
	 * they freed so far goes back first; at -j1 the work stays on this
	 * thread, whose arena has it) */
	if (!d->solo)
		release_free_pages();
	lbtfi_side_start_stack(&a->side, again_thread, a, CONVERT_STACK);
	return 0;
}

/* Anything paired at all in groups [0, upto) (else there is nothing to
 * check); a group converted again early had pairings */
static bool any_pairing_upto(const struct driver *d, uint32_t upto)
{
	uint32_t i;

	for (i = 0; i < upto; i++)
		if (d->early[i] || d->res[i].paired_len)
			return true;
	return false;
}

static bool any_pairing(const struct driver *d)
{
	return any_pairing_upto(d, d->ngroups);
}

/*
 * Before another look, for the groups marked to be converted again: those
 * before the first of them (kept) keep their types where they are in raw;
 * the types of the later ones that stay move to a builder of their own
 * (*old, their ids there in res[]; their string offsets stay raw's, whose
 * strings are not cut), and raw is cut back to where that first group
 * began, to take them again after it, in order. (Putting every group
 * together again copied all the raw types: the Debian vmlinux's group
 * converted again is its 39th of 49.) The output is the same. The groups
 * [0, upto) are in raw (the others, not appended yet, may be a worker's).
 */
static int split_at_redo(struct driver *d, struct lbtf_builder *raw, uint32_t upto,
			 struct lbtf_builder **old, uint32_t *kept)
{
	uint32_t k, i, from, shift, cnt = lbtf_builder_type_cnt(raw);
	struct lbtf_builder *rest;
	int first;

	for (k = 0; k < upto && !d->early[k] && !d->res[k].redo; k++)
		;
	/* (a group converted again early has no result left to say where
	 * it began: where the group before it ended) */
	from = k ? d->res[k - 1].end : raw->start_id;
	rest = lbtfi_builder_new_strs_at(raw);
	if (!rest)
		return -ENOMEM; /* (the message is set) */
	first = lbtfi_builder_append_range(rest, raw, from, cnt);
	if (first < 0) {
		lbtf_builder_free(rest);
		return first;
	}
	shift = from - (uint32_t)first;
	for (i = k; i < upto; i++)
		if (!d->early[i] && !d->res[i].redo) {
			d->res[i].first -= shift;
			d->res[i].end -= shift;
		}
	if (from < cnt) {
		bool known = lbtfi_builder_checked_known(raw);

		lbtfi_builder_truncate(raw, from - raw->start_id, raw->offs[from - raw->start_id]);
		/* (still checked: the groups kept refer to their own types and
		 * the base only, as the appends put them, never to the types
		 * cut; dedup need not check them again) */
		if (known)
			lbtfi_builder_checked_now(raw);
	}
	*old = rest;
	*kept = k;
	return 0;
}

/*
 * Converted, put together, deduplicated; with reuse, checked and done
 * again without reuse for the groups that paired a name with several
 * definitions (dwarf_reuse/reuse.c says why not with reuse minus that name).
 * Before dedup the raw builder stays for the next look (split_at_redo);
 * after it, only its strings do (every group is converted again). The
 * definitions of different shapes are seen before dedup, which then runs
 * once in the usual case (a kernel has a few such names).
 */
static struct lbtf_builder *convert_all(struct driver *d, const struct lbtf_dwarf_opts *o,
					struct lbtf_dwarf_stats *st, int *errp)
{
	struct lbtf_builder *out = NULL, *raw = NULL, *old = NULL, *strs = NULL;
	struct again again = { 0 }, early = { 0 };
	struct lbtfi_side rel = { 0 }; /* release_thread */
	size_t strs_len = 0;
	int round, err = 0, bad;
	uint32_t kept = 0;
	bool paired;

	for (round = 0; !err; round++) {
		struct collected c = { 0 };

		lbtf_builder_free(out);
		out = NULL;
		if (!raw)
			raw = lbtf_builder_new(d->g.base);
		err = raw ? assemble(d, o, raw, old, kept, &c, round == 0, &early) : -ENOMEM;
		again_join(&again);
		if (round) { /* (the groups started early are in: ordinary ones now) */
			again_join(&early);
			memset(d->early, 0, d->ngroups * sizeof(*d->early));
		}
		/* (the workers are done: the pages they read through the file
		 * mappings out of the peak memory of what follows; a group
		 * still being converted again reads them again) */
		lbtfi_dw_drop_file_pages(d->has_shared ? d->shared.elf : NULL);
		lbtfi_dw_drop_file_pages(d->g.ei->elf);
		lbtf_builder_free(old);
		old = NULL;
		lbtfi_side_join(&rel); /* (a round that did not reach dedup) */
		if (!d->solo) /* (see release_thread) */
			lbtfi_side_start(&rel, release_thread, NULL);
		paired = !err && d->keep && any_pairing(d);
		/* (early redos folded in: the first round's look, with the
		 * first conversions' table; when it finds no other group,
		 * the output is the second round's, and so is the look) */
		if (paired && c.before_on) {
			bad = check_pairings_upto(d, &c.before, d->ngroups);
			if (!bad)
				round = 1;
			else if (bad > 0)
				err = split_at_redo(d, raw, d->ngroups, &old, &kept);
			if (bad > 0 && !err)
				err = again_start(d, &again, false);
			if (bad) {
				err = bad < 0 ? bad : err;
				collected_free(&c);
				continue;
			}
		}
		if (paired && round < 2 &&
		    (bad = check_pairings_upto(d, &c.pairs, d->ngroups)) != 0) {
			err = bad < 0 ? bad : split_at_redo(d, raw, d->ngroups, &old, &kept);
			if (!err)
				err = again_start(d, &again, false);
			collected_free(&c);
			continue;
		}
		/* For another look after dedup, only raw's strings are kept
		 * (strs_len), not a copy of its types: dedup works on raw
		 * itself. A look that fails converts every group again onto
		 * those strings, which puts raw together as it was (the same
		 * types at the same ids, the same string offsets): a second
		 * conversion, in that rare case. A kernel's look holds: the
		 * copy beside the dedup was 21 MB of its peak. (No group is
		 * an early one here: they fail the look before dedup.) Not a
		 * copy of the strings either, until they change (dedup_all):
		 * until then out's begin with them, and the copy of them, 5 MB
		 * of a kernel's, was at -j2's peak, beside dedup's tables. */
		strs_len = raw ? raw->strs.len : 0;
		out = raw;
		raw = NULL;
		if (!out && !err)
			err = lbtfi_err(ENOMEM, "out of memory");
		st->units = d->ul.n;
		st->funcs = c.funcs;
		st->types_raw = c.types_raw;
		if (!err && c.deduped)
			err = rebind_vars(out, d->g.ei, &c, d->g.base ? lbtf_type_cnt(d->g.base) : 1);
		if (!err) {
			/* (the appends kept out checked: the DATASECs are checked
			 * now, so that dedup does not check every type again) */
			uint32_t nr = out->nr_types;
			bool known = lbtfi_builder_checked_or_empty(out);

			err = lbtfi_dw_add_datasecs(out, d->g.ei, d->g.pahole, c.vars, c.n,
						    &st->datasecs, &st->vars);
			if (!err && known)
				err = lbtfi_builder_check_added(out, nr);
		}
		st->types_raw += st->datasecs;
		collected_free(&c);
		lbtfi_side_join(&rel);
		if (!err && (d->g.features & LBTF_DWARF_FEAT_DEDUP))
			err = dedup_all(out, paired && round < 2 ? &strs : NULL, strs_len);
		if (err || !paired || round == 2)
			break;
		bad = check_pairings_deduped(d, out);
		if (bad <= 0) {
			err = bad;
			break;
		}
		raw = strs ? strs : lbtfi_builder_new_strs_upto(out, strs_len);
		strs = NULL;
		if (!raw) {
			err = -ENOMEM; /* (the message is set) */
			break;
		}
		kept = 0;
		err = again_start(d, &again, true);
	}
	lbtfi_side_join(&rel);
	again_join(&again);
	again_join(&early);
	lbtf_builder_free(old);
	lbtf_builder_free(raw);
	lbtf_builder_free(strs);
	*errp = err;
	return out;
}

/*
 * The units listed (their headers read, split DWARF refused) by a thread of
 * its own while the caller reads the symbol table: both are serial work
 * before the workers can start. The error message is carried over to the
 * caller's thread (messages are per thread).
 */
struct listing {
	struct driver *d;
	bool is_rel;
	int err;
	char msg[512];
};

static void *list_units(void *arg)
{
	struct listing *l = arg;
	struct driver *d = l->d;
	const char *path = d->path;
	struct lbtfi_dw_handle h;
	int err;

	err = lbtfi_dw_handle_open(&h, path, l->is_rel);
	if (!err) {
		/* (the unit headers read from the file where .debug_info is
		 * its bytes; h stays for the converters, below) */
		struct lbtfi_dr_info_src src = { h.fd, h.info_foff };

		err = lbtfi_dr_file_open(&d->units, h.dw, NULL, h.info_in_file ? &src : NULL);
		if (err)
			err = with_path(path, err);
		else
			err = lbtfi_dw_list_units(&d->units, &d->ul);
	}
	/* (libdw's walk of every unit reads them all again: only when the
	 * headers saw a skeleton or a .dwo name) */
	if (!err && (d->units.dwo_units || (d->units.types && d->units.types->dwo_units))) {
		char dwo[256];
		unsigned int skel = lbtfi_dw_count_skeletons(h.dw, dwo, sizeof(dwo));

		if (skel)
			err = lbtfi_err(ENODATA, "%s: split DWARF (-gsplit-dwarf): %u unit(s) keep "
					"their types in .dwo files (%s%s), which btfgen does not "
					"read; build without -gsplit-dwarf", path, skel,
					*dwo ? "first: " : "", *dwo ? dwo : "not named");
	}
	/* (a relocated handle goes to the first converter: relocating
	 * costs more than reading a module's unit headers; the caller joins
	 * this thread before any converter starts) */
	if (!err && l->is_rel) {
		d->spare = h;
		d->has_spare = true;
	} else if (!err) {
		d->shared = h;
		d->has_shared = true;
	} else {
		lbtfi_dw_handle_close(&h);
	}
	if (err)
		snprintf(l->msg, sizeof(l->msg), "%s", lbtf_errmsg());
	l->err = err;
	return NULL;
}

/* What list_units left: the unit list, the unit headers and the handle
 * kept (the shared one after the units: their sections are its) */
static void free_listing(struct driver *d)
{
	if (d->has_spare)
		lbtfi_dw_handle_close(&d->spare);
	d->has_spare = false;
	free(d->ul.die_offs);
	d->ul.die_offs = NULL;
	lbtfi_dr_file_close(&d->units);
	if (d->has_shared)
		lbtfi_dw_handle_close(&d->shared);
	d->has_shared = false;
}

/* ET_REL, from the ELF header (false when it is none: lbtfi_dw_elf_info_load
 * then says what the file is not) */
static bool elf_is_rel(const char *path)
{
	unsigned char e[EI_NIDENT + 2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool rel = false;

	if (fd < 0)
		return false;
	if (read(fd, e, sizeof(e)) == (ssize_t)sizeof(e) && !memcmp(e, ELFMAG, SELFMAG))
		rel = (e[EI_DATA] == ELFDATA2MSB ? (e[EI_NIDENT] << 8 | e[EI_NIDENT + 1])
						 : (e[EI_NIDENT + 1] << 8 | e[EI_NIDENT])) == ET_REL;
	close(fd);
	return rel;
}

/* ---- lbtf_dwarf_to_btf: the steps ---- */

/* One conversion: what the steps share, released by run_free */
struct run {
	struct driver d;
	struct lbtf_dwarf_opts o;
	struct lbtf_dwarf_stats st;
	bool opts_ok;             /* o is the caller's, checked: st goes to o.stats */
	char *debug_path;         /* the separate debug file read, or NULL */
	struct lbtfi_dw_elf_info ei;
	bool ei_loaded;
	struct listing l;
	struct lbtfi_side lt;     /* list_units(&l), to be joined */
	struct pfuncs_gate gate;
	struct lbtf_builder *out;
};

/* The options, and the file whose DWARF is read: path's own, else the
 * separate debug file its build-id or debuglink names */
static int open_input(struct run *r, const char *path, const struct lbtf_dwarf_opts *opts)
{
	int err;

	if ((err = LBTFI_OPTS_COPY(&r->o, opts, lbtf_dwarf_opts)) ||
	    (err = lbtfi_result_check(r->o.stats, "lbtf_dwarf_stats")))
		return err;
	r->opts_ok = true;
	elf_version(EV_CURRENT);
	if ((err = lbtfi_dw_locate_debug_file(path, &r->debug_path)))
		return err;
	r->d.path = r->debug_path ? r->debug_path : path;
	return 0;
}

/* The unit list is read on a thread of its own while the ELF is loaded
 * (on this thread, first, when none can be made) */
static void listing_start(struct run *r)
{
	r->l.d = &r->d;
	r->l.is_rel = elf_is_rel(r->d.path);
	lbtfi_side_start(&r->lt, list_units, &r->l);
}

/* The ELF's sections and symbols, and what the conversion makes of them:
 * the features in effect (feature policy), pahole's function table, the
 * byte order */
static int load_elf(struct run *r)
{
	struct lbtfi_dw_global *g = &r->d.g;
	GElf_Ehdr eh;
	int err;

	if ((err = lbtfi_dw_elf_info_load(&r->ei, r->d.path)))
		return err;
	r->ei_loaded = true;
	g->ei = &r->ei;
	g->base = r->o.base;
	g->pahole = r->o.style == LBTF_DWARF_STYLE_PAHOLE;
	lbtfi_dw_array_style_init(&g->arrays, r->o.style, r->o.base);
	g->features = effective_features(&r->o, &r->ei);
	/* (pahole's function table: loaded while the workers run) */
	r->d.gate = &r->gate;
	r->gate.ei = &r->ei;
	r->gate.pending = (g->features & LBTFI_DW_PAHOLE_FUNCS) && !r->ei.is_bpf;
	if (r->gate.pending)
		g->subprogram = subprogram_when_loaded;
	g->big_endian = gelf_getehdr(r->ei.elf, &eh) && eh.e_ident[EI_DATA] == ELFDATA2MSB;
	/* (the symbol table is read into ei: its pages, 3 MB of a kernel,
	 * out of the conversion's memory; the names' pages come back as
	 * they are looked up) */
	if (!r->gate.pending)
		lbtfi_dw_drop_file_pages(r->ei.elf);
	return 0;
}

/* The unit list (list_units), and the reuse policy it decides */
static int list_done(struct run *r)
{
	struct driver *d = &r->d;

	lbtfi_side_join(&r->lt);
	if (r->l.err)
		return lbtfi_err(-r->l.err, "%s", r->l.msg);
	/* Type units: a definition reached only through a unit's signature
	 * stub may never be converted when a declaration elsewhere matched
	 * (a known gap of the reuse): convert those inputs exactly */
	if (d->units.types || d->units.nsigs)
		d->g.features &= ~LBTF_DWARF_FEAT_REUSE;
	/* Over a base (a kernel module): its tens of units share fewer types
	 * than the signatures of the reuse cost to compute (a large module
	 * takes more CPU with the reuse than without, for the same bytes) */
	if (d->g.base)
		d->g.features &= ~LBTF_DWARF_FEAT_REUSE;
	if (!d->ul.n)
		return lbtfi_err(ENODATA, "%s: no DWARF compile units", d->path);
	return 0;
}

/* The groups converted by the threads and put together in order, with
 * the checks of the reuse's pairings (convert_all) */
static int convert_groups(struct run *r)
{
	struct driver *d = &r->d;
	int err = 0;

	d->ngroups = (d->ul.n + GROUP_UNITS - 1) / GROUP_UNITS;
	d->res = calloc(d->ngroups, sizeof(*d->res));
	d->early = calloc(d->ngroups ? d->ngroups : 1, sizeof(*d->early));
	if (!d->res || !d->early)
		return lbtfi_err(ENOMEM, "out of memory");
	/* (pairings matter to dedup only) */
	d->keep = (d->g.features & LBTF_DWARF_FEAT_REUSE) && (d->g.features & LBTF_DWARF_FEAT_DEDUP);
	pthread_mutex_init(&d->mu, NULL);
	pthread_cond_init(&d->cv_done, NULL);
	pthread_cond_init(&d->cv_room, NULL);
	pthread_mutex_init(&r->gate.mu, NULL);
	pthread_cond_init(&r->gate.cv, NULL);
	r->out = convert_all(d, &r->o, &r->st, &err);
	/* (no worker started: loaded for what follows, which reads it) */
	if (!err)
		err = load_pfuncs(&r->gate, d->g.features);
	pthread_mutex_destroy(&d->mu);
	pthread_cond_destroy(&d->cv_done);
	pthread_cond_destroy(&d->cv_room);
	pthread_mutex_destroy(&r->gate.mu);
	pthread_cond_destroy(&r->gate.cv);
	for (uint32_t i = 0; i < d->ngroups; i++)
		free_result(&d->res[i]);
	if (d->has_spare) /* (no converter took it) */
		lbtfi_dw_handle_close(&d->spare);
	d->has_spare = false;
	return err;
}

/* Deduplicated output: the first FUNC of each name and no unreferenced
 * DW_OP_convert base types (lbtfi_dw_prune); a BPF object's types cut to what
 * clang's BTF holds */
static int prune(struct run *r)
{
	uint32_t dropped;
	int err;

	if (!(r->d.g.features & LBTF_DWARF_FEAT_DEDUP))
		return 0;
	err = lbtfi_dw_prune(r->out, r->d.g.features, r->d.g.pahole, &dropped);
	if (!err && r->ei.is_bpf && !r->d.g.base)
		err = lbtfi_dw_bpf_typeset(&r->out, r->d.path, r->d.g.base, &dropped);
	return err;
}

/* The file's ELF data and the converter's function table on it */
static void elf_info_free(struct lbtfi_dw_elf_info *ei)
{
	lbtfi_dw_pfuncs_free(ei->pfuncs);
	ei->pfuncs = NULL;
	lbtfi_dw_elf_info_free(ei);
}

static void run_free(struct run *r)
{
	lbtfi_side_join(&r->lt);
	free_listing(&r->d);
	free(r->d.res);
	free(r->d.early);
	if (r->ei_loaded)
		elf_info_free(&r->ei);
	free(r->debug_path);
}

/*
 * At -j1, the thread's heap on huge pages where those pay (lbtfi_heap_huge),
 * for an input of HEAP_HUGE_INPUT or more, advised before the work touches
 * it. A kernel's conversion makes tens of megabytes in small blocks: a
 * vmlinux, 6.18's flags, 4,212 page faults, 1,564 so, 4.8% less CPU time
 * (16 pairs pinned to one CPU), peak RSS 56 -> 60 MB. Not with several
 * threads: each arena's heap on huge pages, a vmlinux at -j2 peaked at
 * 70-75 MB instead of 63-64 (the goal: 0.15x pahole's 465). A module or a
 * BPF object makes too few small blocks to matter.
 */
#define HEAP_HUGE_INPUT ((off_t)64 << 20)

static void heap_for_input(const struct run *r)
{
	struct stat st;

	if (r->d.solo && !stat(r->d.path, &st) && st.st_size >= HEAP_HUGE_INPUT)
		lbtfi_heap_huge();
}

/*
 * The driver: each step above in turn, one error path. The message of a
 * failed step is kept across the cleanup (which may set another), and an
 * error loading the ELF is reported before the listing's (which may fail
 * for the same reason: list_done is not reached).
 */
static struct lbtf_builder *to_btf(const char *path, const struct lbtf_dwarf_opts *opts, bool solo)
{
	struct run r = { .st = { .sz = sizeof(r.st) } };
	char msg[512];
	int err;

	r.d.solo = solo;
	err = open_input(&r, path, opts);
	if (!err) {
		heap_for_input(&r);
		listing_start(&r);
		err = load_elf(&r);
	}
	if (!err)
		err = list_done(&r);
	if (!err)
		err = convert_groups(&r);
	if (!err)
		err = prune(&r);
	if (!err)
		r.st.types_out = lbtf_builder_type_cnt(r.out) -
				 (r.d.g.base ? lbtf_type_cnt(r.d.g.base) : 1);
	snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
	run_free(&r);
	if (r.opts_ok)
		lbtfi_result_copy(r.o.stats, &r.st, sizeof(r.st));
	if (err) {
		lbtf_builder_free(r.out);
		return lbtfi_err_ptr(-err, "%s", msg);
	}
	return r.out;
}

/*
 * -j1: the steps on one thread, one at a time, and the caller waits. The
 * workers and the side work (the unit listing, groups converted again, the
 * release, dedup's) overlap the appender otherwise, on other CPUs: a kernel
 * with 6.18's flags, the appender's data then crossing from core to core,
 * took 8% more CPU time than the same run kept on one CPU. A thread of its
 * own for the stack conversion needs (CONVERT_STACK); the error message
 * carried over to the caller's (messages are per thread).
 */
struct solo_run {
	const char *path;
	const struct lbtf_dwarf_opts *opts;
	struct lbtf_builder *out;
	int err;
	char msg[512];
};

static void *solo_thread(void *arg)
{
	struct solo_run *s = arg;
	bool was = lbtfi_side_solo(true);

	s->out = to_btf(s->path, s->opts, true);
	if (!s->out) {
		s->err = errno;
		snprintf(s->msg, sizeof(s->msg), "%s", lbtf_errmsg());
	}
	lbtfi_side_solo(was);
	return NULL;
}

struct lbtf_builder *lbtf_dwarf_to_btf(const char *path, const struct lbtf_dwarf_opts *opts)
{
	struct solo_run s = { .path = path, .opts = opts };
	struct lbtfi_side side = { 0 };

	if (!path)
		return lbtfi_err_ptr(EINVAL, "no input file");
	/* (jobs read only where the caller's struct has it: its size is
	 * checked with the rest of the options by open_input) */
	if (!opts || opts->sz < offsetof(struct lbtf_dwarf_opts, jobs) + sizeof(opts->jobs) ||
	    opts->jobs != 1)
		return to_btf(path, opts, false);
	lbtfi_side_start_stack(&side, solo_thread, &s, CONVERT_STACK);
	lbtfi_side_join(&side);
	return s.out ? s.out : lbtfi_err_ptr(s.err, "%s", s.msg);
}
