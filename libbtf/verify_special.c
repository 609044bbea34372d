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
#include <stdlib.h>
#include <string.h>
#include "verify_internal.h"

enum sfield {
	SF_SPIN_LOCK = 1 << 0, SF_TIMER = 1 << 1, SF_KPTR_UNREF = 1 << 2, SF_KPTR_REF = 1 << 3,
	SF_KPTR_PERCPU = 1 << 4, SF_LIST_HEAD = 1 << 5, SF_LIST_NODE = 1 << 6,
	SF_RB_ROOT = 1 << 7, SF_RB_NODE = 1 << 8, SF_REFCOUNT = 1 << 9, SF_WQ = 1 << 10,
	SF_UPTR = 1 << 11, SF_RES_SPIN_LOCK = 1 << 12, SF_TASK_WORK = 1 << 13,
};
#define SF_KPTR (SF_KPTR_UNREF | SF_KPTR_REF | SF_KPTR_PERCPU)
#define SF_GRAPH_ROOT (SF_LIST_HEAD | SF_RB_ROOT)
#define SF_GRAPH_NODE (SF_LIST_NODE | SF_RB_NODE)
#define SF_META_MASK (SF_SPIN_LOCK | SF_RES_SPIN_LOCK | SF_LIST_HEAD | SF_LIST_NODE | SF_RB_ROOT | \
		      SF_RB_NODE | SF_REFCOUNT | SF_KPTR)
#define FIELDS_MAX 11
#define FOUND 1
#define IGNORE 0

/* Special struct types by name, in the kernel's matching order, with the
 * size and alignment of the kernel's own definition. */
static const struct sf_desc {
	uint32_t type;
	const char *name;
	bool unique;
	uint8_t size, align;
} sf_types[] = {
	{ SF_SPIN_LOCK, "bpf_spin_lock", true, 4, 4 },
	{ SF_RES_SPIN_LOCK, "bpf_res_spin_lock", true, 4, 4 },
	{ SF_TIMER, "bpf_timer", true, 16, 8 },
	{ SF_WQ, "bpf_wq", true, 16, 8 },
	{ SF_TASK_WORK, "bpf_task_work", true, 8, 8 },
	{ SF_LIST_HEAD, "bpf_list_head", false, 16, 8 },
	{ SF_LIST_NODE, "bpf_list_node", false, 24, 8 },
	{ SF_RB_ROOT, "bpf_rb_root", false, 16, 8 },
	{ SF_RB_NODE, "bpf_rb_node", false, 32, 8 },
	{ SF_REFCOUNT, "bpf_refcount", false, 4, 4 },
};

/* Structs named here are the ones whose members make a struct special */
static const char *const meta_struct_names[] = {
	"bpf_spin_lock", "bpf_list_head", "bpf_list_node", "bpf_rb_root", "bpf_rb_node",
	"bpf_refcount",
};

/* vmlinux structs with a destructor kfunc in 6.18 (referenced kptrs) */
static const char *const dtor_structs[] = { "task_struct", "cgroup", "bpf_cpumask",
					    "bpf_crypto_ctx" };

struct finfo {
	uint32_t type, off;
	uint32_t kptr_id;       /* kptr target (after modifiers) */
	uint32_t value_id;      /* graph root: the "contains:" struct */
	const char *node_name;
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

static uint32_t field_size(uint32_t type)
{
	for (size_t i = 0; i < sizeof(sf_types) / sizeof(sf_types[0]); i++)
		if (sf_types[i].type == type)
			return sf_types[i].size;
	return 8; /* kptrs */
}

static bool is_struct(const struct lbtf_type *t) { return t && vk(t) == LBTF_KIND_STRUCT; }

static const char *name_of(const struct venv *env, const struct lbtf_type *t)
{
	return lbtfi_vname(env, t->name_off);
}

/* First id of that kind and name (btf_find_by_name_kind) */
static int find_by_name_kind(const struct venv *env, const char *name, unsigned int kind)
{
	for (uint32_t id = 1; id < env->nr_types; id++) {
		const struct lbtf_type *t = env->types[id];
		const char *s;

		if (vk(t) != kind)
			continue;
		s = lbtfi_vstr(env, t->name_off);
		if (s && !strcmp(s, name))
			return id;
	}
	return -ENOENT;
}

static const struct lbtf_type *skip_modifiers(const struct venv *env, uint32_t id, uint32_t *res)
{
	const struct lbtf_type *t = lbtfi_vtype(env, id);

	while (t && v_is_modifier(t)) {
		id = t->type;
		t = lbtfi_vtype(env, id);
	}
	*res = id;
	return t;
}

static int find_kptr(const struct venv *env, const struct lbtf_type *t, uint32_t off,
		     struct finfo *info, uint32_t mask)
{
	const char *tag;
	uint32_t type, res_id;

