// SPDX-License-Identifier: BSD-2-Clause
/*
 * BTF-defined maps as libbpf 1.1's bpf_object__open() reads them
 * (bpf_object__init_user_btf_maps(), after the DATASEC fixups): the
 * DATASEC ".maps" must exist when the object has a .maps section, each of
 * its entries must be a global VAR of a struct inside the section, and
 * each member of that struct a field libbpf knows (parse_btf_map_def(),
 * strict as bpf_object__open() is by default: an unknown field such as
 * `__uint(max_entires, 2)` fails the open). Messages are libbpf's.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/keep.h"
#include "util/tls.h"

/* the block of the maps' offsets, kept for the thread's next object */
static LBTFI_TLS struct lbtfi_keep kept_map_offs;

#define MAP_TYPE_PROG_ARRAY 3
#define MAP_TYPE_ARRAY_OF_MAPS 12
#define MAP_TYPE_HASH_OF_MAPS 13

struct map_def {
	uint32_t map_type, key_size, value_size;
	bool inner;              /* parts & MAP_DEF_INNER_MAP */
};

/* libbpf's btf_kind_str() */
static const char *kind_str(const struct lbtf_type *t)
{
	static const char *const names[] = {
		"void", "int", "ptr", "array", "struct", "union", "enum", "fwd", "typedef",
		"volatile", "const", "restrict", "func", "func_proto", "var", "datasec",
		"float", "decl_tag", "type_tag", "enum64",
	};

	return t && lbtf_kind(t) < sizeof(names) / sizeof(names[0]) ? names[lbtf_kind(t)] : "unknown";
}

/* skip_mods_and_typedefs() (NULL for a missing type, where libbpf crashes) */
static const struct lbtf_type *skip_mods(const struct octx *c, uint32_t id)
{
	const struct lbtf_type *t = lbtfi_obj_btf_type(&c->b, id);

	for (unsigned int depth = 0; t && (lbtf_is_mod(t) || lbtf_kind(t) == LBTF_KIND_TYPEDEF); depth++) {
		if (depth > c->b.nr) /* a loop (libbpf would spin) */
			return NULL;
		t = lbtfi_obj_btf_type(&c->b, t->type);
	}
	return t;
}

/* get_map_field_int(): the value of __uint(name, N) is N, an array's length */
static int field_int(const struct octx *c, const char *map, const char *name,
		     const struct lbtf_member *m, uint32_t *res)
{
	const struct lbtf_type *t = skip_mods(c, m->type), *arr;

	if (!t || lbtf_kind(t) != LBTF_KIND_PTR)
		return lbtfi_err(EINVAL, "%s: map '%s': attr '%s': expected PTR, got %s.", c->path, map,
				 name, kind_str(t));
	arr = lbtfi_obj_btf_type(&c->b, t->type);
	if (!arr)
		return lbtfi_err(EINVAL, "%s: map '%s': attr '%s': type [%u] not found.", c->path, map,
				 name, t->type);
	if (lbtf_kind(arr) != LBTF_KIND_ARRAY)
		return lbtfi_err(EINVAL, "%s: map '%s': attr '%s': expected ARRAY, got %s.", c->path,
				 map, name, kind_str(arr));
	*res = lbtf_array(arr)->nelems;
	return 0;
}

/* __uint(key_size, N) and __type(key, T) (value alike) must agree */
static int set_size(const struct octx *c, const char *map, const char *what, uint32_t *have,
		    int64_t sz)
{
	if (*have && *have != sz)
		return lbtfi_err(EINVAL, "%s: map '%s': conflicting %s size %u != %lld.", c->path, map,
				 what, *have, (long long)sz);
	*have = (uint32_t)sz;
	return 0;
}

/* __type(key, T): a PTR to T, whose size libbpf resolves */
static int typed_size(const struct octx *c, const char *map, const char *what,
		      const struct lbtf_member *m, uint32_t *have)
{
	const struct lbtf_type *t = lbtfi_obj_btf_type(&c->b, m->type);
	int64_t sz = 0;
	int err;

	if (!t)
		return lbtfi_err(EINVAL, "%s: map '%s': %s type [%d] not found.", c->path, map, what,
				 (int)m->type);
	if (lbtf_kind(t) != LBTF_KIND_PTR)
		return lbtfi_err(EINVAL, "%s: map '%s': %s spec is not PTR: %s.", c->path, map, what,
				 kind_str(t));
	if ((err = lbtfi_obj_btf_resolve_size(&c->b, t->type, &sz)) < 0)
		return lbtfi_err(-err, "%s: map '%s': can't determine %s size for type [%u]: %d.",
				 c->path, map, what, t->type, err);
	return set_size(c, map, what, have, sz);
}

static int parse_def(const struct octx *c, const char *map, const struct lbtf_type *def,
		     bool is_inner, struct map_def *md, struct map_def *inner);

