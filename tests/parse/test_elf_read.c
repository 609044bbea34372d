// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_elf_btf() on hand-built ELF images: the .BTF section is found in
 * ELF32 and ELF64 of either byte order and with extended section numbering
 * (e_shnum 0, e_shstrndx SHN_XINDEX); broken headers are refused with the
 * named error, never read past the image.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf.h"

/* Image layout: header, ".shstrtab" names, the .BTF bytes, then the
 * section headers [0] null, [1] .shstrtab, [2] .text, [3] .BTF. */
#define NAMES "\0.shstrtab\0.text\0.BTF\0"
#define N_SHSTRTAB 1
#define N_TEXT 11
#define N_BTF 17
#define BTF_BYTES "\x9f\xeb\x01\x00 pretend BTF"
#define NSEC 4

struct image {
	unsigned char buf[1024];
	size_t len;
	bool is64, big;
	size_t shoff, btf_off, shentsize;
};

static void put(struct image *im, size_t off, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		im->buf[off + (im->big ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* One section header: the ELF64 or ELF32 layout */
static void put_shdr(struct image *im, size_t i, uint32_t name, uint32_t type, uint64_t off,
		     uint64_t size, uint32_t link)
{
	size_t p = im->shoff + i * im->shentsize;

	if (im->is64) {
		put(im, p + offsetof(Elf64_Shdr, sh_name), name, 4);
		put(im, p + offsetof(Elf64_Shdr, sh_type), type, 4);
		put(im, p + offsetof(Elf64_Shdr, sh_offset), off, 8);
		put(im, p + offsetof(Elf64_Shdr, sh_size), size, 8);
		put(im, p + offsetof(Elf64_Shdr, sh_link), link, 4);
	} else {
		put(im, p + offsetof(Elf32_Shdr, sh_name), name, 4);
		put(im, p + offsetof(Elf32_Shdr, sh_type), type, 4);
		put(im, p + offsetof(Elf32_Shdr, sh_offset), off, 4);
		put(im, p + offsetof(Elf32_Shdr, sh_size), size, 4);
		put(im, p + offsetof(Elf32_Shdr, sh_link), link, 4);
	}
}

static void build(struct image *im, bool is64, bool big, bool extended)
{
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t names = ehsize;

	memset(im, 0, sizeof(*im));
	im->is64 = is64;
	im->big = big;
	im->shentsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	im->btf_off = names + sizeof(NAMES);
	im->shoff = (im->btf_off + sizeof(BTF_BYTES) + 7) & ~(size_t)7;
	im->len = im->shoff + NSEC * im->shentsize;
	memcpy(im->buf, ELFMAG, SELFMAG);
	im->buf[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	im->buf[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	im->buf[EI_VERSION] = EV_CURRENT;
	memcpy(im->buf + names, NAMES, sizeof(NAMES));
	memcpy(im->buf + im->btf_off, BTF_BYTES, sizeof(BTF_BYTES));
	if (is64) {
		put(im, offsetof(Elf64_Ehdr, e_type), ET_REL, 2);
		put(im, offsetof(Elf64_Ehdr, e_machine), EM_BPF, 2);
		put(im, offsetof(Elf64_Ehdr, e_shoff), im->shoff, 8);
		put(im, offsetof(Elf64_Ehdr, e_shentsize), im->shentsize, 2);
		put(im, offsetof(Elf64_Ehdr, e_shnum), extended ? 0 : NSEC, 2);
		put(im, offsetof(Elf64_Ehdr, e_shstrndx), extended ? SHN_XINDEX : 1, 2);
	} else {
		put(im, offsetof(Elf32_Ehdr, e_type), ET_REL, 2);
		put(im, offsetof(Elf32_Ehdr, e_machine), EM_386, 2);
		put(im, offsetof(Elf32_Ehdr, e_shoff), im->shoff, 4);
		put(im, offsetof(Elf32_Ehdr, e_shentsize), im->shentsize, 2);
		put(im, offsetof(Elf32_Ehdr, e_shnum), extended ? 0 : NSEC, 2);
		put(im, offsetof(Elf32_Ehdr, e_shstrndx), extended ? SHN_XINDEX : 1, 2);
	}
	/* [0]: with extended numbering, the count in sh_size, names in sh_link */
	put_shdr(im, 0, 0, SHT_NULL, 0, extended ? NSEC : 0, extended ? 1 : 0);
	put_shdr(im, 1, N_SHSTRTAB, SHT_STRTAB, names, sizeof(NAMES), 0);
	put_shdr(im, 2, N_TEXT, SHT_PROGBITS, 0, 0, 0);
	put_shdr(im, 3, N_BTF, SHT_PROGBITS, im->btf_off, sizeof(BTF_BYTES), 0);
}

static void expect_found(struct image *im)
{
	const void *btf = NULL;
	size_t n = 0;

	if (lbtf_elf_btf("img", im->buf, im->len, &btf, &n))
		fail_msg("not found: %s", lbtf_errmsg());
	assert_ptr_equal(btf, im->buf + im->btf_off);
	assert_int_equal(n, sizeof(BTF_BYTES));
}

/* Refused with errno err and a message containing what */
static void expect_refused(struct image *im, int err, const char *what)
{
	const void *btf = NULL;
	size_t n = 0;

	assert_int_equal(lbtf_elf_btf("img", im->buf, im->len, &btf, &n), -err);
	if (!strstr(lbtf_errmsg(), what) || strncmp(lbtf_errmsg(), "img: ", 5))
		fail_msg("message '%s' lacks 'img: ... %s'", lbtf_errmsg(), what);
}

static void test_found_every_class_and_order(void **state)
{
	struct image im;

	for (int v = 0; v < 8; v++) {
		build(&im, v & 1, v & 2, v & 4);
		expect_found(&im);
	}
}

static void test_truncated(void **state)
{
	struct image im;

	build(&im, true, false, false);
	im.len = 40; /* inside the ELF64 header */
	expect_refused(&im, EINVAL, "truncated or bad ELF header");
	build(&im, true, false, false);
	im.len -= 1; /* the last section header cut */
	expect_refused(&im, EINVAL, "section headers end past");
	build(&im, false, true, true);
	put_shdr(&im, 0, 0, SHT_NULL, 0, 1000, 1); /* extended count too large */
	expect_refused(&im, EINVAL, "section headers end past");
	build(&im, true, false, false);
	put_shdr(&im, 3, N_BTF, SHT_PROGBITS, im.btf_off, 4096, 0);
	expect_refused(&im, EINVAL, ".BTF section is truncated");
	build(&im, true, false, false);
	put_shdr(&im, 3, N_BTF, SHT_PROGBITS, ~0ull, 1, 0);
	expect_refused(&im, EINVAL, ".BTF section is truncated");
}

static void test_bad_headers(void **state)
{
	struct image im;

	build(&im, true, false, false);
	im.buf[EI_CLASS] = 7;
	expect_refused(&im, EINVAL, "truncated or bad ELF header");
	build(&im, true, false, false);
	put(&im, offsetof(Elf64_Ehdr, e_shentsize), 40, 2);
	expect_refused(&im, EINVAL, "bad ELF section headers");
	build(&im, true, false, false);
	put(&im, offsetof(Elf64_Ehdr, e_shstrndx), NSEC, 2);
	expect_refused(&im, EINVAL, "bad ELF section headers");
	build(&im, true, false, false);
	memcpy(im.buf, "\177ELG", 4);
	expect_refused(&im, EINVAL, "not an ELF file");
}

static void test_names(void **state)
{
	struct image im;

	/* .BTF as NOBITS */
	build(&im, true, false, false);
	put_shdr(&im, 3, N_BTF, SHT_NOBITS, im.btf_off, sizeof(BTF_BYTES), 0);
	expect_refused(&im, ENODATA, "NOBITS");
	/* the name table cut before ".BTF"'s terminating NUL: not that name */
	build(&im, true, false, false);
	put_shdr(&im, 1, N_SHSTRTAB, SHT_STRTAB, sizeof(Elf64_Ehdr), sizeof(NAMES) - 2, 0);
	expect_refused(&im, ENODATA, "no .BTF section");
	/* a name table that is not a string table names nothing */
	build(&im, true, false, false);
	put_shdr(&im, 1, N_SHSTRTAB, SHT_PROGBITS, sizeof(Elf64_Ehdr), sizeof(NAMES), 0);
	expect_refused(&im, ENODATA, "no .BTF section");
	/* no section header table at all */
	build(&im, true, false, false);
	put(&im, offsetof(Elf64_Ehdr, e_shoff), 0, 8);
	expect_refused(&im, ENODATA, "no .BTF section");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_every_class_and_order),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
