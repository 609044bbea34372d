/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BTFGEN_MIN_CORE_H
#define BTFGEN_MIN_CORE_H

/* --min-core: of the target BTF, what the objects' CO-RE relocations need,
 * written (verified, atomically) to out, or to standard output for "-"
 * (min_core.c). The exit status, after a message on stderr on failure. */
int btfgen_min_core(const char *prog, const char *target, const char *out, char *const *objs,
		    int nobjs, bool verbose);

#endif
