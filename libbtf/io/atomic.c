// SPDX-License-Identifier: BSD-2-Clause
/*
 * Output files, written so that nothing is lost: a temporary file next to
 * the target, renamed over it only when complete. The temporary file has
 * no name while it is written (O_TMPFILE): a SIGKILL, which no handler
 * sees, at any moment of a long write leaves nothing behind. When
 * complete it is linked at the target's name if no file has it; one that
 * replaces a file is linked under a temporary name and renamed over it (no
 * call links over an existing name), and those two calls run in a child
 * process, which a kill of this one does not stop: see replace_target().
 * A named temporary file (mkstemp) is the fallback where O_TMPFILE is
 * refused (a file system or kernel without it, or no /proc to link it
 * from).
 *
 * An existing target keeps its mode and owner; a symbolic link is written
 * through (its target is replaced, the link stays); a file with several
 * names (hard links) or without write permission is refused rather than
 * silently separated from its other names or overwritten. Temporary files
 * still pending are listed so that a signal handler can remove them
 * (lbtfi_atomic_cleanup() is async-signal-safe).
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "io.h"
#include "libbtf.h"
#include "util/err.h"

#define TMP_SUFFIX ".tmpXXXXXX"

/* Pending temporary files: a slot is in use while its flag is set; the
 * handler reads only the flags and the fixed buffers. */
#define PENDING_MAX 8
static char pending_path[PENDING_MAX][PATH_MAX];
static volatile sig_atomic_t pending_used[PENDING_MAX];

static void pending_add(const char *tmp)
{
	for (int i = 0; i < PENDING_MAX; i++) {
		if (!pending_used[i] && strlen(tmp) < PATH_MAX) {
			strcpy(pending_path[i], tmp);
			pending_used[i] = 1;
			return;
		}
	}
}

static void pending_remove(const char *tmp)
{
	for (int i = 0; i < PENDING_MAX; i++)
		if (pending_used[i] && !strcmp(pending_path[i], tmp))
			pending_used[i] = 0;
}

void lbtfi_atomic_cleanup(void)
{
	for (int i = 0; i < PENDING_MAX; i++)
		if (pending_used[i])
			unlink(pending_path[i]);
}

