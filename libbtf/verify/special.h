/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the special-field pass's discovery (verify_special_find.c) and
 * its record checks (special.c). */
#ifndef LIBBTF_VERIFY_SPECIAL_H
#define LIBBTF_VERIFY_SPECIAL_H

#include "internal.h"

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

struct finfo {
	uint32_t type, off;
	uint32_t kptr_id;       /* kptr target (after modifiers) */
	uint32_t value_id;      /* graph root: the "contains:" struct */
	const char *node_name;
};

static inline bool sf_is_struct(const struct lbtf_type *t) { return t && vk(t) == LBTF_KIND_STRUCT; }
static inline const char *sf_name(const struct venv *env, const struct lbtf_type *t)
{
	return lbtfi_vname(env, t->name_off);
}

/* First id of that kind and name (btf_find_by_name_kind), or -ENOENT */
int lbtfi_vsf_find_by_name_kind(const struct venv *env, const char *name, unsigned int kind);
/* The field a pointer's type tag makes (SF_KPTR_* or SF_UPTR), 0 none */
uint32_t lbtfi_vsf_tag_type(const char *tag);
/* A kptr: PTR (behind one VOLATILE) to a kflag-0 TYPE_TAG to a struct */
int lbtfi_vsf_find_kptr(const struct venv *env, const struct lbtf_type *t, uint32_t off,
			struct finfo *info, uint32_t mask);
/* The special fields of a struct (btf_find_struct_field): count or -errno,
 * with the index of the member at fault in *bad (when bad is not NULL) */
int lbtfi_vsf_find_struct_fields(const struct venv *env, const struct lbtf_type *t, uint32_t mask,
				 struct finfo *info, int info_cnt, uint32_t level, int *bad);
uint32_t lbtfi_vsf_field_size(uint32_t type);

#endif
