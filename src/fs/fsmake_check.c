/* fsmake_check.c - the checks before a block device is wiped, and the leftovers of a
 * killed battery (fsmake.h). */
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
#include "fs/fsmake.h"
#include "fs/scratch.h"

#ifdef HAVE_LOOP_MOUNT
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#endif

#define MAX_FOUND 64

int fsmake_mark_dir(const char *dir)
{
	char path[PATH_MAX], text[64];
	int fd, n, rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, FSMAKE_MARK_FILE) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	n = snprintf(text, sizeof(text), "iobattery battery %ld\n", (long)getpid());
	if (write(fd, text, (size_t)n) != n)
		rc = errno ? -errno : -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

#ifdef HAVE_LOOP_MOUNT
/* The owner's pid in scratch directory dir's mark file; 0 when dir has no mark. */
static long dir_owner(const char *dir)
{
	char path[PATH_MAX], text[64];
	long pid = 0;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, FSMAKE_MARK_FILE) >= (int)sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	if (sscanf(text, "iobattery battery %ld", &pid) != 1 || pid <= 0)
		return 0;
	return pid;
}

/* A running process (other than us: our own leftovers are not left over). */
static int alive(long pid)
{
	if (pid == (long)getpid())
		return 0;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* "iobattery.XXXXXX" */
static int scratch_name(const char *name)
{
	return strlen(name) == 16 && !strncmp(name, "iobattery.", 10);
}

/* Undo mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Is mount point mp ours and left over? Its scratch directory into dir. */
static int our_mount(const char *mp, char *dir, size_t len)
{
	const char *base = strrchr(mp, '/'), *pb;
	size_t dl;

	if (!base || strncmp(base + 1, FSMAKE_MNT_PREFIX, strlen(FSMAKE_MNT_PREFIX)))
		return 0;
	dl = (size_t)(base - mp);
	if (dl + 1 > len)
		return 0;
	memcpy(dir, mp, dl);
	dir[dl] = '\0';
	pb = strrchr(dir, '/');
	if (!pb || !scratch_name(pb + 1))
		return 0;
	return dir_owner(dir) > 0 && !alive(dir_owner(dir));
}

static int add_dir(char (*dirs)[PATH_MAX], int n, const char *d)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(dirs[i], d))
			return n;
	if (n < MAX_FOUND)
		snprintf(dirs[n++], PATH_MAX, "%s", d);
	return n;
}

static int mounts_found(char (*mps)[PATH_MAX], char (*dirs)[PATH_MAX], int *nd)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[8192], dir[PATH_MAX];
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && n < MAX_FOUND) {
		char *save = NULL, *w = strtok_r(line, " ", &save);
		int field;

		for (field = 1; w && field < 5; field++)
			w = strtok_r(NULL, " ", &save);
		if (!w)
			continue;
		unescape(w);
		if (our_mount(w, dir, sizeof(dir))) {
			snprintf(mps[n++], PATH_MAX, "%s", w);
			*nd = add_dir(dirs, *nd, dir);
		}
	}
	fclose(f);
	return n;
}

/* Our loop devices whose owner is gone, into devs. */
static int loops_found(char (*devs)[PATH_MAX])
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL && n < MAX_FOUND) {
		struct loop_info64 li;
		char path[PATH_MAX];
		long pid = 0;
		int fd;

		if (strncmp(de->d_name, "loop", 4) || !de->d_name[4])
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&li, 0, sizeof(li));
		if (ioctl(fd, LOOP_GET_STATUS64, &li) == 0 &&
		    !strncmp((const char *)li.lo_file_name, FSMAKE_LOOP_MARK,
			     strlen(FSMAKE_LOOP_MARK)) &&
		    sscanf((const char *)li.lo_file_name + strlen(FSMAKE_LOOP_MARK), "%ld",
			   &pid) == 1 && !alive(pid))
			snprintf(devs[n++], PATH_MAX, "%s", path);
		close(fd);
	}
	closedir(d);
	return n;
}