	if (vk(t) == LBTF_KIND_VOLATILE)
		t = lbtfi_vtype(env, t->type);
	if (!t || vk(t) != LBTF_KIND_PTR)
		return IGNORE;
	t = lbtfi_vtype(env, t->type);
	if (!t || vk(t) != LBTF_KIND_TYPE_TAG || lbtf_kflag(t))
		return IGNORE;
	if (lbtfi_vtype(env, t->type) && vk(lbtfi_vtype(env, t->type)) == LBTF_KIND_TYPE_TAG)
		return -EINVAL; /* extra tags */
	tag = name_of(env, t);
	if (!strcmp(tag, "kptr_untrusted"))
		type = SF_KPTR_UNREF;
	else if (!strcmp(tag, "kptr"))
		type = SF_KPTR_REF;
	else if (!strcmp(tag, "percpu_kptr"))
		type = SF_KPTR_PERCPU;
	else if (!strcmp(tag, "uptr"))
		type = SF_UPTR;
	else
		return -EINVAL;
	if (!(type & mask))
		return IGNORE;
	t = skip_modifiers(env, t->type, &res_id);
	if (!is_struct(t))
		return -EINVAL;
	info->type = type;
	info->off = off;
	info->kptr_id = res_id;
	return FOUND;
}

/* The special type a member's type names; 0 none; -E2BIG a duplicate */
static int field_type_of(const struct venv *env, const struct lbtf_type *vt, uint32_t mask,
			 uint32_t *seen, uint32_t *align, uint32_t *size)
{
	const char *name = name_of(env, vt);

	for (size_t i = 0; i < sizeof(sf_types) / sizeof(sf_types[0]); i++) {
		const struct sf_desc *d = &sf_types[i];

		if (!(mask & d->type) || strcmp(name, d->name))
			continue;
		if (d->unique) {
			if (*seen & d->type)
				return -E2BIG;
			*seen |= d->type;
		}
		*size = d->size;
		*align = d->align;
		return d->type;
	}
	if ((mask & (SF_KPTR | SF_UPTR)) && !is_struct(vt)) {
		*size = *align = 8;
		return SF_KPTR_REF;
	}
	return 0;
}

static int repeat_fields(struct finfo *info, int info_cnt, uint32_t field_cnt, uint32_t repeat,
			 uint32_t elem_size)
{
	uint32_t cur = field_cnt;

	for (uint32_t i = 0; i < field_cnt; i++)
		if (!(info[i].type & (SF_KPTR | SF_UPTR | SF_GRAPH_ROOT)))
			return -EINVAL;
	if ((uint64_t)field_cnt * (repeat + 1) > (uint64_t)info_cnt)
		return -E2BIG;
	for (uint32_t i = 0; i < repeat; i++) {
		memcpy(&info[cur], &info[0], field_cnt * sizeof(info[0]));
		for (uint32_t j = 0; j < field_cnt; j++)
			info[cur++].off += (i + 1) * elem_size;
	}
	return 0;
}

/* The single "contains:" decl tag of member comp_idx of struct pt */
static const char *contains_tag(const struct venv *env, const struct lbtf_type *pt, int comp_idx,
				int *err)
{
	static const char key[] = "contains:";
	const char *value = NULL;

	for (uint32_t id = 1; id < env->nr_types; id++) {
		const struct lbtf_type *t = env->types[id];

		if (vk(t) != LBTF_KIND_DECL_TAG || lbtfi_vtype(env, t->type) != pt ||
		    lbtf_decl_tag(t)->component_idx != comp_idx ||
		    strncmp(name_of(env, t), key, sizeof(key) - 1))
			continue;
		if (value) {
			*err = -EEXIST;
			return NULL;
		}
		value = name_of(env, t) + sizeof(key) - 1;
	}
	*err = value ? 0 : -ENOENT;
	return value;
}

static int find_graph_root(const struct venv *env, const struct lbtf_type *pt,
			   const struct lbtf_type *t, int comp_idx, uint32_t off, uint32_t size,
			   struct finfo *info, uint32_t head_type)
{
	const char *value, *node;
	char *type_name;
	int err, id;

