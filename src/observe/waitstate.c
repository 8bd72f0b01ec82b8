/* waitstate.c - thread states and wait channels from /proc/PID/task, counted per
 * (state, wchan, syscall). */
#define _GNU_SOURCE	/* gettid */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "observe/waitstate.h"

void waitstate_acc_init(struct waitstate_acc *acc)
{
	memset(acc, 0, sizeof(*acc));
}

static void ws_copy(char *dst, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= WAITSTATE_NAME_LEN)
		n = WAITSTATE_NAME_LEN - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

int waitstate_acc_add(struct waitstate_acc *acc, char state, const char *wchan,
		      const char *syscall)
{
	char w[WAITSTATE_NAME_LEN], s[WAITSTATE_NAME_LEN];
	unsigned i;

	ws_copy(w, wchan);
	ws_copy(s, syscall);
	acc->observations++;
	for (i = 0; i < acc->nkeys; i++) {
		const struct waitstate_key *k = &acc->key[i];

		if (k->state == state && !strcmp(k->wchan, w) && !strcmp(k->syscall, s)) {
			acc->count[i]++;
			return (int)i;
		}
	}
	if (acc->nkeys == WAITSTATE_MAX_KEYS) {
		acc->overflow++;
		return -ENOSPC;
	}
	acc->key[i].state = state;
	memcpy(acc->key[i].wchan, w, sizeof(w));
	memcpy(acc->key[i].syscall, s, sizeof(s));
	acc->count[i] = 1;
	acc->nkeys++;
	return (int)i;
}

int waitstate_wchan_hidden(const struct waitstate_acc *acc)
{
	if (!acc->sleeping)
		return -1;
	return acc->wchan_zero + acc->wchan_denied >= acc->sleeping ? 1 : 0;
}

uint64_t waitstate_count_state(const struct waitstate_acc *acc, char st)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < acc->nkeys; i++)
		if (acc->key[i].state == st)
			n += acc->count[i];
	return n;
}

char waitstate_parse_stat(const char *text)
{
	const char *p = strrchr(text, ')');

	if (!p || p[1] != ' ' || !p[2] || p[2] == ' ' || p[2] == '\n')
		return 0;
	return p[2];
}

void waitstate_parse_stack(const char *text, char *out, size_t len)
{
	static const char *const pre[] = { "__x64_sys_", "__arm64_sys_", "__ia32_sys_",
					   "__se_sys_", "__do_sys_", "ksys_", "sys_" };
	const char *p = text;

	if (len)
		out[0] = '\0';
	while (p && *p) {
		const char *f = strchr(p, ']'), *nl = strchr(p, '\n');

		if (f && (!nl || f < nl)) {
			size_t n;

			for (f++; *f == ' '; f++)
				;
			n = strcspn(f, "+ \n");
			for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
				size_t pl = strlen(pre[i]);

				if (n > pl && strncmp(f, pre[i], pl) == 0) {
					n -= pl;
					if (n >= len)
						n = len - 1;
					memcpy(out, f + pl, n);
					out[n] = '\0';
					return;
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
}

#ifdef HAVE_PROC_TASKS
int waitstate_tid(void)
{
	return (int)gettid();
}

int waitstate_open(struct waitstate_src *src, int pid, int exclude_tid, int want_stack)
{
	char path[64];
	DIR *d;

	memset(src, 0, sizeof(*src));
	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/task");
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	src->pid = pid;
	src->exclude_tid = exclude_tid;
	src->want_stack = want_stack;
	src->dir = d;
	return 0;
}

/* Read the file TID/leaf under the task directory into buf; length or -errno. */
static long ws_read(int dfd, const char *tid, const char *leaf, char *buf, size_t len)
{
	char rel[80];
	ssize_t n;
	int fd;

	snprintf(rel, sizeof(rel), "%s/%s", tid, leaf);
	fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (close(fd) < 0)
		return -errno;
	buf[n] = '\0';
	return (long)n;
}

/* One thread: its state, and for a thread not running its wchan and stack. 1 when
 * counted, 0 when it went away meanwhile. */
static int ws_thread(struct waitstate_src *src, int dfd, const char *tid,
		     struct waitstate_acc *acc)
{
	char stat[1024], wchan[WAITSTATE_NAME_LEN + 8], sys[WAITSTATE_NAME_LEN], stack[4096];
	const char *w = "";
	long n;
	char st;

	if (ws_read(dfd, tid, "stat", stat, sizeof(stat)) < 0)
		return 0;
	st = waitstate_parse_stat(stat);
	if (!st)
		return 0;
	sys[0] = '\0';
	if (st != 'R' && st != 'Z' && st != 'X') {
		acc->sleeping++;
		n = ws_read(dfd, tid, "wchan", wchan, sizeof(wchan));
		if (n == -EACCES || n == -EPERM) {
			acc->wchan_denied++;
		} else if (n >= 0) {
			wchan[strcspn(wchan, "\n")] = '\0';
			if (!wchan[0] || !strcmp(wchan, "0"))
				acc->wchan_zero++;
			else
				w = wchan;
		}
		if (src->want_stack) {
			n = ws_read(dfd, tid, "stack", stack, sizeof(stack));
			if (n == -EACCES || n == -EPERM) {
				acc->stack_denied++;
				src->want_stack = 0;	/* not root: do not try again */
			} else if (n >= 0) {
				acc->stack_read++;
				waitstate_parse_stack(stack, sys, sizeof(sys));
			}
		}
	}
	waitstate_acc_add(acc, st, w, sys);
	return 1;
}

int waitstate_sample(struct waitstate_src *src, struct waitstate_acc *acc)
{
	DIR *d = src->dir;
	struct dirent *e;
	int seen = 0, dfd;

	if (!d)
		return -EBADF;
	dfd = dirfd(d);
	if (src->nonly) {
		char id[16];

		for (unsigned i = 0; i < src->nonly; i++) {
			snprintf(id, sizeof(id), "%d", src->only[i]);
			seen += ws_thread(src, dfd, id, acc);
		}
		acc->passes++;
		return seen;
	}
	/* procfs lists the threads alive now on every pass from the start */
	rewinddir(d);
	errno = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (src->exclude_tid && atoi(e->d_name) == src->exclude_tid)
			continue;
		seen += ws_thread(src, dfd, e->d_name, acc);
	}
	if (errno == ENOENT || errno == ESRCH)
		return -ESRCH;
	acc->passes++;
	return seen ? seen : (src->pid > 0 ? -ESRCH : 0);
}

int waitstate_close(struct waitstate_src *src)
{
	int rc = 0;

	if (src->dir && closedir(src->dir) < 0)
		rc = -errno;
	src->dir = NULL;
	return rc;
}
#else
int waitstate_tid(void)
{
	return 0;
}

int waitstate_open(struct waitstate_src *src, int pid, int exclude_tid, int want_stack)
{
	(void)pid;
	(void)exclude_tid;
	(void)want_stack;
	memset(src, 0, sizeof(*src));
	return -ENOSYS;
}

int waitstate_sample(struct waitstate_src *src, struct waitstate_acc *acc)
{
	(void)src;
	(void)acc;
	return -ENOSYS;
}

int waitstate_close(struct waitstate_src *src)
{
	src->dir = NULL;
	return 0;
}
#endif
