// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen: DWARF -> BTF, the build step that gives a compiled object its BTF.
 *
 *   btfgen [-j N] [-o OUT.btf | --in-place] [--base BASE] [--features LIST] [--layout] [--sort-types] [-v] INPUT
 *   btfgen --min-core --target-btf FULL.btf -o MIN.btf [-v] OBJ...
 *
 * The work is libbtf's lbtf_encode (libbtf/encode/): this is its command line.
 *
 * Exit status: cli/cli.h's table (2 usage, 4 bad input, 5 I/O or system).
 */
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "args.h"
#include "cli.h"
#include "libbtf.h"
#include "libbtf_dwarf.h"
#include "min_core.h"
#include "pahole.h"
#include "progress.h"
#include "report.h"
#include "io/io.h"

/* The blob lbtf_encode handed back, on standard output (-o -): 0 or 5 */
static int to_stdout(const char *prog, const struct lbtf_encode_result *res)
{
	bool short_write = fwrite(res->data, 1, res->size, stdout) != res->size;
	int rc = cli_flush_stdout(prog); /* (says why: the stream's error is set) */

	return rc || !short_write ? rc : CLI_EXIT_SYSTEM;
}

int main(int argc, char **argv)
{
	/* "btfgen-pahole" for a pahole command line: one prefix for a whole run */
	const char *prog = "btfgen";
	struct lbtf_dwarf_stats st = { .sz = sizeof(st) };
	struct lbtf_encode_result res = { .sz = sizeof(res) };
	struct btfgen_report rep;
	struct btfgen_args a;
	int rc, err;

#ifdef M_MMAP_THRESHOLD
	/*
	 * Large blocks from the heap, kept when freed: the driver frees a
	 * vmlinux's raw types (tens of MB) and allocates as much again (the
	 * copy, dedup's maps, prune's result); fresh mappings are faulted in
	 * page by page, reused heap is not. The process is short-lived.
	 * (libbtf's growing arrays take, from 2 MiB on, a mapping of their
	 * own anyway, on huge pages where they pay; a 2 MiB threshold for everything
	 * else gave more page faults and slower runs, on kernels and modules
	 * alike.)
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	/*
	 * A heap made writable 32 MiB at a time, so that the huge pages libbtf
	 * advises a converting thread's heap to (lbtfi_heap_huge) can back it:
	 * grown a few pages at a time, the 2 MiB ranges it faults in are never
	 * whole inside it (a vmlinux, 6.18's flags, -j1: 4,212 page faults
	 * without this, 1,564 with it). Only address space until touched.
	 */
	mallopt(M_TOP_PAD, 32 << 20);
#endif
	cli_hold_stdout();
	/* pahole's command line (kernel builds run PAHOLE=btfgen-pahole) */
	if (pahole_cmdline(argc, argv)) {
		prog = "btfgen-pahole";
		if ((rc = pahole_to_btfgen(argc, argv, &argc, &argv)) >= 0)
			return rc;
	}
	if ((rc = btfgen_parse_args(prog, argc, argv, &a)) >= 0)
		return rc;
	lbtfi_atomic_cleanup_on_signals();
	if (a.min_core)
		return btfgen_min_core(prog, a.target_btf, a.out, a.objs, a.nobjs, a.verbose);
	btfgen_report_init(&rep, prog, a.input, a.progress, a.verbose);
	a.o.progress = btfgen_on_progress;
	a.o.warn = btfgen_on_warn;
	a.o.ctx = &rep;
	a.o.stats = &st;
	err = lbtf_encode(a.input, &a.o, &res);
	btfgen_report_end(&rep);
	if (err)
		return cli_fail(cli_exit_for_errno(err), prog, "%s", lbtf_errmsg());
	rc = res.data ? to_stdout(prog, &res) : 0; /* (cli_flush_stdout says why) */
	free(res.data);
	if (!rc && a.verbose)
		cli_err(prog, "%s: %u units, %u types before dedup, %u after; %u FUNCs, %u VARs in "
			"%u DATASECs; %zu bytes", a.input, st.units, st.types_raw, st.types_out,
			st.funcs, st.vars, st.datasecs, res.size);
	return rc;
}
