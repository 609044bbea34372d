// SPDX-License-Identifier: BSD-2-Clause
/* User-space types for the C dump parity check: compiled with gcc -g and
 * turned into BTF with pahole -J (glibc structs, va_list, unions with
 * anonymous members, function pointers, __int128). */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

struct user_mix {
	FILE *f;
	va_list ap;
	struct sigaction sa;
	pthread_mutex_t lock;
	struct sockaddr_storage ss;
	struct stat st;
	struct timespec ts;
	jmp_buf jb;
	unsigned __int128 u128;
	long double ld;
	_Bool flag;
	void (*cb)(int, siginfo_t *, void *);
};

struct user_mix user_mix_global;

int user_fn(struct user_mix *m, int n, ...)
{
	return m->flag + n;
}
