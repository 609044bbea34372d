// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfcheck --target-btf PATH... OBJ...: will each object's CO-RE
 * relocations resolve on each target kernel, as libbpf would resolve them
 * there (libbtf_relo.h)? Per object and target: every relocation (section,
 * record, instruction, the access path as btfdump ext prints it, the
 * compiler's value and the target's), a verdict, and per object a one-line
 * summary over the targets.
 *
 * Verdicts: "loads" (every relocation applied, or poisoned behind an
 * existence check of the same field, type or enumerator that came out 0 on
 * that target: the usual guarded read, dead code the verifier drops);
 * "poisoned" (an unguarded poisoned instruction: the verifier rejects the
 * program if it reaches it); "fails" (libbpf's load fails: an ambiguity, an
 * instruction that does not carry the compiler's value...; a __ksym the
 * target lacks or types otherwise; an object libbpf would not even open).
 * Also per target: the object's externs (libbpf resolves them first) and
 * the BTF features libbpf sanitizes for the target's kernel version (from
 * --target-kernel, the running kernel's release for /sys/kernel/btf, else
 * a MAJOR.MINOR in the file name, as BTFHub names its files).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "btfcheck.h"
#include "cli.h"
#include "libbtf_ext.h"
#include "libbtf_relo.h"
#include "report.h"
#include "io/io.h"

static const char *const prog = "btfcheck";

struct res {
	struct lbtf_core_result r;
	char *path, *why, *spec;
	bool guarded;
};

struct run {
	struct res *v;
	size_t n, cap;
	struct lbtf_core_extern *ext;
	size_t next, extcap;
	size_t ext_bad;   /* externs that make the load fail */
};

/* v (an array of *cap elements of elem bytes) with room for twice as many,
 * or first when empty; *cap updated. NULL when out of memory (v kept). */
static void *grow(void *v, size_t *cap, size_t elem, size_t first)
{
	size_t n = *cap ? *cap * 2 : first;
	void *p = realloc(v, n * elem);

	if (p)
		*cap = n;
	return p;
}

static int collect_extern(const struct lbtf_core_extern *e, void *ctx)
{
	struct run *run = ctx;

	if (run->next == run->extcap) {
		void *v = grow(run->ext, &run->extcap, sizeof(*run->ext), 8);

		if (!v)
			return -ENOMEM;
		run->ext = v;
	}
	run->ext[run->next++] = *e;
	if (e->outcome == LBTF_CORE_EXT_MISSING || e->outcome == LBTF_CORE_EXT_INCOMPATIBLE)
		run->ext_bad++;
	return 0;
}

static int collect(const struct lbtf_core_result *r, void *ctx)
{
	struct run *run = ctx;
	struct res *x;

	if (run->n == run->cap) {
		void *v = grow(run->v, &run->cap, sizeof(*run->v), 64);

		if (!v)
			return -ENOMEM;
		run->v = v;
	}
	x = &run->v[run->n];
	x->r = *r;
	x->path = strdup(r->path);
	x->why = strdup(r->why);
	x->spec = strdup(r->target_spec);
	x->guarded = false;
	if (!x->path || !x->why || !x->spec) {
		free(x->path);
		free(x->why);
		free(x->spec);
		return -ENOMEM;
	}
	run->n++;
	return 0;
}

static void run_free(struct run *run)
{
	for (size_t i = 0; i < run->n; i++) {
		free(run->v[i].path);
		free(run->v[i].why);
		free(run->v[i].spec);
	}
	free(run->v);
	free(run->ext);
	memset(run, 0, sizeof(*run));
}

/* The existence kind that guards a poisoned kind */
static int guard_kind(uint32_t kind)
{
	if (kind <= LBTF_CORE_FIELD_RSHIFT_U64)
		return LBTF_CORE_FIELD_EXISTS;
	if (kind == LBTF_CORE_ENUMVAL_VALUE)
		return LBTF_CORE_ENUMVAL_EXISTS;
	return -1;
}

/* A poisoned relocation is guarded when its program's section also asks
 * whether the same thing exists and the answer on this target is 0 */