/* __array(values, ...): a map-in-map's inner map or a prog array's programs */
static int parse_values(const struct octx *c, const char *map, const struct lbtf_member *m,
			bool last, bool is_inner, struct map_def *md, struct map_def *inner)
{
	bool in_map = md->map_type == MAP_TYPE_ARRAY_OF_MAPS || md->map_type == MAP_TYPE_HASH_OF_MAPS;
	bool progs = md->map_type == MAP_TYPE_PROG_ARRAY;
	const char *desc = in_map ? "map-in-map inner" : "prog-array value";
	const struct lbtf_type *t;
	char inner_name[128];

	if (is_inner)
		return lbtfi_err(ENOTSUP, "%s: map '%s': multi-level inner maps not supported.",
				 c->path, map);
	if (!last)
		return lbtfi_err(EINVAL, "%s: map '%s': 'values' member should be last.", c->path, map);
	if (!in_map && !progs)
		return lbtfi_err(ENOTSUP, "%s: map '%s': should be map-in-map or prog-array.", c->path,
				 map);
	if (md->value_size && md->value_size != 4)
		return lbtfi_err(EINVAL, "%s: map '%s': conflicting value size %u != 4.", c->path, map,
				 md->value_size);
	md->value_size = 4;
	t = lbtfi_obj_btf_type(&c->b, m->type);
	if (!t)
		return lbtfi_err(EINVAL, "%s: map '%s': %s type [%d] not found.", c->path, map, desc,
				 (int)m->type);
	if (lbtf_kind(t) != LBTF_KIND_ARRAY || lbtf_array(t)->nelems)
		return lbtfi_err(EINVAL, "%s: map '%s': %s spec is not a zero-sized array.", c->path,
				 map, desc);
	t = skip_mods(c, lbtf_array(t)->type);
	if (!t || lbtf_kind(t) != LBTF_KIND_PTR)
		return lbtfi_err(EINVAL, "%s: map '%s': %s def is of unexpected kind %s.", c->path, map,
				 desc, kind_str(t));
	t = skip_mods(c, t->type);
	if (progs) {
		if (!t || lbtf_kind(t) != LBTF_KIND_FUNC_PROTO)
			return lbtfi_err(EINVAL, "%s: map '%s': prog-array value def is of unexpected kind %s.",
					 c->path, map, kind_str(t));
		return 0;
	}
	if (!t || lbtf_kind(t) != LBTF_KIND_STRUCT)
		return lbtfi_err(EINVAL, "%s: map '%s': map-in-map inner def is of unexpected kind %s.",
				 c->path, map, kind_str(t));
	snprintf(inner_name, sizeof(inner_name), "%s.inner", map);
	md->inner = true;
	return parse_def(c, inner_name, t, true, inner, NULL);
}

/* parse_btf_map_def(), strict */
static int parse_def(const struct octx *c, const char *map, const struct lbtf_type *def,
		     bool is_inner, struct map_def *md, struct map_def *inner)
{
	const struct lbtf_member *m = lbtf_members(def);
	unsigned int vlen = lbtf_vlen(def);
	uint32_t v;
	int err = 0;

	for (unsigned int i = 0; i < vlen && !err; i++, m++) {
		const char *name = lbtfi_obj_btf_str(&c->b, m->name_off);

		if (!name)
			return lbtfi_err(EINVAL, "%s: map '%s': invalid field #%u.", c->path, map, i);
		if (!strcmp(name, "type")) {
			err = field_int(c, map, name, m, &md->map_type);
		} else if (!strcmp(name, "max_entries") || !strcmp(name, "map_flags") ||
			   !strcmp(name, "numa_node") || !strcmp(name, "map_extra")) {
			err = field_int(c, map, name, m, &v);
		} else if (!strcmp(name, "key_size") || !strcmp(name, "value_size")) {
			err = field_int(c, map, name, m, &v) ?:
			      set_size(c, map, name[0] == 'k' ? "key" : "value",
				       name[0] == 'k' ? &md->key_size : &md->value_size, v);
		} else if (!strcmp(name, "key")) {
			err = typed_size(c, map, "key", m, &md->key_size);
		} else if (!strcmp(name, "value")) {
			err = typed_size(c, map, "value", m, &md->value_size);
		} else if (!strcmp(name, "values")) {
			err = parse_values(c, map, m, i == vlen - 1, is_inner, md, inner);
		} else if (!strcmp(name, "pinning")) {
			if (is_inner)
				return lbtfi_err(EINVAL, "%s: map '%s': inner def can't be pinned.",
						 c->path, map);
			err = field_int(c, map, name, m, &v);
			if (!err && v > 1) /* LIBBPF_PIN_NONE, LIBBPF_PIN_BY_NAME */
				return lbtfi_err(EINVAL, "%s: map '%s': invalid pinning value %u.",
						 c->path, map, v);
			/* the default pin path /sys/fs/bpf/NAME must fit PATH_MAX */
			if (!err && v && strlen("/sys/fs/bpf/") + strlen(map) >= PATH_MAX)
				return lbtfi_err(ENAMETOOLONG, "%s: map '%s': couldn't build pin path.",
						 c->path, map);
		} else {
			return lbtfi_err(ENOTSUP, "%s: map '%s': unknown field '%s'.", c->path, map, name);
		}
	}
	if (err)
		return err;
	if (!md->map_type)
		return lbtfi_err(EINVAL, "%s: map '%s': map type isn't specified.", c->path, map);
	return 0;
}

