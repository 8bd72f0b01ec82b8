/* diskstats_walk.c - the block devices behind a path, from sysfs: st_dev -> major:minor ->
 * /sys/dev/block/M:m -> the device's directory; a partition -> its whole disk; a loop
 * device -> loop/backing_file -> that file's device; a dm or md device -> its slaves/.
 * File systems whose st_dev is not a block device (btrfs, and anything without one) are
 * looked up in mountinfo by st_dev, whose source names the device when there is one;
 * btrfs gives its files an anonymous st_dev that mountinfo does not list, so a path
 * whose st_dev is in neither is looked up by the mount point that holds it. */
#define _XOPEN_SOURCE 700	/* realpath */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "config.h"
#include "observe/diskstats.h"

void diskstats_init(struct diskstats_set *set)
{
	memset(set, 0, sizeof(*set));
	set->fd = -1;
	set->diskstats_path = "/proc/diskstats";
}

#ifdef HAVE_DISKSTATS
#include <sys/sysmacros.h>

struct ds_walk {
	const char *sysroot;
	const char *mountinfo;
	struct diskstats_set *set;
};

/* The first line of a small file, without its newline; 0 or -errno. */
static int ds_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *nl;

	buf[0] = '\0';
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
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

/* "dir/leaf" into out; 0, or -ENAMETOOLONG. */
static int ds_join(char *out, size_t len, const char *dir, const char *leaf)
{
	int n = snprintf(out, len, "%s/%s", dir, leaf);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int ds_exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];
	struct stat st;

	return ds_join(p, sizeof(p), dir, leaf) == 0 && stat(p, &st) == 0;
}

