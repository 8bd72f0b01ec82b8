/* scratch.c - scratch directories, the cleanup registry and the stop signals. */
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
#include "core/fsmake.h"
#include "core/scratch.h"
#ifdef HAVE_XATTR
#include <sys/xattr.h>
#endif

#define CLEANUP_SLOTS 64
#define MARK_NAME "user.iobattery"

/* The registry is read by the signal handler: fixed storage, no allocation. */
struct cleanup_slot {
	volatile sig_atomic_t used;
	int is_dir;
	enum cleanup_kind kind;
	unsigned long seq;		/* registration order */
	char path[PATH_MAX];
};

volatile sig_atomic_t sig_stop_flag;
static struct cleanup_slot cleanup_slots[CLEANUP_SLOTS];
static unsigned long cleanup_seq;

struct scratch {
	int slot;
	char dir[PATH_MAX];
};

/* The second signal removes what is registered at once. Files go with unlink(2), which is
 * async-signal-safe; directory trees go with scratch_rmtree, whose readdir may allocate:
 * that is a best effort that can in theory block if the signal lands inside malloc. The
 * I/O loops do not allocate, so in practice the signal arrives in a system call. */
static void remove_now(const struct cleanup_slot *s)
{
	if (s->kind == CLEANUP_MOUNT || s->kind == CLEANUP_LOOP) {
		/* mount(2) and ioctl(2) are system calls, safe here: the file system is
		 * detached now and goes when our files close at _exit, the loop device
		 * (autoclear) with it */
		(void)fsmake_undo(s->path, s->kind == CLEANUP_MOUNT, 1);
		return;
	}
	if (!s->is_dir) {
		unlink(s->path);
		return;
	}
	(void)scratch_rmtree(s->path);
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
	int i;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	for (i = 0; i < CLEANUP_SLOTS; i++) {
		if (cleanup_slots[i].used)
			continue;
		strcpy(cleanup_slots[i].path, path);
		cleanup_slots[i].is_dir = kind == CLEANUP_DIR;
		cleanup_slots[i].kind = kind;
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
		rc = fsmake_undo(s->path, s->kind == CLEANUP_MOUNT, 0);
	else if (s->is_dir)
		rc = scratch_rmtree(s->path);
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

int scratch_rmtree(const char *path)
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

int scratch_create(const char *parent, struct scratch **out)
{
	struct scratch *s;
	struct stat st;
	char abs[PATH_MAX];
	int n;

	if (stat(parent, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(parent, W_OK | X_OK) < 0)
		return -errno;
	if (!realpath(parent, abs))
		return -errno;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	n = snprintf(s->dir, sizeof(s->dir), "%s/iobattery.XXXXXX",
		     strcmp(abs, "/") ? abs : "");
	if (n < 0 || (size_t)n >= sizeof(s->dir)) {
		free(s);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(s->dir)) {
		n = -errno;
		free(s);
		return n;
	}
	s->slot = cleanup_register(s->dir, 1);
	if (s->slot < 0) {
		n = s->slot;
		rmdir(s->dir);
		free(s);
		return n;
	}
	*out = s;
	return 0;
}

int scratch_adopt(const char *dir, struct scratch **out)
{
	struct scratch *s;
	struct stat st;

	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (strlen(dir) >= PATH_MAX)
		return -ENAMETOOLONG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->slot = -1;		/* not ours to remove */
	strcpy(s->dir, dir);
	*out = s;
	return 0;
}

const char *scratch_dir(const struct scratch *s)
{
	return s->dir;
}

int scratch_path(const struct scratch *s, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", s->dir, name);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int scratch_destroy(struct scratch *s)
{
	int rc;

	if (!s)
		return 0;
	rc = cleanup_remove(s->slot);
	free(s);
	return rc;
}

void scratch_keep(struct scratch *s)
{
	if (!s)
		return;
	cleanup_unregister(s->slot);
	free(s);
}

int space_check(const char *dir, uint64_t need, uint64_t *avail)
{
	struct statvfs sv;
	uint64_t free_b, want;

	if (statvfs(dir, &sv) < 0)
		return -errno;
	free_b = (uint64_t)sv.f_bavail * (uint64_t)(sv.f_frsize ? sv.f_frsize : sv.f_bsize);
	if (avail)
		*avail = free_b;
	/* a file system that keeps no block count (ramfs) cannot be checked */
	if (sv.f_blocks == 0)
		return 0;
	want = need + need / 100 + (16u << 20);
	return free_b >= want ? 0 : -ENOSPC;
}

int space_fs_id(const char *dir, uint64_t *dev, uint64_t *size)
{
	struct statvfs sv;
	struct stat st;

	if (stat(dir, &st) < 0 || statvfs(dir, &sv) < 0)
		return -errno;
	*dev = (uint64_t)st.st_dev;
	*size = (uint64_t)sv.f_blocks * (uint64_t)(sv.f_frsize ? sv.f_frsize : sv.f_bsize);
	return 0;
}

int mark_created(int fd)
{
#ifdef HAVE_XATTR
	if (fsetxattr(fd, MARK_NAME, "1", 1, 0) < 0)
		return -errno;
	return 0;
#else
	(void)fd;
	return -ENOTSUP;
#endif
}

const char *mark_hint(void)
{
#ifdef HAVE_XATTR
	return "";
#else
	return " (this build cannot mark the files it makes: no extended attributes)";
#endif
}

int is_marked(const char *path)
{
#ifdef HAVE_XATTR
	char v[4];
	ssize_t n = lgetxattr(path, MARK_NAME, v, sizeof(v));

	if (n >= 0)
		return 1;
	if (errno == ENOENT || errno == ENOTDIR)
		return -errno;
	return 0;
#else
	(void)path;
	return 0;
#endif
}
