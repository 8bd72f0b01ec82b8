/* scratch_sweep.c - the owner's mark on a scratch directory, and the removal of those a
 * killed process left (a rank SIGKILLed in an MPI run cannot remove its own).
 *
 * The mark is an extended attribute of the directory (SCRATCH_OWNER_XATTR) holding
 * "BOOT-ID PID-NAMESPACE PID HOST": the boot of this machine (Linux's boot_id, so that
 * two machines of one host name sharing a file system are told apart), the pid namespace
 * (two containers of one machine), the pid and the host name. A directory is removed only
 * when its mark names this boot and this pid namespace and a process that is gone; one
 * without the mark, of another machine, boot or namespace, of a living process, or with a
 * mount inside is left alone. Linux only (the boot id and the namespace are read from
 * /proc): elsewhere no mark is written and nothing is removed. */
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
#include <unistd.h>

#include "config.h"
#include "core/err.h"
#include "fs/scratch.h"
#if defined(HAVE_XATTR) && defined(HAVE_LINUX_PROCFS)
#include <sys/xattr.h>
#define SWEEP_BUILT 1
#endif

#define SCRATCH_OWNER_XATTR	"user.iobattery.owner"

#ifdef SWEEP_BUILT
int scratch_machine_id(char *buf, size_t len)
{
	char boot[64] = "", ns[64];
	ssize_t n;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (!f)
		return -errno;
	if (!fgets(boot, sizeof(boot), f))
		boot[0] = '\0';
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
	if (!boot[0] || n <= 0)
		return -ENOENT;
	ns[n] = '\0';
	snprintf(buf, len, "%s %s", boot, ns);
	return 0;
}

int scratch_mark_owner(const char *dir)
{
	char where[160], host[64] = "", v[256];

	if (scratch_machine_id(where, sizeof(where)) < 0)
		return -ENOTSUP;
	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "unknown");
	snprintf(v, sizeof(v), "%s %ld %s", where, (long)getpid(), host);
	return setxattr(dir, SCRATCH_OWNER_XATTR, v, strlen(v), 0) < 0 ? -errno : 0;
}

void scratch_unmark_owner(const char *dir)
{
	(void)removexattr(dir, SCRATCH_OWNER_XATTR);
}

/* The pid of dir's owner when its mark names this boot and namespace, else 0. */
static long owner_here(const char *dir, const char *where)
{
	char v[256], *end;
	size_t wl = strlen(where);
	ssize_t n = lgetxattr(dir, SCRATCH_OWNER_XATTR, v, sizeof(v) - 1);
	long pid;

	if (n <= 0)
		return 0;
	v[n] = '\0';
	if (strncmp(v, where, wl) || v[wl] != ' ')
		return 0;
	pid = strtol(v + wl + 1, &end, 10);
	return pid > 0 && *end == ' ' ? pid : 0;
}

/* 1 when a directory right inside dir is on another device (a mount: the battery's,
 * which `battery --cleanup` unmounts first), or dir cannot be read. */
static int has_mount(const char *dir, dev_t dev)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	int fd, found = 0;

	if (!d)
		return 1;
	fd = dirfd(d);
	while (!found && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode) && st.st_dev != dev)
			found = 1;
	}
	closedir(d);
	return found;
}

/* Is entry name of parent a directory a gone process of this machine left? Its pid. */
static long left_by_dead(const char *path, const char *name, const char *where)
{
	struct stat st;
	long pid;

	if (strncmp(name, "iobattery.", 10) || strlen(name) != 16)
		return 0;
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return 0;
	pid = owner_here(path, where);
	if (pid <= 0 || pid == (long)getpid())
		return 0;
	if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;	/* alive, a zombie, or not ours to ask: alive */
	return has_mount(path, st.st_dev) ? 0 : pid;
}

int scratch_sweep(const char *parent)
{
	char where[160], path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n = 0, r;
	long pid;

	if (scratch_machine_id(where, sizeof(where)) < 0)
		return 0;
	d = opendir(parent);
	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		if (snprintf(path, sizeof(path), "%s/%s", parent, e->d_name) >= (int)sizeof(path))
			continue;
		pid = left_by_dead(path, e->d_name, where);
		if (!pid)
			continue;
		r = cleanup_rmtree(path);
		if (r == -ENOENT)
			continue;	/* another process swept it first */
		if (r < 0) {
			err_errno(r, "cannot remove the scratch directory a killed run left: '%s'",
				  path);
			continue;
		}
		err_msg("removed the scratch directory a killed run left: '%s' (its process "
			"%ld is gone)", path, pid);
		n++;
	}
	closedir(d);
	return n;
}
#else
int scratch_mark_owner(const char *dir)
{
	(void)dir;
	return -ENOTSUP;
}

void scratch_unmark_owner(const char *dir)
{
	(void)dir;
}

int scratch_machine_id(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return -ENOTSUP;
}

int scratch_sweep(const char *parent)
{
	(void)parent;
	return 0;
}
#endif