static int dirs_found(const char *dir, char (*dirs)[PATH_MAX], int nd)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;
	char path[PATH_MAX];

	if (!d)
		return nd;
	while ((de = readdir(d)) != NULL) {
		long pid;

		if (!scratch_name(de->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		pid = dir_owner(path);
		if (pid > 0 && !alive(pid))
			nd = add_dir(dirs, nd, path);
	}
	closedir(d);
	return nd;
}

static int by_length_desc(const void *a, const void *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

int fsmake_leftovers(const char *dir, int apply, fsmake_report_fn fn, void *arg)
{
	static char mps[MAX_FOUND][PATH_MAX], devs[MAX_FOUND][PATH_MAX],
		dirs[MAX_FOUND][PATH_MAX];
	char abs[PATH_MAX];
	int nm, nl, nd = 0, i;

	nm = mounts_found(mps, dirs, &nd);
	if (nm < 0)
		return nm;
	/* the deepest mount first */
	qsort(mps, (size_t)nm, PATH_MAX, by_length_desc);
	for (i = 0; i < nm; i++)
		fn(arg, "mount", mps[i], apply ? fsmake_undo(mps[i], 1, 0) : 0);
	nl = loops_found(devs);
	if (nl < 0)
		nl = 0;
	for (i = 0; i < nl; i++)
		fn(arg, "loop device", devs[i], apply ? fsmake_undo(devs[i], 0, 0) : 0);
	if (dir && realpath(dir, abs))
		nd = dirs_found(abs, dirs, nd);
	for (i = 0; i < nd; i++)
		fn(arg, "scratch directory", dirs[i], apply ? cleanup_rmtree(dirs[i]) : 0);
	return nm + nl + nd;
}

/* The first signature found in the device's first bytes, or NULL. */
static const char *signature(const unsigned char *b, size_t n)
{
	if (n >= 4 && !memcmp(b, "XFSB", 4))
		return "an xfs file system";
	if (n >= 6 && !memcmp(b, "LUKS\xba\xbe", 6))
		return "a LUKS volume";
	if (n >= 1082 && b[1080] == 0x53 && b[1081] == 0xef)
		return "an ext2/3/4 file system";
	if (n >= 1028 && b[1024] == 0x10 && b[1025] == 0x20 && b[1026] == 0xf5 &&
	    b[1027] == 0xf2)
		return "an f2fs file system";
	if (n >= 65608 && !memcmp(b + 65600, "_BHRfS_M", 8))
		return "a btrfs file system";
	if (n >= 520 && !memcmp(b + 512, "EFI PART", 8))
		return "a GPT partition table";
	if (n >= 520 && !memcmp(b + 512, "LABELONE", 8))
		return "an LVM physical volume";
	if (n >= 4096 && (!memcmp(b + 4086, "SWAPSPACE2", 10) || !memcmp(b + 4086, "SWAP-SPACE",
									   10)))
		return "swap space";
	if (n >= 32774 && !memcmp(b + 32769, "CD001", 5))
		return "an ISO 9660 file system";
	if (n >= 512 && b[510] == 0x55 && b[511] == 0xaa)
		return "a partition table or boot sector";
	return NULL;
}

/* Is the device major:minor, or a partition of it, mounted? Its mount point into mp. */
static int mounted(dev_t rdev, char *mp, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[8192];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char point[4096], sys[PATH_MAX], real[PATH_MAX], parent[64];
		FILE *pf;

		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, point) != 3)
			continue;
		if (makedev(ma, mi) == rdev) {
			found = 1;
		} else {
			/* a partition: its parent's dev file names the whole disk */
			snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/partition", ma, mi);
			if (access(sys, F_OK) < 0)
				continue;
			snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/..", ma, mi);
			if (!realpath(sys, real))
				continue;
			strncat(real, "/dev", sizeof(real) - strlen(real) - 1);
			pf = fopen(real, "r");
			if (!pf)
				continue;
			if (fgets(parent, sizeof(parent), pf) &&
			    sscanf(parent, "%u:%u", &ma, &mi) == 2 && makedev(ma, mi) == rdev)
				found = 1;
			fclose(pf);
		}
		if (found) {
			unescape(point);
			snprintf(mp, len, "%s", point);
		}
	}
	fclose(f);
	return found;
}

/* A holder in sysfs (device mapper, md) or a swap area on it: its name into who. */
static int held(dev_t rdev, const char *dev, char *who, size_t len)
{
	char path[PATH_MAX], line[PATH_MAX + 64];
	struct dirent *de;
	DIR *d;
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(rdev), minor(rdev));
	d = opendir(path);
	while (d && !found && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.') {
			snprintf(who, len, "%s", de->d_name);
			found = 1;
		}
	if (d)
		closedir(d);
	f = found ? NULL : fopen("/proc/swaps", "r");
	while (f && !found && fgets(line, sizeof(line), f)) {
		char name[PATH_MAX];
		struct stat st;

		if (sscanf(line, "%4095s", name) == 1 && stat(name, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == rdev) {
			snprintf(who, len, "swap");
			found = 1;
		}
	}
	if (f)
		fclose(f);
	(void)dev;
	return found;
}

int fsmake_device_check(const char *dev, int force, char *why, size_t len)
{
	static unsigned char buf[68 * 1024];
	char where[PATH_MAX];
	const char *sig;
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(dev, &st) < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, len, "not a block device");
		return -ENOTBLK;
	}
	if (mounted(st.st_rdev, where, sizeof(where))) {
		snprintf(why, len, "it is mounted (at %s)", where);
		return -EBUSY;
	}
	if (held(st.st_rdev, dev, where, sizeof(where))) {
		snprintf(why, len, "it is in use (by %s)", where);
		return -EBUSY;
	}
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, errno == EBUSY ? "it is in use" : "%s", strerror(errno));
		return errno == EBUSY ? -EBUSY : -errno;
	}
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n < 0) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return -EIO;
	}
	sig = signature(buf, (size_t)n);
	if (sig && !force) {
		snprintf(why, len, "it holds %s: name it again with --force-wipe to destroy it",
			 sig);
		return -EINVAL;
	}
	return 0;
}

int fsmake_device_size(const char *dev, uint64_t *bytes)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, bytes) < 0)
		rc = -errno;
	close(fd);
	return rc;
}
#else
int fsmake_leftovers(const char *dir, int apply, fsmake_report_fn fn, void *arg)
{
	(void)dir;
	(void)apply;
	(void)fn;
	(void)arg;
	return -ENOSYS;
}

int fsmake_device_check(const char *dev, int force, char *why, size_t len)
{
	(void)dev;
	(void)force;
	snprintf(why, len, "file systems are made on Linux only");
	return -ENOSYS;
}

int fsmake_device_size(const char *dev, uint64_t *bytes)
{
	(void)dev;
	(void)bytes;
	return -ENOSYS;
}
#endif
