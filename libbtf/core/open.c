// SPDX-License-Identifier: BSD-2-Clause
/* Opening BTF from files (raw, ELF .BTF, sysfs); by kernel id: open_id.c. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "elf/internal.h"
#include "io/io.h"

#define SYSFS_VMLINUX LBTFI_SYSFS_BTF_DIR "vmlinux"

/* Prefix the thread's error message with the file name. */
static void *fail_with_path(const char *path)
{
	int e = errno;
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
	if (strncmp(msg, path, strlen(path)) != 0)
		lbtfi_err(e, "%s: %s", path, msg);
	errno = e;
	return NULL;
}

/* BTF from a raw file's contents, which it takes over: a mapping is kept
 * by the result (or unmapped on failure), a read buffer is freed. */
static struct lbtf *from_raw(const char *path, void *buf, size_t len, bool mapped,
			     const struct lbtf *base)
{
	struct lbtf *btf;

	if (mapped) {
		btf = lbtfi_new_mapped(buf, len, base);
		if (!btf)
			munmap(buf, len);
	} else {
		btf = lbtf_new(buf, len, base);
		free(buf);
	}
	return btf ? btf : fail_with_path(path);
}

/*
 * Finds the .BTF section of the ELF image buf (len bytes): *sec points to
 * its bytes inside buf, as stored (no byte swapping); *ptr_size is the
 * ELF's pointer size. Every header, offset and size is checked against len.
 */
int lbtfi_elf_btf_section(const char *path, const void *buf, size_t len,
			  const void **sec, size_t *sec_len, int *ptr_size)
{
	struct lbtfi_elf e;
	int err = lbtfi_elf_open(&e, path, buf, len);

	if (err || (err = lbtfi_elf_section_data(&e, path, ".BTF", sec, sec_len)))
		return err;
	*ptr_size = e.is64 ? 8 : 4;
	return 0;
}

/* .BTF over the ELF's .BTF.base (a module's distilled base): over it when
 * base is NULL (the result owns it), else relocated onto base */
static struct lbtf *over_distilled(const char *path, const void *sec, size_t sec_len,
				  const void *dsec, size_t dsec_len, const struct lbtf *base)
{
	LBTF_OPTS(lbtf_relocate_opts, ro, .name = path);
	struct lbtf *dist, *split, *out;
	int e;

	dist = lbtf_new(dsec, dsec_len, NULL);
	if (!dist) {
		e = errno;
		lbtfi_err(e, "%s: .BTF.base: %s", path, lbtf_errmsg());
		errno = e;
		return NULL;
	}
	split = lbtf_new(sec, sec_len, dist);
	if (!split || !base) {
		if (split)
			split->owned_base = dist;
		else
			lbtf_free(dist);
		return split ? split : fail_with_path(path);
	}
	out = lbtf_relocate(split, base, &ro);
	e = errno;
	lbtf_free(split);
	lbtf_free(dist);
	errno = e;
	return out;
}

static struct lbtf *from_elf(const char *path, void *buf, size_t len,
			     const struct lbtf *base)
{
	const void *sec, *dsec;
	size_t sec_len, dsec_len;
	int ptr_size, err;
	struct lbtf *btf;

	if (lbtfi_elf_btf_section(path, buf, len, &sec, &sec_len, &ptr_size))
		return NULL;
	err = lbtf_elf_btf_base(path, buf, len, &dsec, &dsec_len);
	if (err && err != -ENODATA)
		return NULL;
	if (!err)
		btf = over_distilled(path, sec, sec_len, dsec, dsec_len, base);
	else if (!(btf = lbtf_new(sec, sec_len, base)))
		return fail_with_path(path);
	if (btf)
		btf->ptr_size = ptr_size;
	return btf;
}

static bool is_elf(const void *buf, size_t len)
{
	return len >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
}

int lbtf_elf_btf(const char *path, void *elf, size_t size, const void **btf, size_t *btf_size)
{
	int ptr_size;

	if (!is_elf(elf, size))
		return lbtfi_err(EINVAL, "%s: not an ELF file", path);
	return lbtfi_elf_btf_section(path, elf, size, btf, btf_size, &ptr_size);
}

int lbtf_elf_btf_base(const char *path, void *elf, size_t size, const void **base,
		      size_t *base_size)
{
	struct lbtfi_elf e;
	struct lbtfi_shdr sh;
	int err = lbtfi_elf_open(&e, path, elf, size);

	if (err)
		return err;
	if (!lbtfi_elf_find(&e, ".BTF.base", &sh))
		return lbtfi_err(ENODATA, "%s: no .BTF.base section", path);
	return lbtfi_elf_section_data(&e, path, ".BTF.base", base, base_size);
}

/* BTF from an ELF file's contents (.BTF is copied out): released after */
static struct lbtf *from_elf_file(const char *path, void *buf, size_t len, bool mapped,
				  const struct lbtf *base)
{
	struct lbtf *btf = from_elf(path, buf, len, base);

	lbtfi_file_unload(buf, len, mapped);
	return btf;
}

/* Raw BTF or an ELF file, told apart by the ELF magic */
static struct lbtf *from_any(const char *path, void *buf, size_t len, bool mapped,
			     const struct lbtf *base)
{
	if (is_elf(buf, len))
		return from_elf_file(path, buf, len, mapped, base);
	if (len < 2) {
		lbtfi_file_unload(buf, len, mapped);
		return lbtfi_err_ptr(EINVAL, "%s: %s", path, len ? "not BTF (1 byte)" : "empty file");
	}
	return from_raw(path, buf, len, mapped, base);
}

typedef struct lbtf *(*from_file_fn)(const char *path, void *buf, size_t len, bool mapped,
				     const struct lbtf *base);

/* Reads the file and hands its contents to from(), which takes them over. */
static struct lbtf *open_file(const char *path, const struct lbtf *base, from_file_fn from)
{
	void *buf;
	size_t len;
	bool mapped;

	if (lbtfi_file_read(path, &buf, &len, &mapped))
		return NULL;
	return from(path, buf, len, mapped, base);
}

struct lbtf *lbtf_open_raw(const char *path, const struct lbtf *base)
{
	return open_file(path, base, from_raw);
}

struct lbtf *lbtf_open_elf(const char *path, const struct lbtf *base)
{
	return open_file(path, base, from_elf_file);
}

struct lbtf *lbtf_open(const char *path, const struct lbtf *base)
{
	struct lbtf *btf, *vmlinux = NULL;

	if (!base && lbtfi_path_is_sysfs_module(path)) {
		vmlinux = lbtf_open_vmlinux();
		if (!vmlinux)
			return NULL;
		base = vmlinux;
	}
	btf = open_file(path, base, from_any);
	if (!btf) {
		int e = errno;
		lbtf_free(vmlinux);
		errno = e;
		return NULL;
	}
	if (vmlinux) /* an ELF module's distilled base may be owned already */
		btf->owned_base = vmlinux;
	return btf;
}

struct lbtf *lbtf_open_vmlinux(void)
{
	return lbtf_open_raw(SYSFS_VMLINUX, NULL);
}

void lbtf_free(struct lbtf *btf)
{
	if (!btf)
		return;
	lbtfi_derived_free(btf);
	if (btf->map)
		munmap(btf->map, btf->map_len);
	free(btf->owned);
	free(btf->type_offs);
	lbtf_free(btf->owned_base);
	free(btf);
}