	if (!is_struct(t) || t->size != size)
		return IGNORE;
	value = contains_tag(env, pt, comp_idx, &err);
	if (!value)
		return -EINVAL;
	node = strchr(value, ':');
	if (!node)
		return -EINVAL;
	type_name = strndup(value, node - value);
	if (!type_name)
		return -ENOMEM;
	id = find_by_name_kind(env, type_name, LBTF_KIND_STRUCT);
	free(type_name);
	if (id < 0)
		return id;
	node++;
	if (!*node)
		return -EINVAL;
	info->type = head_type;
	info->off = off;
	info->value_id = id;
	info->node_name = node;
	return FOUND;
}

static int find_struct_fields(const struct venv *env, const struct lbtf_type *t, uint32_t mask,
			      struct finfo *info, int info_cnt, uint32_t level);

static int find_nested(const struct venv *env, const struct lbtf_type *t, uint32_t off,
		       uint32_t nelems, uint32_t mask, struct finfo *info, int info_cnt,
		       uint32_t level)
{
	int ret, err;

	if (++level >= VMAX_RESOLVE_DEPTH)
		return -E2BIG;
	ret = find_struct_fields(env, t, mask, info, info_cnt, level);
	if (ret <= 0)
		return ret;
	for (int i = 0; i < ret; i++)
		info[i].off += off;
	if (nelems > 1) {
		err = repeat_fields(info, info_cnt, ret, nelems - 1, t->size);
		ret = err ? err : ret * (int)nelems;
	}
	return ret;
}

/* One member: arrays flattened, then a special type, a kptr, or a nested
 * struct. Returns the number of fields found or -errno. */
static int find_field_one(const struct venv *env, const struct lbtf_type *pt,
			  const struct lbtf_type *vt, int idx, uint32_t off, uint32_t mask,
			  uint32_t *seen, struct finfo *info, int info_cnt, uint32_t level)
{
	uint32_t nelems = 1, align = 0, size = 0;
	struct finfo tmp, *dst = info_cnt ? &info[0] : &tmp;
	int type, ret, i;

	for (i = 0; i < VMAX_RESOLVE_DEPTH && vk(vt) == LBTF_KIND_ARRAY; i++) {
		nelems *= lbtf_array(vt)->nelems;
		vt = lbtfi_vtype(env, lbtf_array(vt)->type);
	}
	if (i == VMAX_RESOLVE_DEPTH)
		return -E2BIG;
	if (!nelems)
		return 0;
	type = field_type_of(env, vt, mask, seen, &align, &size);
	if (!type && is_struct(vt))
		return find_nested(env, vt, off, nelems, mask, info, info_cnt, level);
	if (type <= 0)
		return type;
	if (off % align)
		return 0;
	if (type & (SF_KPTR | SF_UPTR))
		ret = find_kptr(env, vt, off, dst, mask);
	else if (type & SF_GRAPH_ROOT)
		ret = find_graph_root(env, pt, vt, idx, off, size, dst, type);
	else if (is_struct(vt) && vt->size == size)
		ret = (dst->type = type, dst->off = off, FOUND);
	else
		ret = IGNORE;
	if (ret <= 0)
		return ret;
	if (!info_cnt)
		return -E2BIG;
	if (nelems > 1 && (ret = repeat_fields(info, info_cnt, 1, nelems - 1, size)) < 0)
		return ret;
	return nelems;
}

static int find_struct_fields(const struct venv *env, const struct lbtf_type *t, uint32_t mask,
			      struct finfo *info, int info_cnt, uint32_t level)
{
	const struct lbtf_member *m = lbtf_members(t);
	uint32_t seen = 0;
	int idx = 0, ret;

	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		uint32_t off = lbtf_member_bit_offset(t, i);

		if (off % 8)
			return -EINVAL;
		ret = find_field_one(env, t, lbtfi_vtype(env, m[i].type), i, off / 8, mask, &seen,
				     &info[idx], info_cnt - idx, level);
		if (ret < 0)
			return ret;
		idx += ret;
	}
	return idx;
}

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
	const char *name = name_of(c->env, t);

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
		for (size_t i = 0; i < sizeof(dtor_structs) / sizeof(dtor_structs[0]); i++)
			if (!strcmp(name, dtor_structs[i]))
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
		if (!is_struct(n) || strcmp(node_type, name_of(env, n)))
			return -EINVAL;
		/* the kernel reads the offset with the node type's kind_flag */
		off = lbtf_kflag(n) ? m[i].offset & 0xffffff : m[i].offset;
		if (off % 8 || (off / 8) % 8)
			return -EINVAL;
	}
	return n ? 0 : -ENOENT;
}

