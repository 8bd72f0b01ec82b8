/* fsmake.c - the sparse image, the loop device, mkfs, mount and unmount (fsmake.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "fs/fsmake.h"
#include "fs/scratch.h"

#ifdef HAVE_LOOP_MOUNT
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#endif

extern char **environ;

static const struct fsmake_type types[] = {
	{ "ext2", "mkfs.ext2", "-F", "-q", "e2fsprogs", 1u << 20 },
	{ "ext3", "mkfs.ext3", "-F", "-q", "e2fsprogs", 2u << 20 },
	{ "ext4", "mkfs.ext4", "-F", "-q", "e2fsprogs", 2u << 20 },
	{ "xfs", "mkfs.xfs", "-f", "-q", "xfsprogs", 300u << 20 },
	{ "btrfs", "mkfs.btrfs", "-f", "-q", "btrfs-progs", 114u << 20 },
};

const struct fsmake_type *fsmake_type(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	return NULL;
}

const char *fsmake_type_names(void)
{
	return "ext2, ext3, ext4, xfs or btrfs";
}

int fsmake_find(const struct fsmake_type *t, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[4096];
	char *save = NULL, *d;

	snprintf(dirs, sizeof(dirs), "%s:/sbin:/usr/sbin:/usr/local/sbin", env ? env : "");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (snprintf(path, len, "%s/%s", d, t->mkfs) >= (int)len)
			continue;
		if (access(path, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

int fsmake_image(const char *path, uint64_t bytes)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600), rc = 0;

	if (fd < 0)
		return -errno;
	(void)mark_created(fd);
	if (ftruncate(fd, (off_t)bytes) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlink(path);
	return rc;
}

#ifdef HAVE_LOOP_MOUNT
int fsmake_loop_attach(const char *file, char *dev, size_t len, int *fd, int *dio)
{
	struct loop_info64 li;
	int ctl, lfd = -1, ffd, n, tries, rc = -EBUSY;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	ffd = open(file, O_RDWR | O_CLOEXEC);
	if (ffd < 0) {
		rc = -errno;
		close(ctl);
		return rc;
	}
	/* another process may take the free device between the two calls: try again */
	for (tries = 0; tries < 8; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			rc = -errno;
			break;
		}
		snprintf(dev, len, "/dev/loop%d", n);
		lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			rc = -errno;
			break;
		}
		if (ioctl(lfd, LOOP_SET_FD, ffd) == 0) {
			rc = 0;
			break;
		}
		rc = -errno;
		close(lfd);
		lfd = -1;
		if (rc != -EBUSY)
			break;
	}
	close(ffd);
	close(ctl);
	if (rc)
		return rc;
	memset(&li, 0, sizeof(li));
	snprintf((char *)li.lo_file_name, sizeof(li.lo_file_name), "%s%ld", FSMAKE_LOOP_MARK,
		 (long)getpid());
	li.lo_flags = LO_FLAGS_AUTOCLEAR;
	if (ioctl(lfd, LOOP_SET_STATUS64, &li) < 0) {
		rc = -errno;
		(void)ioctl(lfd, LOOP_CLR_FD, 0);
		close(lfd);
		return rc;
	}
	/* as losetup --direct-io=on: no second page cache under the file system's own */
	*dio = ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL) == 0;
	*fd = lfd;
	return 0;
}

/* Mount options: the words mount(8) turns into flags, the rest for the file system. */
static unsigned long mount_flags(const char *opts, char *data, size_t len)
{
	static const struct { const char *w; unsigned long f; } fl[] = {
		{ "noatime", MS_NOATIME }, { "nodiratime", MS_NODIRATIME },
		{ "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
		{ "lazytime", MS_LAZYTIME }, { "sync", MS_SYNCHRONOUS },
		{ "dirsync", MS_DIRSYNC }, { "nosuid", MS_NOSUID }, { "nodev", MS_NODEV },
		{ "noexec", MS_NOEXEC }, { "rw", 0 }, { "defaults", 0 }, { "async", 0 },
	};
	char buf[1024], *save = NULL, *w;
	unsigned long flags = 0;
	size_t i, n = 0;

	data[0] = '\0';
	snprintf(buf, sizeof(buf), "%s", opts ? opts : "");
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(fl) / sizeof(fl[0]) && strcmp(fl[i].w, w); i++)
			;
		if (i < sizeof(fl) / sizeof(fl[0]))
			flags |= fl[i].f;
		else if (n < len)
			n += (size_t)snprintf(data + n, len - n, "%s%s", n ? "," : "", w);
	}
	return flags;
}

