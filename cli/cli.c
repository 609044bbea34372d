// SPDX-License-Identifier: BSD-2-Clause
/* The exit status table, --version and stdout checks shared by the programs. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "report.h"
#include "io/io.h"

int cli_exit_for_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case EINVAL:   /* malformed BTF, ELF or DWARF */
	case ENOEXEC:  /* not an ELF file / wrong class or machine */
	case ENODATA:  /* no .BTF, no DWARF */
	case E2BIG:    /* larger than the format allows */
	case ELOOP:    /* type cycles */
	case ENOTSUP:  /* a construct we do not read */
	case EPROTO:
	case EBADMSG:
	case EISDIR:   /* a directory where a file was meant */
	case EFBIG:
		return CLI_EXIT_INPUT;
	default:
		return CLI_EXIT_SYSTEM;
	}
}

const char *cli_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err == 524) /* the kernel's ENOTSUPP, not in libc */
		return "ENOTSUPP (the kernel does not support this operation here)";
	return lbtfi_strerror(err);
}

const char *cli_bpf_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err == EPERM)
		return "Operation not permitted (" CLI_BPF_NEEDS ")";
	return cli_strerror(err);
}

int cli_print_version(const char *prog)
{
	printf("%s %s\n", prog, BTF_TOOLS_VERSION);
	return cli_flush_stdout(prog);
}

int cli_flush_stdout(const char *prog)
{
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		return cli_fail(CLI_EXIT_SYSTEM, prog, "write error on standard output: %s",
				lbtfi_strerror(errno ? errno : EIO));
	}
	return CLI_EXIT_OK;
}

void cli_hold_stdout(void)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (fd >= 0 && fd != STDOUT_FILENO)
			close(fd);
	}
}

int cli_finish_stdout(const char *prog)
{
	int rc = cli_flush_stdout(prog);

	/* a close that fails (NFS, a pipe's late error) lost bytes too */
	if (fclose(stdout) && rc == CLI_EXIT_OK)
		rc = cli_fail(CLI_EXIT_SYSTEM, prog, "write error on standard output: %s",
			      lbtfi_strerror(errno ? errno : EIO));
	return rc;
}