static void mark_guarded(struct run *run)
{
	for (size_t i = 0; i < run->n; i++) {
		struct res *p = &run->v[i];
		int gk = guard_kind(p->r.kind);

		if (p->r.outcome != LBTF_CORE_POISONED || gk < 0 || p->r.target_mem_sz)
			continue;
		for (size_t j = 0; j < run->n && !p->guarded; j++) {
			const struct res *g = &run->v[j];

			p->guarded = g->r.kind == (uint32_t)gk && g->r.sec == p->r.sec &&
				     g->r.local_id == p->r.local_id && !strcmp(g->r.access, p->r.access) &&
				     g->r.outcome == LBTF_CORE_RELOCATED && g->r.target_val == 0;
		}
	}
}

enum verdict { V_LOADS, V_POISONED, V_FAILS };

static const char *const verdict_name[] = { "loads", "poisoned", "fails" };

struct tally {
	size_t cnt[4];
	size_t guarded;
	enum verdict v;
	const struct res *first_bad; /* the first failure, else unguarded poison */
};

static void tally(const struct run *run, struct tally *t)
{
	const struct res *poison = NULL;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < run->n; i++) {
		const struct res *x = &run->v[i];

		t->cnt[x->r.outcome]++;
		if (x->guarded)
			t->guarded++;
		if (x->r.outcome == LBTF_CORE_FAILED && !t->first_bad)
			t->first_bad = x;
		if (x->r.outcome == LBTF_CORE_POISONED && !x->guarded && !poison)
			poison = x;
	}
	t->v = t->first_bad || run->ext_bad ? V_FAILS : poison ? V_POISONED : V_LOADS;
	if (!t->first_bad)
		t->first_bad = poison;
}

/* Why an extern makes the load fail, or what becomes of it */
static const char *extern_why(const struct lbtf_core_extern *e)
{
	switch (e->outcome) {
	case LBTF_CORE_EXT_FOUND: return "found";
	case LBTF_CORE_EXT_MISSING_WEAK: return "not in the target's BTF; __weak: 0";
	case LBTF_CORE_EXT_MISSING: return "not in the target's BTF: the load fails";
	case LBTF_CORE_EXT_INCOMPATIBLE:
		return "the target's has other types: the load fails";
	default:
		return e->kind == LBTF_CORE_KCONFIG ? "read from the kernel's config at load"
						    : "an address from kallsyms at load";
	}
}

/* The target kernel's version (0: unknown) and where it came from */
static uint32_t target_version(const struct cfg *c, const char *path, const char **from)
{
	const char *base = strrchr(path, '/'), *end;
	uint32_t v;

	if (c->target_version) {
		*from = "--target-kernel";
		return c->target_version;
	}
	if (!strncmp(path, "/sys/kernel/btf/", 16)) {
		struct utsname u;

		*from = "the running kernel";
		return uname(&u) || btfcheck_version_prefix(u.release, &v, &end) ? 0 : v;
	}
	*from = "the file name";
	base = base ? base + 1 : path;
	for (const char *p = base; *p; p++)
		if (isdigit((unsigned char)*p) && (p == base || !isalnum((unsigned char)p[-1])) &&
		    !btfcheck_version_prefix(p, &v, &end) && !isdigit((unsigned char)*end))
			return v;
	*from = NULL;
	return 0;
}

/* The LBTF_KFEAT_* of the object's BTF that libbpf rewrites for kernel v */
struct sanit {
	uint32_t version;
	const char *from;
	bool known;        /* the object's BTF was read */
	uint32_t kfeats;   /* the features it uses that libbpf can rewrite */
	uint32_t rewritten;
	uint32_t oldest;   /* oldest kernel that loads it after libbpf's help */
	char open_err[256]; /* libbpf's open would fail: why */
};

/* The BTF libbpf loads for obj (its fixups applied: --min-kernel's reading
 * of an object): the features it uses and the oldest kernel taking it */