int fsmake_mount(const char *dev, const char *dir, const char *type, const char *opts,
		 char *msg, size_t len)
{
	char data[1024];
	unsigned long flags = mount_flags(opts, data, sizeof(data));
	int rc;

	msg[0] = '\0';
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		snprintf(msg, len, "cannot make the mount point: %s", strerror(-rc));
		return rc;
	}
	if (mount(dev, dir, type, flags, data[0] ? data : NULL) < 0) {
		rc = -errno;
		snprintf(msg, len, "mount -t %s%s%s: %s%s", type, opts && *opts ? " -o " : "",
			 opts && *opts ? opts : "", strerror(-rc),
			 rc == -EINVAL ? " (the kernel's log says which option)" : "");
		rmdir(dir);
		return rc;
	}
	return 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int fsmake_undo(const char *path, int is_mount, int in_signal)
{
	int fd, tries, rc = 0;

	if (is_mount) {
		if (in_signal)
			return umount2(path, MNT_DETACH) < 0 && errno != EINVAL &&
					       errno != ENOENT ? -errno : 0;
		for (tries = 0; tries < 20; tries++) {
			if (umount2(path, 0) == 0)
				break;
			rc = -errno;
			if (rc == -EINVAL || rc == -ENOENT)
				return 0;	/* not mounted (any more) */
			if (rc != -EBUSY)
				return rc;
			nap_ms(50);
		}
		if (tries == 20 && umount2(path, MNT_DETACH) < 0)
			return -errno;
		rmdir(path);
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENXIO ? 0 : -errno;
	/* the autoclear flag may have detached it already (ENXIO) */
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO)
		rc = -errno;
	close(fd);
	return rc;
}
#else
int fsmake_loop_attach(const char *file, char *dev, size_t len, int *fd, int *dio)
{
	(void)dio;
	(void)file;
	(void)dev;
	(void)len;
	(void)fd;
	return -ENOSYS;
}

int fsmake_mount(const char *dev, const char *dir, const char *type, const char *opts,
		 char *msg, size_t len)
{
	(void)dev;
	(void)dir;
	(void)type;
	(void)opts;
	snprintf(msg, len, "file systems are made and mounted on Linux only");
	return -ENOSYS;
}

int fsmake_undo(const char *path, int is_mount, int in_signal)
{
	(void)path;
	(void)is_mount;
	(void)in_signal;
	return 0;
}
#endif

int fsmake_has_direct(const char *dir)
{
#ifdef HAVE_O_DIRECT
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/.iobattery-direct.%ld", dir, (long)getpid()) >=
	    (int)sizeof(path))
		return 0;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0) {
		unlink(path);	/* a file system may create it and then refuse O_DIRECT */
		return 0;
	}
	close(fd);
	unlink(path);
	return 1;
#else
	(void)dir;
	return 0;
#endif
}

int fsmake_sync(const char *dir)
{
#ifdef HAVE_SYNCFS
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (syncfs(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
#else
	(void)dir;
	sync();
	return 0;
#endif
}

void fsmake_loop_release(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* The last lines of out (up to len bytes), on one line. */
static void tail_lines(const char *out, size_t n, char *msg, size_t len)
{
	size_t start = n > len - 1 ? n - (len - 1) : 0, i, k = 0;

	while (start < n && start > 0 && out[start - 1] != '\n')
		start++;
	for (i = start; i < n && k + 1 < len; i++) {
		char c = out[i];

		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c == ' ' && (k == 0 || msg[k - 1] == ' '))
			continue;
		msg[k++] = c;
	}
	while (k > 0 && msg[k - 1] == ' ')
		k--;
	msg[k] = '\0';
}

int fsmake_mkfs(const struct fsmake_type *t, const char *mkfs, const char *dev,
		const char *opts, char *msg, size_t len)
{
	char words[1024], *argv[64], out[4096], *save = NULL, *w;
	posix_spawn_file_actions_t fa;
	int p[2], st = 0, rc, argc = 0;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	msg[0] = '\0';
	snprintf(words, sizeof(words), "%s", opts ? opts : "");
	argv[argc++] = (char *)mkfs;
	argv[argc++] = (char *)t->force;
	argv[argc++] = (char *)t->quiet;
	for (w = strtok_r(words, " \t", &save); w && argc < 60; w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc++] = (char *)dev;
	argv[argc] = NULL;
	if (pipe(p) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	rc = posix_spawn(&pid, mkfs, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc) {
		close(p[0]);
		snprintf(msg, len, "cannot run %s: %s", mkfs, strerror(rc));
		return -rc;
	}
	/* keep the last sizeof(out) bytes of what mkfs says */
	for (;;) {
		char chunk[1024];

		got = read(p[0], chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (n + (size_t)got > sizeof(out)) {
			size_t drop = n + (size_t)got - sizeof(out);

			memmove(out, out + drop, n - drop);
			n -= drop;
		}
		memcpy(out + n, chunk, (size_t)got);
		n += (size_t)got;
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	tail_lines(out, n, msg, len);
	if (!msg[0])
		snprintf(msg, len, "%s %s", t->mkfs, WIFSIGNALED(st) ? "was killed" : "failed");
	return -EIO;
}
