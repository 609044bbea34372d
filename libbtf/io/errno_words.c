// SPDX-License-Identifier: BSD-2-Clause
/*
 * The words of an errno value, from the table scripts/gen_errno_words.c
 * makes of glibc's at build time: the same in every program, whichever libc
 * it is linked with (btfcheck is linked with musl when it is there, whose
 * words differ for 80 of the first 140 values: "I/O error" for EIO...).
 */
#include <stdio.h>
#include "io.h"
#include "errno_words.h" /* generated: $(B)/gen */
#include "util/tls.h"

#define NWORDS (int)(sizeof(lbtfi_errno_words) / sizeof(lbtfi_errno_words[0]))

const char *lbtfi_strerror(int err)
{
	static LBTFI_TLS char buf[sizeof(LBTFI_ERRNO_UNKNOWN) + 12];

	if (err >= 0 && err < NWORDS)
		return lbtfi_errno_words[err].text;
	snprintf(buf, sizeof(buf), "%s%d", LBTFI_ERRNO_UNKNOWN, err);
	return buf;
}

const char *lbtfi_errno_ident(int err)
{
	return err >= 0 && err < NWORDS ? lbtfi_errno_words[err].ident : NULL;
}