static void sanitization_of(const char *obj, struct sanit *s)
{
	struct lbtf_min_kernel mk = { .sz = sizeof(mk) };
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	LBTF_OPTS(lbtf_object_opts, oo, .missing_features = 0);
	void *elf;
	size_t size;
	bool mapped;
	int err;

	memset(s, 0, sizeof(*s));
	if (lbtfi_file_read(obj, &elf, &size, &mapped))
		return;
	err = lbtf_object_btf(obj, elf, size, &oo, &ob);
	lbtfi_file_unload(elf, size, mapped);
	if (err) {
		snprintf(s->open_err, sizeof(s->open_err), "%s", lbtf_errmsg());
		return;
	}
	err = lbtf_min_kernel(ob.data, ob.size, NULL, &mk);
	lbtf_object_btf_free(&ob);
	if (err)
		return;
	s->known = true;
	s->oldest = mk.version_libbpf;
	s->kfeats = mk.kfeats;
}

/* What of it the kernel of tpath's version needs rewritten */
static void sanitization_for(const struct cfg *c, const char *tpath, struct sanit *s)
{
	s->version = target_version(c, tpath, &s->from);
	s->rewritten = s->version ? s->kfeats & ~lbtf_kfeat_of_version(s->version) : 0;
}

static void feat_list(char *buf, size_t n, uint32_t bits)
{
	*buf = 0;
	for (unsigned int i = 0; i < 32; i++)
		if ((bits & (1u << i)) && lbtf_kfeat_name(1u << i))
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", *buf ? ", " : "",
				 lbtf_kfeat_name(1u << i));
}

static void print_text_extras(const struct run *run, const struct sanit *s)
{
	char feats[256];

	for (size_t i = 0; i < run->next; i++) {
		const struct lbtf_core_extern *e = &run->ext[i];

		printf("\textern %s%s %s: %s", lbtf_core_extern_kind_name(e->kind),
		       e->weak ? " (weak)" : "", e->name, extern_why(e));
		if (e->target_id)
			printf(" [target [%u]]", e->target_id);
		putchar('\n');
	}
	if (*s->open_err)
		printf("\tsanitization: libbpf's open would fail: %s\n", s->open_err);
	if (!s->known)
		return;
	if (!s->version) {
		printf("\tsanitization: kernel version unknown (--target-kernel, or a MAJOR.MINOR "
		       "in the file name)\n");
		return;
	}
	feat_list(feats, sizeof(feats), s->rewritten);
	printf("\tsanitization for %u.%u (%s): %s%s", s->version >> 16, (s->version >> 8) & 0xff,
	       s->from, *feats ? "libbpf rewrites " : "nothing to rewrite", feats);
	if (s->oldest == LBTF_KERNEL_NONE || s->version < s->oldest)
		printf("; even so the kernel rejects the BTF (libbpf loads the programs without it)");
	putchar('\n');
}

