/* cleanup.c - the stop signals and the cleanup registry (core/cleanup.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "config.h"
#include "core/cleanup.h"

#define CLEANUP_SLOTS 64

/* The registry is read by the signal handler: fixed storage, no allocation. */
struct cleanup_slot {
	volatile sig_atomic_t used;
	int is_dir;
	enum cleanup_kind kind;
	cleanup_undo_fn undo;		/* CLEANUP_MOUNT, CLEANUP_LOOP: what undoes it */
	unsigned long seq;		/* registration order */
	char path[PATH_MAX];
};

volatile sig_atomic_t sig_stop_flag;
static struct cleanup_slot cleanup_slots[CLEANUP_SLOTS];
static unsigned long cleanup_seq;

/* The second signal removes what is registered at once. Files go with unlink(2), which is
 * async-signal-safe; directory trees go with cleanup_rmtree, whose readdir may allocate:
 * that is a best effort that can in theory block if the signal lands inside malloc. The
 * I/O loops do not allocate, so in practice the signal arrives in a system call. */
static void remove_now(const struct cleanup_slot *s)
{
	if (s->kind == CLEANUP_MOUNT || s->kind == CLEANUP_LOOP) {
		/* mount(2) and ioctl(2) are system calls, safe here: the file system is
		 * detached now and goes when our files close at _exit, the loop device
		 * (autoclear) with it */
		(void)s->undo(s->path, s->kind == CLEANUP_MOUNT, 1);
		return;
	}
	if (!s->is_dir) {
		unlink(s->path);
		return;
	}
	(void)cleanup_rmtree(s->path);
}

static volatile sig_atomic_t unlink_first;

void sig_unlink_on_first(void)
{
	unlink_first = 1;
}

static void on_signal(int sig)
{
	int i, last;

	if (sig_stop_flag <= 0) {
		sig_stop_flag = sig;
		for (i = 0; unlink_first && i < CLEANUP_SLOTS; i++)
			if (cleanup_slots[i].used && !cleanup_slots[i].is_dir)
				unlink(cleanup_slots[i].path);	/* async-signal-safe */
		return;
	}
	/* the latest registration first */
	do {
		last = -1;
		for (i = 0; i < CLEANUP_SLOTS; i++)
			if (cleanup_slots[i].used &&
			    (last < 0 || cleanup_slots[i].seq > cleanup_slots[last].seq))
				last = i;
		if (last >= 0) {
			remove_now(&cleanup_slots[last]);
			cleanup_slots[last].used = 0;
		}
	} while (last >= 0);
	_exit(130);
}

int sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -errno;
	return 0;
}

int cleanup_register(const char *path, int is_dir)
{
	return cleanup_register_kind(path, is_dir ? CLEANUP_DIR : CLEANUP_FILE);
}

int cleanup_register_kind(const char *path, enum cleanup_kind kind)
{
	return cleanup_register_undo(path, kind, NULL);
}

int cleanup_register_undo(const char *path, enum cleanup_kind kind, cleanup_undo_fn undo)
{
	int i;

	if ((kind == CLEANUP_MOUNT || kind == CLEANUP_LOOP) != (undo != NULL))
		return -EINVAL;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	for (i = 0; i < CLEANUP_SLOTS; i++) {
		if (cleanup_slots[i].used)
			continue;
		strcpy(cleanup_slots[i].path, path);
		cleanup_slots[i].is_dir = kind == CLEANUP_DIR;
		cleanup_slots[i].kind = kind;
		cleanup_slots[i].undo = undo;
		cleanup_slots[i].seq = ++cleanup_seq;
		cleanup_slots[i].used = 1;
		return i;
	}
	return -ENOSPC;
}

void cleanup_unregister(int slot)
{
	if (slot >= 0 && slot < CLEANUP_SLOTS)
		cleanup_slots[slot].used = 0;
}

int cleanup_remove(int slot)
{
	struct cleanup_slot *s;
	int rc = 0;

	if (slot < 0 || slot >= CLEANUP_SLOTS || !cleanup_slots[slot].used)
		return 0;
	s = &cleanup_slots[slot];
	if (s->kind == CLEANUP_MOUNT || s->kind == CLEANUP_LOOP)
		rc = s->undo(s->path, s->kind == CLEANUP_MOUNT, 0);
	else if (s->is_dir)
		rc = cleanup_rmtree(s->path);
	else if (unlink(s->path) < 0 && errno != ENOENT)
		rc = -errno;
	s->used = 0;
	return rc;
}

/* Remove everything inside the directory open as dfd (closed here), depth first, never
 * following symlinks: entries are examined with fstatat(AT_SYMLINK_NOFOLLOW) and
 * directories opened with O_NOFOLLOW, so a link planted inside is removed, not followed. */
static int rmtree_fd(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = -errno;
		close(dfd);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT && !rc)
				rc = -errno;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int r2 = sub < 0 ? -errno : rmtree_fd(sub);

			if (r2 < 0 && !rc)
				rc = r2;
			if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT &&
			    !rc)
				rc = -errno;
		} else if (unlinkat(dirfd(d), de->d_name, 0) < 0 && errno != ENOENT && !rc) {
			rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

int cleanup_rmtree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	rc = rmtree_fd(fd);
	if (rmdir(path) < 0 && errno != ENOENT && !rc)
		rc = -errno;
	return rc;
}
