// SPDX-License-Identifier: BSD-2-Clause
/*
 * `btfdump ext PATH`: the .BTF.ext of an ELF BPF object, named through the
 * object's .BTF (func_info FUNC names, line_info file:line:col and source
 * lines, CO-RE relocations with kind, root type and member path). Raw text,
 * or JSON with -j/-p. Both sections are read and checked before anything
 * is printed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "libbtf_dump.h"
#include "libbtf_ext.h"

static const char *prog = "btfdump";

int btfdump_cmd_ext(int argc, char **argv, const struct btfdump_opts *o)
{
	struct lbtf_ext *ext;
	struct lbtf *btf;
	int err, rc;

	if (argc < 1)
		return cli_fail(CLI_EXIT_USAGE, prog, "ext: missing PATH");
	if (argc > 1)
		return cli_fail(CLI_EXIT_USAGE, prog, "ext: unexpected argument '%s'", argv[1]);
	btf = lbtf_open_elf(argv[0], NULL);
	if (!btf)
		return cli_fail_lib(prog, argv[0]);
	ext = lbtf_ext_open_elf(argv[0]);
	if (!ext) {
		rc = cli_fail_lib(prog, argv[0]);
		lbtf_free(btf);
		return rc;
	}
	if (o->json == BTFDUMP_PLAIN)
		err = lbtf_dump_ext_raw(btf, ext, stdout);
	else
		err = lbtf_dump_ext_json(btf, ext, stdout, o->json == BTFDUMP_PRETTY);
	lbtf_ext_free(ext);
	lbtf_free(btf);
	if (fflush(stdout) || err == -EIO || ferror(stdout)) {
		cli_err(prog, "write error on standard output: %s", 
			strerror(errno ? errno : EIO));
		return CLI_EXIT_SYSTEM;
	}
	if (err) {
		cli_err(prog, "%s: bad .BTF.ext record: %s",  argv[0], strerror(-err));
		return CLI_EXIT_INPUT;
	}
	return 0;
}
