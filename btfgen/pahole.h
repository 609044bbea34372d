/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * btfgen's pahole-compatible command line: the BTF encoding subset of
 * pahole's options that kernel builds use (scripts/link-vmlinux.sh,
 * scripts/Makefile.modfinal, scripts/pahole-version.sh and the flags of
 * scripts/Makefile.btf / pahole-flags.sh), rewritten into btfgen's own.
 */
#ifndef BTFGEN_PAHOLE_H
#define BTFGEN_PAHOLE_H

#include <stdbool.h>

/* The pahole version btfgen answers to --version: the newest whose BTF
 * encoding flags (as the kernel picks them by version) btfgen implements:
 * 1.30 adds --btf_features=attributes (kernel 6.18's Makefile.btf; 1.28's
 * distilled_base is passed for out-of-tree modules). */
#define PAHOLE_COMPAT_MAJOR 1
#define PAHOLE_COMPAT_MINOR 30

/* True when argv is a pahole command line: the program was invoked under a
 * name ending in "pahole" (the btfgen-pahole link), or with -J or
 * --btf_encode_detached, which btfgen's own options never use. */
bool pahole_cmdline(int argc, char **argv);

/*
 * Translate a pahole command line into btfgen's options. Returns -1 with
 * the counts and vector set to the btfgen command line to run (memory lives until
 * exit), or an exit status: 0 after --version / --numeric_version /
 * --supported_btf_features, 2 for a usage error (printed on stderr).
 */
int pahole_to_btfgen(int argc, char **argv, int *nargc, char ***nargv);

#endif