/* Keep the first note on a part of the stack that could not be followed. */
static void ds_note(struct diskstats_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void ds_note(struct diskstats_set *set, const char *fmt, ...)
{
	va_list ap;

	if (set->reason[0])
		return;
	va_start(ap, fmt);
	vsnprintf(set->reason, sizeof(set->reason), fmt, ap);
	va_end(ap);
}

/* Integer or -1 from a sysfs file "dir/leaf". */
static long ds_read_long(const char *dir, const char *leaf)
{
	char p[PATH_MAX], buf[64], *end;
	long v;

	if (ds_join(p, sizeof(p), dir, leaf) < 0 || ds_read_small(p, buf, sizeof(buf)) < 0)
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf ? -1 : v;
}

/* The scheduler in brackets of "none [mq-deadline] kyber", or the only one listed. */
static void ds_pick_scheduler(const char *line, char *out, size_t len)
{
	const char *o = strchr(line, '['), *c = o ? strchr(o, ']') : NULL;
	size_t n;

	out[0] = '\0';
	if (o && c) {
		o++;
		n = (size_t)(c - o);
	} else {
		for (o = line; *o == ' '; o++)
			;
		n = strcspn(o, " ");
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, o, n);
	out[n] = '\0';
}

/* Queue facts from qdir/queue (the whole disk's directory for a partition). */
static void ds_queue(const char *qdir, struct diskstats_queue *q)
{
	char p[PATH_MAX], buf[256];
	long v;

	q->write_cache = q->fua = q->rotational = -1;
	q->scheduler[0] = '\0';
	if (ds_join(p, sizeof(p), qdir, "queue") < 0)
		return;
	if (ds_read_long(p, "rotational") >= 0)
		q->rotational = ds_read_long(p, "rotational") ? 1 : 0;
	if (ds_read_long(p, "fua") >= 0)
		q->fua = ds_read_long(p, "fua") ? 1 : 0;
	v = ds_read_long(p, "logical_block_size");
	q->logical_block = v > 0 ? (unsigned)v : 0;
	v = ds_read_long(p, "physical_block_size");
	q->physical_block = v > 0 ? (unsigned)v : 0;
	if (ds_join(buf, sizeof(buf), p, "write_cache") == 0) {
		char wc[64];

		if (ds_read_small(buf, wc, sizeof(wc)) == 0)
			q->write_cache = strstr(wc, "back") ? 1 : strstr(wc, "through") ? 0 : -1;
	}
	if (ds_join(buf, sizeof(buf), p, "scheduler") == 0) {
		char line[256];

		if (ds_read_small(buf, line, sizeof(line)) == 0)
			ds_pick_scheduler(line, q->scheduler, sizeof(q->scheduler));
	}
}

static int ds_add_node(struct ds_walk *w, const char *dir, enum diskstats_role role,
		       int parent, unsigned depth);

/* Add the device major:minor from sysroot/dev/block; -ENOENT when sysfs lacks it. */
static int ds_add_devnum(struct ds_walk *w, unsigned mj, unsigned mn, enum diskstats_role role,
			 int parent, unsigned depth)
{
	char p[PATH_MAX], rp[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s/dev/block/%u:%u", w->sysroot, mj, mn) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	if (!realpath(p, rp))
		return -errno;
	return ds_add_node(w, rp, role, parent, depth);
}

/* The mount whose device is mj:mn: its fstype and source. 0 or -ENOENT. */
static int ds_mount_of(const char *mountinfo, unsigned mj, unsigned mn, char *fstype,
		       size_t flen, char *source, size_t slen)
{
	FILE *f = fopen(mountinfo, "re");
	char line[4096];
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc && fgets(line, sizeof(line), f)) {
		unsigned a, b;
		char *sep = strstr(line, " - "), fs[64], src[1024];

		/* id parent maj:min root mountpoint opts [optional...] - fstype source opts */
		if (!sep || sscanf(line, "%*u %*u %u:%u", &a, &b) != 2 || a != mj || b != mn)
			continue;
		if (sscanf(sep + 3, "%63s %1023s", fs, src) != 2)
			continue;
		snprintf(fstype, flen, "%s", fs);
		snprintf(source, slen, "%s", src);
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* Add the device behind st_dev value dev: sysfs directly, else the mount's source. */
static int ds_add_dev_t(struct ds_walk *w, dev_t dev, enum diskstats_role role, int parent,
			unsigned depth)
{
	char fs[64] = "", src[1024] = "";
	struct stat st;
	int rc;

	rc = ds_add_devnum(w, major(dev), minor(dev), role, parent, depth);
	if (rc != -ENOENT)
		return rc;
	if (ds_mount_of(w->mountinfo, major(dev), minor(dev), fs, sizeof(fs), src, sizeof(src)))
		return -ENODEV;
	if (src[0] == '/' && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
		return ds_add_devnum(w, major(st.st_rdev), minor(st.st_rdev), role, parent,
				     depth);
	ds_note(w->set, "no block device: a %s file system ('%s')", fs, src);
	return -ENODEV;
}

/* Decode mountinfo's octal escapes (\040 for a space) in place. */
static void ds_unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* The mount holding the absolute path rp (the longest mount point that is rp or a folder
 * above it): its fstype and source. 0 or -ENOENT. */
static int ds_mount_at(const char *mountinfo, const char *rp, char *fstype, size_t flen,
		       char *source, size_t slen)
{
	FILE *f = fopen(mountinfo, "re");
	char line[4096], mp[PATH_MAX], fs[64], src[1024];
	size_t best = 0, n;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		/* id parent maj:min root mountpoint opts [optional...] - fstype source opts */
		if (!sep || sscanf(line, "%*u %*u %*u:%*u %*s %4095s", mp) != 1 ||
		    sscanf(sep + 3, "%63s %1023s", fs, src) != 2)
			continue;
		ds_unescape(mp);
		n = strlen(mp);
		if (strncmp(rp, mp, n) || (n > 1 && rp[n] != '/' && rp[n] != '\0') ||
		    (best && n < best))
			continue;
		best = n;
		snprintf(fstype, flen, "%s", fs);
		snprintf(source, slen, "%s", src);
	}
	fclose(f);
	return best ? 0 : -ENOENT;
}

/* The device a mount's source names: the node's numbers, else (no such node here)
 * sysroot/class/block/NAME/dev. -ENODEV when it names none. */
static int ds_add_source(struct ds_walk *w, const char *src)
{
	char p[PATH_MAX], num[32];
	const char *name = strrchr(src, '/');
	unsigned mj, mn;
	struct stat st;

	if (src[0] != '/')
		return -ENODEV;
	if (stat(src, &st) == 0)
		return S_ISBLK(st.st_mode) ? ds_add_devnum(w, major(st.st_rdev), minor(st.st_rdev),
							   DISKSTATS_TOP, -1, 0) : -ENODEV;
	if (snprintf(p, sizeof(p), "%s/class/block/%s/dev", w->sysroot, name + 1) >=
	    (int)sizeof(p) || ds_read_small(p, num, sizeof(num)) < 0 ||
	    sscanf(num, "%u:%u", &mj, &mn) != 2)
		return -ENODEV;
	return ds_add_devnum(w, mj, mn, DISKSTATS_TOP, -1, 0);
}

/* A path whose st_dev neither sysfs nor mountinfo knows (btrfs): its mount point's
 * source. 0 or -ENODEV. */
static int ds_add_by_mount(struct ds_walk *w, const char *path)
{
	char rp[PATH_MAX], fs[64] = "", src[1024] = "";

	if (!realpath(path, rp) ||
	    ds_mount_at(w->mountinfo, rp, fs, sizeof(fs), src, sizeof(src)) < 0)
		return -ENODEV;
	if (!w->set->fstype[0])
		snprintf(w->set->fstype, sizeof(w->set->fstype), "%s", fs);
	return ds_add_source(w, src) < 0 ? -ENODEV : 0;
}

/* A loop device's backing file: its device joins the set below index idx. */
static void ds_backing(struct ds_walk *w, const char *dir, int idx, unsigned depth)
{
	char p[PATH_MAX], file[PATH_MAX];
	struct stat st;
	size_t n;

	if (ds_join(p, sizeof(p), dir, "loop/backing_file") < 0 ||
	    ds_read_small(p, file, sizeof(file)) < 0 || !file[0])
		return;
	n = strlen(file);
	if (n > 10 && strcmp(file + n - 10, " (deleted)") == 0) {
		ds_note(w->set, "%s: backing file '%s' deleted", w->set->dev[idx].name, file);
		return;
	}
	if (stat(file, &st) < 0) {
		ds_note(w->set, "%s: backing file '%s' not found", w->set->dev[idx].name, file);
		return;
	}
	ds_add_dev_t(w, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, DISKSTATS_BACKING, idx,
		     depth + 1);
}

static int ds_name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The members of a dm or md device: the entries of dir/slaves, in name order so that a
 * set is the same on every run. */
static void ds_slaves(struct ds_walk *w, const char *dir, int idx, unsigned depth)
{
	char p[PATH_MAX], q[PATH_MAX], rp[PATH_MAX];
	char names[DISKSTATS_MAX_DEVS][DISKSTATS_NAME_LEN];
	unsigned n = 0;
	struct dirent *e;
	DIR *d;

	if (ds_join(p, sizeof(p), dir, "slaves") < 0 || !(d = opendir(p)))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == DISKSTATS_MAX_DEVS || strlen(e->d_name) >= DISKSTATS_NAME_LEN) {
			w->set->left_out++;
			continue;
		}
		memcpy(names[n++], e->d_name, strlen(e->d_name) + 1);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), ds_name_cmp);
	for (unsigned i = 0; i < n; i++)
		if (ds_join(q, sizeof(q), p, names[i]) == 0 && realpath(q, rp))
			ds_add_node(w, rp, DISKSTATS_MEMBER, idx, depth + 1);
}

