/* SPDX-License-Identifier: BSD-2-Clause */
/* btfdump's command table entries, one file each. */
#ifndef BTFDUMP_COMMANDS_H
#define BTFDUMP_COMMANDS_H
#include <stdbool.h>
#include "libbtf.h"

enum btfdump_json { BTFDUMP_PLAIN = 0, BTFDUMP_JSON = 1, BTFDUMP_PRETTY = 2 };

/* Global options parsed by main.c before the command word. */
struct btfdump_opts {
	enum btfdump_json json;
};

/* Where the BTF came from: name for messages ("PATH" or "id N"), the file
 * (NULL for a kernel id) and its base's file (or NULL), which an output
 * must not overwrite. */
struct btfdump_src {
	const char *name;
	const char *path;
	const char *base_path;
};

/* `btfdump ... format c [C options]`: prints btf as a C header.
 * argv holds the words after "c". Returns the exit status. (format_c.c) */
int btfdump_format_c(const struct lbtf *btf, const struct btfdump_src *src, int argc, char **argv,
		     const struct btfdump_opts *o);

/* `btfdump map ...`: argv holds the words after "map". Returns the exit
 * status. (cmd_map.c) */
int btfdump_cmd_map(int argc, char **argv, const struct btfdump_opts *o);

/* `btfdump ext PATH`: the object's .BTF.ext named through its .BTF.
 * Returns the exit status. (cmd_ext.c) */
int btfdump_cmd_ext(int argc, char **argv, const struct btfdump_opts *o);

#endif