static const char *linkage_str(uint32_t l)
{
	return l == LBTF_LINKAGE_STATIC ? "static" : l == LBTF_LINKAGE_GLOBAL ? "global"
	       : l == 2 ? "extern" : "unknown";
}

/* bpf_object__init_user_btf_map() for entry i of the DATASEC sec */
static int init_map(const struct octx *c, const struct lbtf_type *sec, unsigned int i,
		    uint64_t data_size)
{
	const struct lbtf_var_secinfo *vi = (const struct lbtf_var_secinfo *)(sec + 1) + i;
	const struct lbtf_type *var = lbtfi_obj_btf_type(&c->b, vi->type), *def;
	struct map_def md = { 0 }, inner = { 0 };
	const char *name = var ? lbtfi_obj_btf_str(&c->b, var->name_off) : NULL;

	if (!name || !*name)
		return lbtfi_err(EINVAL, "%s: map #%u: empty name.", c->path, i);
	if ((uint64_t)vi->offset + vi->size > data_size)
		return lbtfi_err(EINVAL, "%s: map '%s' BTF data is corrupted.", c->path, name);
	if (lbtf_kind(var) != LBTF_KIND_VAR)
		return lbtfi_err(EINVAL, "%s: map '%s': unexpected var kind %s.", c->path, name,
				 kind_str(var));
	if (((const struct lbtf_var *)(var + 1))->linkage != LBTF_LINKAGE_GLOBAL)
		return lbtfi_err(EOPNOTSUPP, "%s: map '%s': unsupported map linkage %s.", c->path,
				 name, linkage_str(((const struct lbtf_var *)(var + 1))->linkage));
	def = skip_mods(c, var->type);
	if (!def || lbtf_kind(def) != LBTF_KIND_STRUCT) /* (libbpf names the VAR's kind) */
		return lbtfi_err(EINVAL, "%s: map '%s': unexpected def kind %s.", c->path, name,
				 kind_str(var));
	if (def->size > vi->size)
		return lbtfi_err(EINVAL, "%s: map '%s': invalid def size.", c->path, name);
	return parse_def(c, name, def, false, &md, &inner);
}

int lbtfi_obj_init_btf_maps(struct octx *c)
{
	struct lbtfi_shdr sh, maps = { 0 };

	size_t maps_idx = 0;

	for (size_t i = 1; i < c->e.elf.shnum; i++) { /* the last .maps counts */
		const char *name;

		if (lbtfi_obj_elf_sec(&c->e, i, &sh) && !lbtfi_obj_ignored_section(&sh) &&
		    (name = lbtfi_obj_elf_sec_name(&c->e, i)) && name[0] == '.' && name[1] == 'm' &&
		    !strcmp(name, ".maps")) {
			maps = sh;
			maps_idx = i;
		}
	}
	if (!maps_idx)
		return 0;
	for (size_t k = 0; k < c->b.nr_dsecs; k++) {
		const struct lbtf_type *t = lbtfi_obj_btf_type(&c->b, c->b.dsecs[k]);
		const char *name = lbtfi_obj_btf_str(&c->b, t->name_off);

		if (!name || strcmp(name, ".maps"))
			continue;
		const struct lbtf_var_secinfo *vi = (const struct lbtf_var_secinfo *)(t + 1);

		/* where the maps are: their relocations must find them (progs.c) */
		c->maps_shndx = maps_idx;
		c->map_offs = lbtfi_keep_take(&kept_map_offs, (lbtf_vlen(t) ?: 1) * sizeof(*c->map_offs),
					      &c->map_offs_cap);
		if (!c->map_offs)
			return lbtfi_err(ENOMEM, "out of memory");
		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			int err = init_map(c, t, i, maps.size);

			if (err)
				return err;
			c->map_offs[c->nr_maps++] = vi[i].offset;
		}
		return 0;
	}
	return lbtfi_err(ENOENT, "%s: DATASEC '.maps' not found.", c->path);
}

void lbtfi_obj_maps_free(struct octx *c)
{
	lbtfi_keep_give(&kept_map_offs, c->map_offs, c->map_offs_cap);
	c->map_offs = NULL;
}
