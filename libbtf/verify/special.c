// SPDX-License-Identifier: BSD-2-Clause
/*
 * The special-field pass (the kernel's "struct metas"): silent, it runs on
 * valid BTF and may still reject it. Structs with a member of a special
 * type (bpf_spin_lock, bpf_list_head, ..., or a kptr pointer) are parsed
 * for special fields: duplicates, overlaps, missing locks, malformed
 * "contains:" tags, bad kptr targets and ownership cycles are errors.
 * Only kptr targets depend on the running kernel (its vmlinux BTF and its
 * registered destructors); such verdicts are flagged env_dependent.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "special.h"

/* Structs named here are the ones whose members make a struct special */
static const char *const meta_struct_names[] = {
	"bpf_spin_lock", "bpf_list_head", "bpf_list_node", "bpf_rb_root", "bpf_rb_node",
	"bpf_refcount",
};

/* Kernel structs with a destructor kfunc in 6.18 (needed by referenced
 * kptrs), and the kfunc: its presence in vmlinux BTF stands for the
 * registration the kernel does at boot (some depend on its config). */
static const struct { const char *type, *dtor; } dtors[] = {
	{ "task_struct", "bpf_task_release_dtor" },
	{ "cgroup", "bpf_cgroup_release_dtor" },
	{ "bpf_cpumask", "bpf_cpumask_release_dtor" },
	{ "bpf_crypto_ctx", "bpf_crypto_ctx_release_dtor" },
	{ "sk_buff", "bpf_kfree_skb_dtor" },
};

struct record {
	uint32_t struct_id, mask;
	int cnt;
	struct finfo f[FIELDS_MAX];
};

struct sctx {
	struct venv *env;
	struct record *tab;
	int tab_cnt, tab_cap;
	struct lbtf *vmlinux;
	bool vmlinux_tried;
};

static bool modules_have_btf(void)
{
	DIR *d = opendir("/sys/kernel/btf");
	struct dirent *e;
	bool any = false;

	while (d && (e = readdir(d)))
		any |= e->d_name[0] != '.' && strcmp(e->d_name, "vmlinux");
	if (d)
		closedir(d);
	return any;
}

static struct lbtf *kernel_btf(struct sctx *c)
{
	if (!c->vmlinux_tried && !(c->env->flags & LBTF_VERIFY_NO_KERNEL_BTF))
		c->vmlinux = lbtf_open_vmlinux();
	c->vmlinux_tried = true;
	return c->vmlinux;
}

/* A kptr's target: a local struct, or a kernel struct (which, for a
 * referenced kptr, needs a registered destructor). */
static int parse_kptr(struct sctx *c, struct finfo *f, bool *in_kernel)
{
	const struct lbtf_type *t = lbtfi_vtype(c->env, f->kptr_id);
	struct lbtf *vm = kernel_btf(c);
	const char *name = sf_name(c->env, t);

	*in_kernel = false;
	if (!vm) {
		c->env->env_dependent = true;
		return 0;
	}
	if (lbtf_find_by_name_kind(vm, name, vk(t)) < 0) {
		/* the kernel would also search its modules' BTF */
		if (modules_have_btf())
			c->env->env_dependent = true;
		return 0;
	}
	*in_kernel = true;
	if (f->type == SF_KPTR_REF) {
		c->env->env_dependent = true; /* destructors are registered at run time */
		for (size_t i = 0; i < sizeof(dtors) / sizeof(dtors[0]); i++)
			if (!strcmp(name, dtors[i].type) &&
			    lbtf_find_by_name_kind(vm, dtors[i].dtor, LBTF_KIND_FUNC) > 0)
				return 0;
		return -ENOENT;
	}
	return 0;
}