/* Add the device whose sysfs directory (a real path) is dir, then what lies below it. */
static int ds_add_node(struct ds_walk *w, const char *dir, enum diskstats_role role,
		       int parent, unsigned depth)
{
	struct diskstats_set *set = w->set;
	char p[PATH_MAX], devno[32], up[PATH_MAX], *slash;
	struct diskstats_dev *d;
	unsigned mj, mn;
	int idx;

	if (ds_join(p, sizeof(p), dir, "dev") < 0 || ds_read_small(p, devno, sizeof(devno)) < 0 ||
	    sscanf(devno, "%u:%u", &mj, &mn) != 2)
		return -ENOENT;
	for (unsigned i = 0; i < set->ndev; i++)
		if (set->dev[i].major == mj && set->dev[i].minor == mn)
			return (int)set->ndev;	/* met before: a shared member, or a loop */
	if (set->ndev == DISKSTATS_MAX_DEVS || depth > DISKSTATS_MAX_DEPTH) {
		set->left_out++;
		return (int)set->ndev;
	}
	idx = (int)set->ndev++;
	d = &set->dev[idx];
	memset(d, 0, sizeof(*d));
	d->major = mj;
	d->minor = mn;
	d->role = role;
	d->parent = parent;
	d->depth = depth;
	slash = strrchr(dir, '/');
	snprintf(d->name, sizeof(d->name), "%s", slash ? slash + 1 : dir);
	if (ds_join(p, sizeof(p), dir, "dm/name") == 0)
		ds_read_small(p, d->alias, sizeof(d->alias));
	d->partition = ds_exists(dir, "partition");
	snprintf(up, sizeof(up), "%s", dir);
	slash = strrchr(up, '/');
	if (d->partition && slash && slash != up) {
		*slash = '\0';
		ds_queue(up, &d->queue);
		ds_add_node(w, up, DISKSTATS_DISK, idx, depth + 1);
		return (int)set->ndev;
	}
	ds_queue(dir, &d->queue);
	ds_backing(w, dir, idx, depth);
	ds_slaves(w, dir, idx, depth);
	return (int)set->ndev;
}


