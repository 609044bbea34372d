/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LBTFI_TLS marks libbtf's per-thread data (an error message, blocks kept
 * between calls, memos). It is __thread, except in a build for a program
 * with one thread, which defines LBTFI_ONE_THREAD: btfcheck's musl build
 * (the Makefile; tests/verify/check_btfcheck_heap.sh checks that its link
 * has no pthread_create). There the data are plain statics, musl's start
 * finds no TLS segment larger than its built-in block, and a fresh process
 * is spared an mmap and a fresh page (musl maps a block for a TLS of more
 * than ~100 bytes; libbtf's is ~900).
 */
#ifndef LIBBTF_UTIL_TLS_H
#define LIBBTF_UTIL_TLS_H

#ifdef LBTFI_ONE_THREAD
#define LBTFI_TLS
#else
#define LBTFI_TLS __thread
#endif

#endif