static void print_json_extras(const struct run *run, const struct sanit *s)
{
	fputs(",\"externs\":[", stdout);
	for (size_t i = 0; i < run->next; i++) {
		const struct lbtf_core_extern *e = &run->ext[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
		btfcheck_json_str(stdout, e->name);
		printf(",\"kind\":\"%s\",\"weak\":%s,\"outcome\":\"%s\",\"target_type_id\":%u",
		       lbtf_core_extern_kind_name(e->kind), e->weak ? "true" : "false",
		       lbtf_core_extern_outcome_name(e->outcome), e->target_id);
		if (e->err)
			printf(",\"errno_name\":\"%s\"", lbtf_errno_name(-e->err));
		putchar('}');
	}
	putchar(']');
	if (!s->known)
		return;
	if (s->version)
		printf(",\"kernel\":\"%u.%u\",\"kernel_from\":\"%s\"", s->version >> 16,
		       (s->version >> 8) & 0xff, s->from);
	else
		fputs(",\"kernel\":null", stdout);
	fputs(",\"sanitized\":[", stdout);
	for (unsigned int i = 0, first = 1; s->version && i < 32; i++)
		if ((s->rewritten & (1u << i)) && lbtf_kfeat_name(1u << i)) {
			printf("%s\"%s\"", first ? "" : ",", lbtf_kfeat_name(1u << i));
			first = 0;
		}
	putchar(']');
	if (s->version)
		printf(",\"btf_loads\":%s", s->oldest != LBTF_KERNEL_NONE && s->version >= s->oldest ?
					      "true" : "false");
}

static const char *kind_name(uint32_t k)
{
	const char *s = lbtf_core_relo_kind_name(k);

	return s ? s : "unknown";
}

static void print_text_rec(const struct res *x)
{
	const struct lbtf_core_result *r = &x->r;

	printf("\t%s #%u insn %u %s %s: ", r->sec_name, r->relo_idx, r->insn_idx, kind_name(r->kind),
	       *x->path ? x->path : r->access);
	switch (r->outcome) {
	case LBTF_CORE_RELOCATED:
		printf("%llu -> %llu", (unsigned long long)r->local_val, (unsigned long long)r->target_val);
		if (r->target_mem_sz)
			printf(" (load size %u -> %u)", r->local_mem_sz, r->target_mem_sz);
		if (r->target_id)
			printf(" [target [%u] %s]", r->target_id, x->spec);
		break;
	case LBTF_CORE_POISONED:
		printf("poisoned%s: %s", x->guarded ? " (guarded by an existence check)" : "", x->why);
		break;
	case LBTF_CORE_FAILED:
		printf("FAILS: %s (%s)", x->why, lbtf_errno_name(-r->err));
		break;
	default:
		printf("skipped: %s", x->why);
		break;
	}
	putchar('\n');
}

static void print_json(const char *obj, const char *target, const struct run *run,
		       const struct tally *t, const struct sanit *s, bool quiet, bool rules_11)
{
	fputs("{\"file\":", stdout);
	btfcheck_json_str(stdout, obj);
	fputs(",\"target\":", stdout);
	btfcheck_json_str(stdout, target);
	printf(",\"libbpf\":\"%s\"", rules_11 ? "1.1" : "1.8");
	printf(",\"verdict\":\"%s\",\"relocated\":%zu,\"poisoned\":%zu,\"guarded\":%zu,"
	       "\"failed\":%zu,\"skipped\":%zu", verdict_name[t->v], t->cnt[LBTF_CORE_RELOCATED],
	       t->cnt[LBTF_CORE_POISONED], t->guarded, t->cnt[LBTF_CORE_FAILED],
	       t->cnt[LBTF_CORE_SKIPPED]);
	if (*s->open_err) {
		fputs(",\"libbpf_open_error\":", stdout);
		btfcheck_json_str(stdout, s->open_err);
	}
	if (t->first_bad) {
		fputs(",\"reason\":", stdout);
		btfcheck_json_str(stdout, t->first_bad->why);
	}
	print_json_extras(run, s);
	if (!quiet) {
		fputs(",\"relocations\":[", stdout);
		for (size_t i = 0; i < run->n; i++) {
			const struct res *x = &run->v[i];
			const struct lbtf_core_result *r = &x->r;

			fputs(i ? ",{\"section\":" : "{\"section\":", stdout);
			btfcheck_json_str(stdout, r->sec_name);
			printf(",\"relo\":%u,\"insn\":%u,\"kind\":\"%s\",\"type_id\":%u,\"access\":",
			       r->relo_idx, r->insn_idx, kind_name(r->kind), r->local_id);
			btfcheck_json_str(stdout, r->access);
			fputs(",\"path\":", stdout);
			btfcheck_json_str(stdout, x->path);
			printf(",\"outcome\":\"%s\",\"local\":%llu", lbtf_core_outcome_name(r->outcome),
			       (unsigned long long)r->local_val);
			if (r->outcome == LBTF_CORE_RELOCATED)
				printf(",\"target\":%llu", (unsigned long long)r->target_val);
			if (r->target_mem_sz)
				printf(",\"load_size\":[%u,%u]", r->local_mem_sz, r->target_mem_sz);
			printf(",\"candidates\":%u,\"matches\":%u", r->cands, r->matches);
			if (r->target_id) {
				printf(",\"target_type_id\":%u,\"target_spec\":", r->target_id);
				btfcheck_json_str(stdout, x->spec);
			}
			if (r->outcome == LBTF_CORE_POISONED)
				printf(",\"guarded\":%s", x->guarded ? "true" : "false");
			if (r->outcome == LBTF_CORE_FAILED)
				printf(",\"errno\":%d,\"errno_name\":\"%s\"", -r->err, lbtf_errno_name(-r->err));
			if (*x->why) {
				fputs(",\"why\":", stdout);
				btfcheck_json_str(stdout, x->why);
			}
			putchar('}');
		}
		putchar(']');
	}
	fputs("}\n", stdout);
}

/* The summary of one object over the targets, built as the targets go */
struct summary {
	size_t targets, loads;
	char text[2048];
	size_t len;
};

static void summary_add(struct summary *s, const char *target, const struct tally *t,
			const struct run *run, const char *open_err)
{
	const struct res *b = t->first_bad;

	s->targets++;
	if (t->v == V_LOADS) {
		s->loads++;
		return;
	}
	if (*open_err && s->len < sizeof(s->text)) {
		s->len += (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len,
					   "%s %s: libbpf's open would fail: %s",
					   s->len ? ";" : "; fails on", target, open_err);
		return;
	}
	for (size_t i = 0; !b && i < run->next; i++) {
		const struct lbtf_core_extern *e = &run->ext[i];

		if ((e->outcome == LBTF_CORE_EXT_MISSING || e->outcome == LBTF_CORE_EXT_INCOMPATIBLE) &&
		    s->len < sizeof(s->text)) {
			s->len += (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len,
						   "%s %s: extern %s %s: %s", s->len ? ";" : "; fails on",
						   target, lbtf_core_extern_kind_name(e->kind), e->name,
						   extern_why(e));
			return;
		}
	}
	if (s->len < sizeof(s->text))
		s->len += (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len, "%s %s: %s: %s",
					   s->len ? ";" : "; fails on", target,
					   *b->path ? b->path : b->r.access, b->why);
}

/* One object against every target; the exit status of this object */
static int check_object(const struct cfg *c, const char *obj, struct lbtf_core_target **tv,
			size_t nt)
{
	struct lbtf_core_object *o = lbtf_core_object_open(obj);
	struct summary sum = { 0 };
	struct sanit obj_san;
	int rc = 0;

	if (!o) {
		rc = cli_exit_for_errno(errno);
		cli_err(prog, "%s", lbtf_errmsg());
		return rc;
	}
	if (c->rules_11)
		lbtf_core_object_set_rules(o, LBTF_CORE_RULES_LIBBPF_1_1);
	sanitization_of(obj, &obj_san);
	for (size_t i = 0; i < nt; i++) {
		const char *tname = lbtf_core_target_name(tv[i]);
		struct run run = { 0 };
		struct tally t;
		struct sanit san = obj_san;
		int err = lbtf_core_externs(o, tv[i], collect_extern, &run);

		err = err ?: lbtf_core_relocate(o, tv[i], collect, &run);

		if (err) {
			run_free(&run);
			cli_err(prog, "%s: %s: %s", obj, tname,
				err == -ENOMEM ? "out of memory" : lbtf_errmsg());
			rc = err == -ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_INPUT;
			break;
		}
		mark_guarded(&run);
		tally(&run, &t);
		sanitization_for(c, tname, &san);
		if (*san.open_err) /* libbpf stops before externs and relocations */
			t.v = V_FAILS;
		if (c->json) {
			print_json(obj, tname, &run, &t, &san, c->quiet, c->rules_11);
		} else {
			printf("%s: on %s: %s (%zu relocated, %zu poisoned, %zu of them guarded, "
			       "%zu failed, %zu skipped; %zu of %zu externs fail)\n", obj, tname,
			       verdict_name[t.v], t.cnt[LBTF_CORE_RELOCATED], t.cnt[LBTF_CORE_POISONED],
			       t.guarded, t.cnt[LBTF_CORE_FAILED], t.cnt[LBTF_CORE_SKIPPED], run.ext_bad,
			       run.next);
			print_text_extras(&run, &san);
			for (size_t j = 0; !c->quiet && j < run.n; j++)
				print_text_rec(&run.v[j]);
		}
		summary_add(&sum, tname, &t, &run, san.open_err);
		if (t.v != V_LOADS && !rc)
			rc = CLI_EXIT_NO;
		run_free(&run);
	}
	if (sum.targets) {
		char line[2300];

		snprintf(line, sizeof(line), "loads on %zu of %zu target%s%s", sum.loads, sum.targets,
			 sum.targets == 1 ? "" : "s", sum.text);
		if (c->json) {
			fputs("{\"file\":", stdout);
			btfcheck_json_str(stdout, obj);
			printf(",\"loads_on\":%zu,\"targets\":%zu,\"summary\":", sum.loads, sum.targets);
			btfcheck_json_str(stdout, line);
			fputs("}\n", stdout);
		} else {
			printf("%s: %s\n", obj, line);
		}
	}
	lbtf_core_object_free(o);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* PATH as one or more target files: a directory gives its regular files,
 * in name order */
static int expand(const char *path, char ***files, size_t *n, size_t *cap)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	size_t first = *n;

	if (stat(path, &st))
		return cli_fail(cli_exit_for_errno(errno), prog, "%s: %s", path, lbtfi_strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		d = NULL;
		goto one;
	}
	if (!(d = opendir(path)))
		return cli_fail(cli_exit_for_errno(errno), prog, "%s: %s", path, lbtfi_strerror(errno));
	while ((e = readdir(d))) {
		char *full;

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&full, "%s/%s", path, e->d_name) < 0)
			goto oom;
		if (stat(full, &st) || !S_ISREG(st.st_mode)) {
			free(full);
			continue;
		}
		if (*n == *cap) {
			char **v = realloc(*files, (*cap = *cap ? *cap * 2 : 16) * sizeof(*v));

			if (!v) {
				free(full);
				goto oom;
			}
			*files = v;
		}
		(*files)[(*n)++] = full;
	}
	closedir(d);
	qsort(*files + first, *n - first, sizeof(**files), cmp_str);
	if (*n == first)
		return cli_fail(CLI_EXIT_INPUT, prog, "%s: no target BTF files in the directory", path);
	return 0;