/* btf_parse_fields() for one struct: 0 with a record, 1 none found */
static int parse_fields(struct sctx *c, const struct lbtf_type *t, struct record *rec)
{
	struct finfo info[FIELDS_MAX];
	uint32_t next_off = 0;
	bool spin = false, res_spin = false, refcount = false;
	int cnt = find_struct_fields(c->env, t, SF_META_MASK, info, FIELDS_MAX, 0);

	if (cnt < 0)
		return cnt;
	if (!cnt)
		return 1;
	for (int i = 0; i < cnt; i++) {
		uint32_t size = field_size(info[i].type);
		bool in_kernel;
		int err = 0;

		if ((uint64_t)info[i].off + size > t->size)
			return -EFAULT;
		if (info[i].off < next_off)
			return -EEXIST;
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
			return err;
		rec->cnt++;
	}
	if (spin && res_spin)
		return -EINVAL;
	if ((rec->mask & SF_GRAPH_ROOT) && !spin && !res_spin)
		return -EINVAL;
	if (!refcount && (rec->mask & SF_LIST_NODE) && (rec->mask & SF_RB_NODE))
		return -EINVAL;
	return 0;
}

static const struct record *find_record(const struct sctx *c, uint32_t id)
{
	for (int i = 0; i < c->tab_cnt; i++)
		if (c->tab[i].struct_id == id)
			return &c->tab[i];
	return NULL;
}

/* Ownership may not form cycles; uptrs point to small local structs. */
static int check_and_fixup(const struct sctx *c, const struct record *rec)
{
	if (!(rec->mask & (SF_GRAPH_ROOT | SF_UPTR)))
		return 0;
	for (int i = 0; i < rec->cnt; i++) {
		const struct finfo *f = &rec->f[i];
		const struct record *value;

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
		if (!(value = find_record(c, f->value_id)))
			return -EFAULT;
		if ((rec->mask & SF_GRAPH_NODE) && (value->mask & SF_GRAPH_ROOT))
			return -ELOOP;
	}
	return 0;
}

static bool id_in(const uint32_t *ids, int n, uint32_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Ids of the special structs (first of each name) and of kptr pointers */
static int special_ids(const struct venv *env, uint32_t **ids, int *nids)
{
	const size_t nnames = sizeof(meta_struct_names) / sizeof(meta_struct_names[0]);
	uint32_t first[sizeof(meta_struct_names) / sizeof(meta_struct_names[0])] = { 0 };
	int cap = 16;

	*ids = malloc(sizeof(**ids) * cap);
	if (!*ids)
		return -ENOMEM;
	for (uint32_t i = 1; i < env->nr_types; i++) {
		const struct lbtf_type *t = env->types[i];
		struct finfo tmp;
		const char *s;

		if (vk(t) == LBTF_KIND_STRUCT && (s = lbtfi_vstr(env, t->name_off)) &&
		    !strncmp(s, "bpf_", 4)) {
			for (size_t k = 0; k < nnames; k++)
				if (!first[k] && !strcmp(s, meta_struct_names[k]))
					first[k] = i;
			continue;
		}
		if (find_kptr(env, t, 0, &tmp, SF_KPTR) != FOUND)
			continue;
		if (*nids + (int)nnames >= cap) {
			uint32_t *n = realloc(*ids, sizeof(**ids) * (cap *= 2));
			if (!n)
				return -ENOMEM;
			*ids = n;
		}
		(*ids)[(*nids)++] = i;
	}
	for (size_t k = 0; k < nnames; k++)
		if (first[k])
			(*ids)[(*nids)++] = first[k];
	return 0;
}

static int run(struct sctx *c, const uint32_t *ids, int nids)
{
	struct venv *env = c->env;
	int err = 0;

	for (uint32_t i = 1; i < env->nr_types && nids; i++) {
		const struct lbtf_type *t = env->types[i];
		const struct lbtf_member *m;
		unsigned int j;

		if (!is_struct(t))
			continue;
		m = lbtf_members(t);
		for (j = 0; j < lbtf_vlen(t) && !id_in(ids, nids, m[j].type); j++)
			;
		if (j == lbtf_vlen(t))
			continue;
		if (c->tab_cnt == c->tab_cap) {
			struct record *n = realloc(c->tab, sizeof(*n) * (c->tab_cap = c->tab_cap * 2 + 4));
			if (!n)
				return -ENOMEM;
			c->tab = n;
		}
		memset(&c->tab[c->tab_cnt], 0, sizeof(c->tab[0]));
		c->tab[c->tab_cnt].struct_id = i;
		err = parse_fields(c, t, &c->tab[c->tab_cnt]);
		if (err)
			return err > 0 ? -EFAULT : err; /* an empty record is an error too */
		c->tab_cnt++;
	}
	for (int i = 0; i < c->tab_cnt && !err; i++)
		err = check_and_fixup(c, &c->tab[i]);
	return err;
}

int lbtfi_vcheck_special(struct venv *env)
{
	struct sctx c = { .env = env };
	uint32_t *ids = NULL;
	int nids = 0, err;

	err = special_ids(env, &ids, &nids);
	if (!err)
		err = run(&c, ids, nids);
	free(ids);
	free(c.tab);
	lbtf_free(c.vmlinux);
	return err;
}