static int parse_graph_root(const struct venv *env, const struct finfo *f, const char *node_type)
{
	const struct lbtf_type *t = lbtfi_vtype(env, f->value_id), *n = NULL;
	const struct lbtf_member *m = lbtf_members(t);

	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		uint32_t off;

		if (strcmp(f->node_name, lbtfi_vname(env, m[i].name_off)))
			continue;
		if (n)
			return -EINVAL; /* two members of that name */
		n = lbtfi_vtype(env, m[i].type);
		if (!sf_is_struct(n) || strcmp(node_type, sf_name(env, n)))
			return -EINVAL;
		/* the kernel reads the offset with the node type's kind_flag */
		off = lbtf_kflag(n) ? m[i].offset & 0xffffff : m[i].offset;
		if (off % 8 || (off / 8) % 8)
			return -EINVAL;
	}
	return n ? 0 : -ENOENT;
}

/*
 * The cause of a refusal, which the kernel's log never gives (this pass
 * logs nothing, so its last line names whatever type came last): "struct
 * 'NAME' [ID] member 'M': WHY", or without the member. The first cause is
 * kept. Returns err.
 */
__attribute__((format(printf, 5, 6)))
static int cause(struct sctx *c, uint32_t id, int member, int err, const char *fmt, ...)
{
	struct venv *env = c->env;
	const struct lbtf_type *t = env->types[id]; /* (base BTF only: index is id) */
	char *p = env->cause;
	size_t n = sizeof(env->cause), len;
	va_list ap;

	if (*p)
		return err;
	len = snprintf(p, n, "struct '%s' [%u]", sf_name(env, t), id);
	if (member >= 0 && len < n)
		len += snprintf(p + len, n - len, " member '%s'",
				lbtfi_vname(env, lbtf_members(t)[member].name_off));
	if (len + 2 < n) {
		memcpy(p + len, ": ", 3);
		va_start(ap, fmt);
		vsnprintf(p + len + 2, n - len - 2, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* A member's type as the field search reads it: past its arrays */
static const struct lbtf_type *member_elem(const struct venv *env, const struct lbtf_type *t,
					   int member)
{
	const struct lbtf_type *vt = lbtfi_vtype(env, lbtf_members(t)[member].type);

	for (int i = 0; vt && i < VMAX_RESOLVE_DEPTH && vk(vt) == LBTF_KIND_ARRAY; i++)
		vt = lbtfi_vtype(env, lbtf_array(vt)->type);
	return vt;
}

/* The member of t whose bytes hold offset off, or -1 */
static int member_at(const struct lbtf_type *t, uint32_t off)
{
	int found = -1;

	for (unsigned int i = 0; i < lbtf_vlen(t); i++)
		if (lbtf_member_bit_offset(t, i) / 8 <= off)
			found = (int)i;
	return found;
}

/* Why the field search failed at member bad of t */
static int find_cause(struct sctx *c, uint32_t id, int bad, int err)
{
	const struct lbtf_type *t = c->env->types[id], *vt;
	const char *name;

	if (bad < 0)
		return cause(c, id, -1, err, "its special fields are refused");
	if (lbtf_member_bit_offset(t, bad) % 8)
		return cause(c, id, bad, err, "not at a whole byte");
	vt = member_elem(c->env, t, bad);
	name = vt && sf_is_struct(vt) ? sf_name(c->env, vt) : NULL;
	for (int j = 0; err == -E2BIG && name && j < bad; j++) {
		const struct lbtf_type *prev = member_elem(c->env, t, j);

		if (prev && sf_is_struct(prev) && !strcmp(sf_name(c->env, prev), name))
			return cause(c, id, bad, err, "a second struct %s after member '%s' "
				     "(the kernel takes one per struct)", name,
				     lbtfi_vname(c->env, lbtf_members(t)[j].name_off));
	}
	if (err == -E2BIG)
		return cause(c, id, bad, err, "more special fields than the kernel's %d, "
			     "or nested deeper than it looks", FIELDS_MAX);
	return cause(c, id, bad, err, "a special field the kernel refuses");
}

/* btf_parse_fields() for one struct: 0 with a record, 1 none found */
static int parse_fields(struct sctx *c, const struct lbtf_type *t, struct record *rec)
{
	struct finfo info[FIELDS_MAX];
	uint32_t next_off = 0;
	bool spin = false, res_spin = false, refcount = false;
	int bad = -1;
	int cnt = lbtfi_vsf_find_struct_fields(c->env, t, SF_META_MASK, info, FIELDS_MAX, 0, &bad);

	if (cnt < 0)
		return find_cause(c, rec->struct_id, bad, cnt);
	if (!cnt)
		return 1;
	for (int i = 0; i < cnt; i++) {
		uint32_t size = lbtfi_vsf_field_size(info[i].type);
		bool in_kernel;
		int err = 0;

		if ((uint64_t)info[i].off + size > t->size)
			return cause(c, rec->struct_id, member_at(t, info[i].off), -EFAULT,
				     "a special field past the struct's end");
		if (info[i].off < next_off)
			return cause(c, rec->struct_id, member_at(t, info[i].off), -EEXIST,
				     "a special field overlapping the one before");
		next_off = info[i].off + size;
		rec->mask |= info[i].type;
		rec->f[i] = info[i];
		spin |= info[i].type == SF_SPIN_LOCK;
		res_spin |= info[i].type == SF_RES_SPIN_LOCK;
		refcount |= info[i].type == SF_REFCOUNT;
		if (info[i].type & (SF_KPTR | SF_UPTR)) {
			err = parse_kptr(c, &info[i], &in_kernel);
			rec->f[i].node_name = in_kernel ? "kernel" : NULL;
		} else if (info[i].type == SF_LIST_HEAD) {
			err = parse_graph_root(c->env, &info[i], "bpf_list_node");
		} else if (info[i].type == SF_RB_ROOT) {
			err = parse_graph_root(c->env, &info[i], "bpf_rb_node");
		}
		if (err)
			return cause(c, rec->struct_id, member_at(t, info[i].off), err, "%s",
				     info[i].type & (SF_KPTR | SF_UPTR) ? "a kptr whose target the kernel refuses"
				     : "a graph root whose \"contains:\" tag the kernel refuses");
		rec->cnt++;
	}
	if (spin && res_spin)
		return cause(c, rec->struct_id, -1, -EINVAL, "both a bpf_spin_lock and a bpf_res_spin_lock");
	if ((rec->mask & SF_GRAPH_ROOT) && !spin && !res_spin)
		return cause(c, rec->struct_id, -1, -EINVAL, "a bpf_list_head or bpf_rb_root without a lock");
	if (!refcount && (rec->mask & SF_LIST_NODE) && (rec->mask & SF_RB_NODE))
		return cause(c, rec->struct_id, -1, -EINVAL, "both a bpf_list_node and a bpf_rb_node without "
			     "a bpf_refcount");
	return 0;
}

static const struct record *find_record(const struct sctx *c, uint32_t id)
{
	for (int i = 0; i < c->tab_cnt; i++)
		if (c->tab[i].struct_id == id)
			return &c->tab[i];
	return NULL;
}

/* Every graph root's value has a record (-EFAULT); uptrs point to small
 * local structs. */
static int check_and_fixup(const struct sctx *c, const struct record *rec)
{
	if (!(rec->mask & (SF_GRAPH_ROOT | SF_UPTR)))
		return 0;
	for (int i = 0; i < rec->cnt; i++) {
		const struct finfo *f = &rec->f[i];

		if (f->type == SF_UPTR) {
			const struct lbtf_type *t = lbtfi_vtype(c->env, f->kptr_id);
			if (f->node_name)
				return -EINVAL; /* a kernel struct */
			if (!t->size)
				return -EINVAL;
			if (t->size > 4096)
				return -E2BIG;
			continue;
		}
		if (!(f->type & SF_GRAPH_ROOT))
			continue;
		if (!find_record(c, f->value_id))
			return -EFAULT;
	}
	return 0;
}

/*
 * Ownership may not form a cycle: a graph root owns the struct its
 * "contains:" tag names, and no struct may own itself through a chain of
 * them (-ELOOP). Looked at once every root's value was found: an EFAULT of
 * check_and_fixup comes first, whichever struct comes first. Whether a
 * struct has a node of its own does not matter, nor does the length of a
 * chain: the running kernel (6.18.44) accepts A -> B -> C with B both a root
 * and a node, which the kernels before refused, and refuses a cycle whose
 * nodes it ignores (a bpf_rb_node of another size). A depth-first walk
 * over the records, on a stack of its own: -ELOOP with *at the index of the
 * struct met again while still on the walk's path, 0, or -ENOMEM.
 */
static int ownership_cycle(const struct sctx *c, int *at)
{
	size_t n = c->tab_cnt > 0 ? (size_t)c->tab_cnt : 1;
	struct frame { int rec, field; } *stack = malloc(n * sizeof(*stack));
	uint8_t *state = calloc(n, 1); /* 1 on the path, 2 done */
	int found = -1;

	if (!stack || !state) {
		free(stack);
		free(state);
		return -ENOMEM;
	}
	for (int start = 0; start < c->tab_cnt && found < 0; start++) {
		int depth = 0;

		if (state[start])
			continue;
		stack[depth++] = (struct frame){ start, 0 };
		state[start] = 1;
		while (depth && found < 0) {
			struct frame *fr = &stack[depth - 1];
			const struct record *rec = &c->tab[fr->rec];
			const struct record *value;
			int next;

			if (fr->field == rec->cnt) {
				state[fr->rec] = 2;
				depth--;
				continue;
			}
			if (!(rec->f[fr->field++].type & SF_GRAPH_ROOT))
				continue;
			value = find_record(c, rec->f[fr->field - 1].value_id);
			next = (int)(value - c->tab);
			if (state[next] == 1) {
				found = next;
			} else if (!state[next]) {
				stack[depth++] = (struct frame){ next, 0 };
				state[next] = 1;
			}
		}
	}
	free(stack);
	free(state);
	*at = found;
	return found < 0 ? 0 : -ELOOP;
}

static bool id_in(const uint32_t *ids, int n, uint32_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Pass 1: the first struct of each special name, and whether any kptr can
 * exist (lbtfi_vsf_find_kptr finds one only behind a kflag-0 TYPE_TAG with
 * a kptr tag's name) */
void lbtfi_vsf_note_type(struct venv *env, const struct lbtf_type *t, uint32_t i)
{
	const size_t nnames = sizeof(meta_struct_names) / sizeof(meta_struct_names[0]);
	const char *s = lbtfi_vstr(env, t->name_off);

	_Static_assert(sizeof(meta_struct_names) / sizeof(meta_struct_names[0]) == VSF_NAMES,
		       "one first[] slot per special struct name");
	if (!s)
		return;
	if (vk(t) == LBTF_KIND_TYPE_TAG) {
		if (!lbtf_kflag(t) && (lbtfi_vsf_tag_type(s) & SF_KPTR))
			env->sp.kptr_tags = true;
		return;
	}
	/* "bpf_" byte by byte: a shorter name ends at its NUL */
	if (s[0] != 'b' || s[1] != 'p' || s[2] != 'f' || s[3] != '_')
		return;
	for (size_t k = 0; k < nnames; k++) {
		if (!env->sp.first[k] && !strcmp(s, meta_struct_names[k])) {
			env->sp.first[k] = i;
			env->sp.any |= 1ull << (i % 64);
		}
	}
}

/* Pass 2: a struct with a member whose type may be one of first[] */
void lbtfi_vsf_note_member(struct venv *env, uint32_t struct_id, uint32_t member_type)
{
	struct vspecial *sp = &env->sp;

	if (!id_in(sp->first, VSF_NAMES, member_type) ||
	    (sp->ncand && sp->cand[sp->ncand - 1] == struct_id))
		return;
	if (LBTFI_GROW(sp->cand, sp->cap, sp->ncand + 1)) {
		sp->oom = true;
		return;
	}
	sp->cand[sp->ncand++] = struct_id;
}

/* The special structs (pass 1's first of each name), then the kptr
 * pointers when there may be any */
static int special_ids(const struct venv *env, uint32_t **ids, int *nids)
{
	size_t cap = 0;
	const uint8_t *kinds = env->kinds;
	uint32_t n = env->nr_types;
	bool some = env->sp.kptr_tags;

	*ids = NULL;
	for (size_t k = 0; k < VSF_NAMES; k++)
		some |= env->sp.first[k] != 0;
	if (!some)
		return 0; /* none (most BTF): an empty list, no block for it */
	if (LBTFI_GROW_FROM(*ids, cap, VSF_NAMES + 1, 16))
		return -ENOMEM;
	for (size_t k = 0; k < VSF_NAMES; k++)
		if (env->sp.first[k])
			(*ids)[(*nids)++] = env->sp.first[k];
	for (uint32_t i = 1; i < n && env->sp.kptr_tags; i++) {
		struct finfo tmp;

		/* the dense kinds first: only these kinds can be one */
		if (!vk_in(kinds[i], KB(PTR) | KB(VOLATILE)) ||
		    lbtfi_vsf_find_kptr(env, env->types[i], 0, &tmp, SF_KPTR) != FOUND)
			continue;
		if (LBTFI_GROW(*ids, cap, (size_t)*nids + 1))
			return -ENOMEM;
		(*ids)[(*nids)++] = i;
	}
	return 0;
}

static bool has_special_member(const struct venv *env, const struct lbtf_type *t, uint64_t any,
			       const uint32_t *ids, int nids)
{
	const struct lbtf_member *m = lbtf_members(t);

	for (unsigned int j = 0; j < lbtf_vlen(t); j++)
		if ((any >> (m[j].type % 64) & 1) && id_in(ids, nids, m[j].type))
			return true;
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The structs with a special member, in id order: with a kptr possible,
 * every struct is looked at; else only those pass 2 noted (each struct's
 * members pass through its resolve step once), which are the same.
 */
static int run(struct sctx *c, const uint32_t *ids, int nids)
{
	struct venv *env = c->env;
	const uint8_t *kinds = env->kinds;
	bool all = env->sp.kptr_tags;
	size_t n = all ? env->nr_types : env->sp.ncand;
	uint64_t any = 0; /* bit id % 64 of each of ids: most members need no id_in() */
	int err = 0;

	for (int k = 0; k < nids; k++)
		any |= 1ull << (ids[k] % 64);
	if (!all && n)
		qsort(env->sp.cand, n, sizeof(env->sp.cand[0]), cmp_u32);
	for (size_t x = all; x < n && nids; x++) {
		uint32_t i = all ? (uint32_t)x : env->sp.cand[x];
		const struct lbtf_type *t;

		if (kinds[i] != LBTF_KIND_STRUCT) /* sf_is_struct() */
			continue;
		if (!all && x && env->sp.cand[x - 1] == i) /* noted twice (resumed) */
			continue;
		t = env->types[i];
		if (all && !has_special_member(env, t, any, ids, nids))
			continue;
		if (LBTFI_GROW(c->tab, c->tab_cap, (size_t)c->tab_cnt + 1))
			return -ENOMEM;
		memset(&c->tab[c->tab_cnt], 0, sizeof(c->tab[0]));
		c->tab[c->tab_cnt].struct_id = i;
		err = parse_fields(c, t, &c->tab[c->tab_cnt]);
		if (err)
			return err > 0 ? -EFAULT : err; /* an empty record is an error too */
		c->tab_cnt++;
	}
	for (int i = 0; i < c->tab_cnt && !err; i++)
		if ((err = check_and_fixup(c, &c->tab[i])))
			cause(c, c->tab[i].struct_id, -1, err, "its %s refused",
			      c->tab[i].mask & SF_UPTR ? "uptr or graph root fields are"
			      : "graph roots' values are");
	if (!err && c->tab_cnt) {
		int at;

		err = ownership_cycle(c, &at);
		if (err == -ELOOP)
			cause(c, c->tab[at].struct_id, -1, err,
			      "it owns itself through graph roots' \"contains:\" tags");
	}
	return err;
}

int lbtfi_vcheck_special(struct venv *env)
{
	struct sctx c = { .env = env };
	uint32_t *ids = NULL;
	int nids = 0, err;

	if (env->sp.oom)
		return -ENOMEM;
	err = special_ids(env, &ids, &nids);
	if (!err)
		err = run(&c, ids, nids);
	free(ids);
	free(c.tab);
	lbtf_free(c.vmlinux);
	return err;
}
