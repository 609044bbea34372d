/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * File input and output shared by libbtf and its programs (btfgen, btfcheck,
 * btfdump link the internal archive to use it, as bpftool uses libbpf's
 * internals). Not part of the library's API: generic file helpers that a
 * BTF library has no business promising. Errors are reported like the
 * library's (negative errno, lbtf_errmsg() naming the file).
 */
#ifndef LIBBTF_IO_H
#define LIBBTF_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- input (read.c) ---- */
/*
 * A whole file's bytes without copying: mmapped (*mapped true) when it is a
 * regular file, else read (sysfs, pipes; "-" is standard input). Release
 * with lbtfi_file_unload() (NULL is ignored).
 */
int lbtfi_file_load(const char *path, void **data, size_t *size, bool *mapped);
void lbtfi_file_unload(void *data, size_t size, bool mapped);
/*
 * The same, but a regular file is mapped whatever its size: for a program's
 * last input, which it may leave to exit to unmap (a file mapping faults
 * once where a read faults every fresh page of its buffer; an explicit
 * munmap costs more than exit's teardown, see read.c).
 */
int lbtfi_file_load_mapped(const char *path, void **data, size_t *size, bool *mapped);
/*
 * The same, read into rb's buffer (grown as needed, kept by rb, never freed
 * by the unload: *data is rb's when !*mapped): a program going through many
 * small files faults its pages in once, not once a file. Regular files of
 * map_from bytes and more are mapped instead (0: 256 KiB, read.c's
 * REUSE_MAP_FROM; SIZE_MAX: never), sized by the one fstat the read makes.
 * A mapping under populate_below bytes (0: none) is populated when made
 * (MAP_POPULATE): its pages come from the page cache in the one call, not
 * by a fault for each 64 KiB window touched (the kernel's fault-around).
 * A buffer that grows is given room for the next files (64 KiB at least)
 * unless last says no file follows: then it holds this one exactly, and
 * what the caller allocates next shares its last page, not a fresh one.
 */
struct lbtfi_readbuf {
	void *data;
	size_t cap;
	size_t map_from;
	size_t populate_below;
	bool last;
	/* at most this many files are mapped through rb (0: no limit), then
	 * the rest are read: a program that leaves its mappings to exit
	 * bounds how many it leaves */
	unsigned int max_maps, nmaps;
};
int lbtfi_file_load_reuse(const char *path, struct lbtfi_readbuf *rb, void **data, size_t *size,
			  bool *mapped);
void lbtfi_readbuf_free(struct lbtfi_readbuf *rb);
/* What one of the loads above gave made writable (a mapping is private:
 * the writes stay in memory); 0, or -1 with errno set */
int lbtfi_file_writable(void *data, size_t size, bool mapped);
/* The same from a named file, and from fd (not closed; path names it). */
int lbtfi_file_read(const char *path, void **data, size_t *size, bool *mapped);
int lbtfi_fd_read(int fd, const char *path, void **data, size_t *size, bool *mapped);
/* The same as a private copy the caller may write to (never written back) */
int lbtfi_fd_read_private(int fd, const char *path, void **data, size_t *size, bool *mapped);
/*
 * A regular file of at most max bytes, read whole into a new buffer (NUL
 * added, *len without it; the caller frees *text): for files named by
 * other files (DWARF's source file names), which may name anything. A
 * FIFO, a device, a directory (EINVAL) or a larger file (EFBIG) is refused
 * without reading it or waiting for it.
 */
int lbtfi_regular_file_read(const char *path, size_t max, char **text, size_t *len);

/* ---- names (path.c) ---- */
#define LBTFI_SYSFS_BTF_DIR "/sys/kernel/btf/"
/* Whether path names module BTF under /sys/kernel/btf/ (anything there but
 * vmlinux): split BTF whose base is /sys/kernel/btf/vmlinux. The one place
 * that rule lives; lbtf_open() applies it, btfcheck too. */
bool lbtfi_path_is_sysfs_module(const char *path);

/* ---- output (atomic.c) ---- */
/*
 * Atomic output: lbtfi_atomic_open() returns a descriptor onto a new
 * temporary file next to path, unnamed (O_TMPFILE) where the file system
 * allows it, else named (*tmp_path set in both cases: the name path's name
 * + ".tmpXXXXXX" it is or will be given); lbtfi_atomic_commit() syncs it
 * and, if err is 0, names it and renames it onto path, else removes it; it
 * returns err or the first failure. An existing path keeps its mode and owner (mode applies to a new
 * file, less the umask); a symbolic link is written through (its target is
 * replaced); a file with several hard links or without write permission is
 * refused (-EMLINK, -EACCES). When path exists and is not a regular file
 * (/dev/null, /dev/stdout, a FIFO) it is opened and written directly
 * (*tmp_path NULL): renaming over a device would replace it. Pending
 * temporary files are removed by lbtfi_atomic_cleanup().
 */
int lbtfi_atomic_open(const char *path, char **tmp_path, unsigned int mode);
int lbtfi_atomic_commit(int fd, char *tmp_path, const char *path, int err);
/* The same when the caller synced the file itself (fsync, 0) after writing */
int lbtfi_atomic_commit_synced(int fd, char *tmp_path, const char *path, int err);
/*
 * lbtfi_atomic_cleanup() removes the temporary files not yet renamed (the
 * library's writers, lbtf_elf_write_btf and lbtf_encode among them, go
 * through lbtfi_atomic_open); async-signal-safe. lbtfi_atomic_cleanup_
 * on_signals() installs a handler that calls it on the signals that end a
 * process (SIGINT, SIGTERM, SIGHUP, crashes...) before dying of the signal:
 * a program's policy for the files it writes, the first thing it does
 * once its command line is read.
 */
void lbtfi_atomic_cleanup(void);
void lbtfi_atomic_cleanup_on_signals(void);
/* Writes bytes to path through lbtfi_atomic_open/commit. */
int lbtfi_write_file_atomic(const char *path, const void *data, size_t size);
/* write() until done (EINTR retried); 0 or -errno, nothing reported. */
int lbtfi_write_all(int fd, const void *data, size_t size);
/* 1 if a and b name the same file (same device and inode, through symbolic
 * and hard links), else 0. lbtfi_check_output() fails with -EEXIST and a
 * message naming both when out_path is in_path (what: "input", "base"...),
 * so that an output never overwrites what it is made from. */
int lbtfi_same_file(const char *a, const char *b);
int lbtfi_check_output(const char *out_path, const char *in_path, const char *what);

/* ---- the words of an errno value (errno_words.c) ---- */
/* strerror(err) and strerrorname_np(err) (NULL when unnamed) as glibc says
 * them, whatever libc the program is linked with: what libbtf and its
 * programs print about an error, so that their output is the same. */
const char *lbtfi_strerror(int err);
const char *lbtfi_errno_ident(int err);

/* s as a JSON string on f: valid JSON whatever its bytes (control
 * characters and bytes outside valid UTF-8 as \u00XX); strict: lossless
 * too (a backslash as \\, not bpftool's \n). The JSON dumpers' quoting
 * (libbtf/dump/json_writer.c), for programs writing JSON of their own. */
void lbtfi_json_put_quoted(FILE *f, const char *s, bool strict);

#endif