one:
	if (*n == *cap) {
		char **v = realloc(*files, (*cap = *cap ? *cap * 2 : 16) * sizeof(*v));

		if (!v)
			goto oom;
		*files = v;
	}
	if (!((*files)[*n] = strdup(path)))
		goto oom;
	(*n)++;
	return 0;
oom:
	if (d)
		closedir(d);
	return cli_fail(CLI_EXIT_SYSTEM, prog, "out of memory");
}

static int open_targets(char *const *paths, int n, struct lbtf_core_target ***out, size_t *cnt)
{
	char **files = NULL;
	size_t nf = 0, cap = 0;
	int rc = 0;

	*out = NULL;
	*cnt = 0;
	for (int i = 0; i < n && !rc; i++)
		rc = expand(paths[i], &files, &nf, &cap);
	if (!rc && !(*out = calloc(nf ? nf : 1, sizeof(**out))))
		rc = cli_fail(CLI_EXIT_SYSTEM, prog, "out of memory");
	for (size_t i = 0; !rc && i < nf; i++) {
		(*out)[i] = lbtf_core_target_open(files[i]);
		if (!(*out)[i])
			rc = cli_fail_lib(prog, files[i]);
		else
			(*cnt)++;
	}
	for (size_t i = 0; i < nf; i++)
		free(files[i]);
	free(files);
	return rc;
}

int btfcheck_targets(const struct cfg *c, char *const *targets, int ntargets, char *const *objs,
		     int nobjs)
{
	static const int rank[] = { [0] = 0, [1] = 1, [4] = 2, [5] = 3 };
	struct lbtf_core_target **tv;
	size_t nt;
	int worst = open_targets(targets, ntargets, &tv, &nt);
	bool targets_ok = !worst;

	for (int i = 0; targets_ok && i < nobjs; i++) {
		int rc = check_object(c, objs[i], tv, nt);

		if (rank[rc] > rank[worst])
			worst = rc;
	}
	for (size_t i = 0; i < nt; i++)
		lbtf_core_target_free(tv[i]);
	free(tv);
	return worst;
}