static void on_fatal_signal(int sig)
{
	lbtfi_atomic_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void lbtfi_atomic_cleanup_on_signals(void)
{
	/* the signals that end a process by default, crashes included (a
	 * truncated mmap'ed input raises SIGBUS) */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
				    SIGXFSZ, SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
	struct sigaction sa = { .sa_handler = on_fatal_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int lbtfi_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int lbtfi_check_output(const char *out_path, const char *in_path, const char *what)
{
	if (lbtfi_same_file(out_path, in_path))
		return lbtfi_err(EEXIST, "%s: is the %s%s%s (the same file): refusing to overwrite it",
				 out_path, what, strcmp(out_path, in_path) ? " " : "",
				 strcmp(out_path, in_path) ? in_path : "");
	return 0;
}

/* The name by which the open file fd can be linked (linkat with
 * AT_SYMLINK_FOLLOW through /proc) */
static void proc_fd_path(char proc[static 32], int fd)
{
	snprintf(proc, 32, "/proc/self/fd/%d", fd);
}

/*
 * An unnamed file in target's directory (O_TMPFILE), or -1: refused by
 * the file system or the kernel, or no /proc/self/fd to link it from at
 * the end (linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH).
 */
static int open_unnamed(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir = slash ? strndup(target, slash == target ? 1 : (size_t)(slash - target))
			  : strdup(".");
	char proc[32];
	int fd;

	if (!dir)
		return -1;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	free(dir);
	if (fd < 0)
		return -1;
	proc_fd_path(proc, fd);
	if (access(proc, F_OK)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* An O_TMPFILE file not linked yet */
static bool is_unnamed(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_nlink == 0;
}

/* Makes tmp's last six letters (its XXXXXX) new ones, from the state *r */
static void next_tmp_name(char *tmp, unsigned long *r)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *x = tmp + strlen(tmp) - 6;

	for (int i = 0; i < 6; i++) {
		*r = *r * 6364136223846793005ul + 1442695040888963407ul;
		x[i] = letters[(*r >> 33) % (sizeof(letters) - 1)];
	}
}

/*
 * The child's part of replace_target(): links proc (the unnamed file) at
 * tmp, made unique, renames it over target, and ends with 0 or the errno
 * of the call that failed (the temporary name removed). Only system calls
 * and writes to its own copy of tmp: it runs on the parent's memory.
 */
static _Noreturn void link_and_rename(const char *proc, char *tmp, const char *target,
				      unsigned long r)
{
	int err = EEXIST;

	/* a group of its own: a SIGKILL sent to the parent's whole process
	 * group (kill -9 -PGID, a job control or a supervisor stopping a
	 * build) does not reach it either */
	setpgid(0, 0);
	for (int tries = 0; tries < 100 && err == EEXIST; tries++) {
		next_tmp_name(tmp, &r);
		err = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) ? errno : 0;
	}
	if (!err && rename(tmp, target)) {
		err = errno;
		unlink(tmp);
	}
	_exit(err & 0xff);
}

/*
 * Puts the complete unnamed file fd in target's place, replacing the file
 * there: 0 or a negative errno. Linux cannot link a file over an existing
 * name, so the file gets a temporary name (tmp, its XXXXXX made unique) and
 * is renamed over target. A SIGKILL of this process between those two calls
 * would leave the temporary name, and under load (a journal commit that
 * makes linkat wait) that moment is not short: so both calls are made by a
 * vfork'ed child, in a process group of its own, which a kill of this
 * process or of its group does not stop, with every signal blocked. The
 * result is read from the files, not from the child's status (a caller may
 * reap children or ignore SIGCHLD): the target's inode is fd's, or the
 * child failed.
 */
static int replace_target(int fd, char *tmp, const char *target)
{
	char proc[32], *child_tmp = strdup(tmp);
	sigset_t all, old;
	struct timespec ts;
	struct stat sf, st;
	int status = 0, fork_err;
	pid_t pid;

	if (!child_tmp)
		return -ENOMEM;
	proc_fd_path(proc, fd);
	clock_gettime(CLOCK_REALTIME, &ts);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pid = vfork();
	if (pid == 0)
		link_and_rename(proc, child_tmp, target,
				(unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16));
	fork_err = pid < 0 ? errno : 0;
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(child_tmp);
	if (pid < 0)
		return -fork_err;
	if (!fstat(fd, &sf) && !stat(target, &st) && sf.st_dev == st.st_dev &&
	    sf.st_ino == st.st_ino)
		return 0;
	/* the child failed: its status says why, if this process could reap it */
	return WIFEXITED(status) && WEXITSTATUS(status) ? -WEXITSTATUS(status) : -EIO;
}

/* Gives the unnamed file fd the name target if no file has it: 0, or -1
 * (EEXIST: a file to replace, by a rename) */
static int link_at_target(int fd, const char *target)
{
	char proc[32];

	proc_fd_path(proc, fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, target, AT_SYMLINK_FOLLOW) ? -1 : 0;
}

static mode_t new_file_mode(unsigned int mode)
{
	mode_t mask = umask(0);

	umask(mask);
	return (mode_t)mode & ~mask;
}

/* The file a chain of symbolic links ends at, which need not exist yet
 * (malloc'ed; NULL with errno set) */
static char *link_target(const char *path)
{
	char *cur = strdup(path);

	for (int hops = 0; cur && hops < 40; hops++) {
		char buf[PATH_MAX], *next, *slash;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, buf, sizeof(buf) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		buf[n] = 0;
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || !slash) {
			next = strdup(buf);
		} else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, buf) < 0) {
			next = NULL;
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

/* Refuse an existing regular file that replacing would damage */
static int check_existing(const char *path, const struct stat *st)
{
	if (st->st_nlink > 1)
		return lbtfi_err(EMLINK, "%s: has %lu names (hard links), which replacing it would "
				 "separate: refusing to write it", path, (unsigned long)st->st_nlink);
	if (!(st->st_mode & 0222) || access(path, W_OK))
		return lbtfi_err(EACCES, "%s: is read-only: refusing to write it", path);
	return 0;
}

int lbtfi_atomic_open(const char *path, char **tmp_path, unsigned int mode)
{
	char *target = NULL, *tmp;
	struct stat st, lst;
	bool exists;
	int fd, err;

	*tmp_path = NULL;
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device or FIFO: written directly, renaming over it would replace it */
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return lbtfi_err(errno, "%s: cannot open: %s", path, lbtfi_strerror(errno));
		return fd;
	}
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		/* write through the link: its target is the file replaced (or made) */
		target = link_target(path);
		if (!target)
			return lbtfi_err(errno, "%s: is a symbolic link whose target cannot be "
					 "resolved: %s", path, lbtfi_strerror(errno));
	}
	if (exists && (err = check_existing(path, &st))) {
		free(target);
		return err;
	}
	if (!target && !(target = strdup(path)))
		return lbtfi_err(ENOMEM, "out of memory");
	tmp = malloc(strlen(target) + sizeof(TMP_SUFFIX));
	if (!tmp) {
		free(target);
		return lbtfi_err(ENOMEM, "out of memory");
	}
	sprintf(tmp, "%s" TMP_SUFFIX, target);
	fd = open_unnamed(target);
	free(target);
	if (fd < 0) {
		/* O_TMPFILE refused here: a named temporary file, which a
		 * SIGKILL would leave behind (a catchable signal does not) */
		fd = mkstemp(tmp);
		if (fd < 0) {
			err = errno;
			free(tmp);
			return lbtfi_err(err, "%s: cannot create a temporary file: %s", path,
					 lbtfi_strerror(err));
		}
		pending_add(tmp);
	}
	if (exists) {
		/* keep the owner (group alone if the owner cannot be given away),
		 * then the mode (a chown may clear set-id bits) */
		if (fchown(fd, st.st_uid, st.st_gid) && fchown(fd, (uid_t)-1, st.st_gid)) {
			/* not permitted: the file becomes the caller's, as with any editor */
		}
		err = fchmod(fd, st.st_mode & 07777);
	} else {
		err = fchmod(fd, new_file_mode(mode));
	}
	if (err) {
		err = lbtfi_err(errno, "%s: cannot set the mode: %s", path, lbtfi_strerror(errno));
		if (!is_unnamed(fd))
			unlink(tmp);
		close(fd);
		pending_remove(tmp);
		free(tmp);
		return err;
	}
	*tmp_path = tmp;
	return fd;
}

static int commit(int fd, char *tmp, const char *path, int err, bool sync)
{
	/* where an unnamed file ended: nowhere yet, at a new name, or over a file */
	enum { UNPLACED, PLACED_NEW, PLACED_OVER } placed = UNPLACED;
	bool unnamed;
	char *target;
	int e;

	if (!tmp) { /* not a regular file: written in place */
		if (close(fd) && !err)
			err = lbtfi_err(errno, "%s: cannot close: %s", path, lbtfi_strerror(errno));
		return err;
	}
	/* the file replaced is the one the temporary name was made from (a
	 * symbolic link's target) */
	target = strndup(tmp, strlen(tmp) - (sizeof(TMP_SUFFIX) - 1));
	if (!target && !err)
		err = lbtfi_err(ENOMEM, "out of memory");
	if (!err && sync && fsync(fd))
		err = lbtfi_err(errno, "%s: cannot sync: %s", path, lbtfi_strerror(errno));
	/* complete: an unnamed file that replaces nothing is linked at its
	 * place at once; one that replaces a file is put there by
	 * replace_target() (a failed one has no name to remove: closing it is
	 * enough) */
	unnamed = is_unnamed(fd);
	if (!err && unnamed && !link_at_target(fd, target))
		placed = PLACED_NEW;
	else if (!err && unnamed && (e = replace_target(fd, tmp, target)))
		err = lbtfi_err(-e, "%s: cannot put the new file in place: %s", path,
				lbtfi_strerror(-e));
	else if (!err && unnamed)
		placed = PLACED_OVER;
	if (close(fd) && !err) {
		err = lbtfi_err(errno, "%s: cannot close: %s", path, lbtfi_strerror(errno));
		/* a new file, replacing nothing, is removed; a replaced one
		 * cannot be brought back */
		if (placed == PLACED_NEW)
			unlink(target);
	}
	/* the named temporary file of the fallback */
	if (!err && !unnamed && rename(tmp, target))
		err = lbtfi_err(errno, "%s: cannot rename the temporary file into place: %s",
				path, lbtfi_strerror(errno));
	if (err && !unnamed)
		unlink(tmp);
	pending_remove(tmp);
	free(target);
	free(tmp);
	return err;
}

int lbtfi_atomic_commit(int fd, char *tmp, const char *path, int err)
{
	return commit(fd, tmp, path, err, true);
}

int lbtfi_atomic_commit_synced(int fd, char *tmp, const char *path, int err)
{
	return commit(fd, tmp, path, err, false);
}

int lbtfi_write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size) {
		ssize_t n = write(fd, p, size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		size -= (size_t)n;
	}
	return 0;
}

int lbtfi_write_file_atomic(const char *path, const void *data, size_t size)
{
	char *tmp;
	int fd = lbtfi_atomic_open(path, &tmp, 0644), err;

	if (fd < 0)
		return fd;
	err = lbtfi_write_all(fd, data, size);
	if (err)
		err = lbtfi_err(-err, "%s: cannot write: %s", path, lbtfi_strerror(-err));
	return lbtfi_atomic_commit(fd, tmp, path, err);
}