int diskstats_add_dev(const char *sysroot, unsigned major, unsigned minor,
		      struct diskstats_set *set)
{
	struct ds_walk w = { sysroot ? sysroot : "/sys", "/proc/self/mountinfo", set };

	return ds_add_devnum(&w, major, minor, DISKSTATS_TOP, -1, 0);
}

int diskstats_find_at(const char *sysroot, const char *mountinfo, const char *path,
		      struct diskstats_set *set)
{
	struct ds_walk w = { sysroot, mountinfo, set };
	char src[8];
	struct stat st;
	int rc;

	diskstats_init(set);
	if (stat(path, &st) < 0) {
		rc = -errno;
		snprintf(set->reason, sizeof(set->reason), "cannot stat '%s': %s", path,
			 strerror(-rc));
		return rc;
	}
	if (S_ISBLK(st.st_mode)) {
		rc = ds_add_devnum(&w, major(st.st_rdev), minor(st.st_rdev), DISKSTATS_TOP, -1, 0);
	} else {
		int known = ds_mount_of(mountinfo, major(st.st_dev), minor(st.st_dev),
					set->fstype, sizeof(set->fstype), src, sizeof(src)) == 0;

		rc = ds_add_dev_t(&w, st.st_dev, DISKSTATS_TOP, -1, 0);
		if (rc == -ENODEV && !known && !set->ndev && ds_add_by_mount(&w, path) == 0)
			rc = 0;
	}
	if (set->ndev)
		return (int)set->ndev;
	if (!set->reason[0])
		snprintf(set->reason, sizeof(set->reason), "no block device for %u:%u in %s",
			 major(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev),
			 minor(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev), sysroot);
	return rc < 0 ? rc : -ENODEV;
}

int diskstats_find(const char *path, struct diskstats_set *set)
{
	return diskstats_find_at("/sys", "/proc/self/mountinfo", path, set);
}

#elif !defined(HAVE_DEVSTAT)	/* neither: no device statistics; devstat: diskstats_bsd.c */

static void ds_unavailable(struct diskstats_set *set)
{
	diskstats_init(set);
	snprintf(set->reason, sizeof(set->reason),
		 "device statistics are not available in this build (Linux /proc/diskstats)");
}

int diskstats_add_dev(const char *sysroot, unsigned major, unsigned minor,
		      struct diskstats_set *set)
{
	(void)sysroot;
	(void)major;
	(void)minor;
	(void)set;
	return -ENOSYS;
}

int diskstats_find_at(const char *sysroot, const char *mountinfo, const char *path,
		      struct diskstats_set *set)
{
	(void)sysroot;
	(void)mountinfo;
	(void)path;
	ds_unavailable(set);
	return -ENOSYS;
}

int diskstats_find(const char *path, struct diskstats_set *set)
{
	return diskstats_find_at("/sys", "/proc/self/mountinfo", path, set);
}
#endif
