/* discard.c - ENGINE_OP_DISCARD, the trim of fio's rw=trim: the POSIX default every
 * engine falls back to (none has an asynchronous form of it for files; io_uring's only
 * discard is a block-device command of newer kernels), and the probe that says whether a
 * descriptor can be trimmed and how. Thread-safe (no state). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "engine/engine.h"
#ifdef HAVE_BLKDISCARD
#include <linux/fs.h>
#endif
#ifdef __linux__
#include <sys/sysmacros.h>
#endif

int64_t engine_discard(int fd, uint64_t off, size_t len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off)
		return -EFBIG;
	if (S_ISBLK(st.st_mode)) {
#ifdef HAVE_BLKDISCARD
		uint64_t range[2] = { off, len };

		if (ioctl(fd, BLKDISCARD, range) < 0)
			return -errno;
		return (int64_t)len;
#else
		return -ENOSYS;
#endif
	}
	if (!S_ISREG(st.st_mode))
		return -ENOTTY;
#ifdef HAVE_PUNCH_HOLE
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0)
		return -errno;
	return (int64_t)len;
#else
	return -ENOSYS;
#endif
}

#ifdef HAVE_BLKDISCARD
/* A number from /sys/dev/block/MAJ:MIN/queue/NAME, or from the parent's queue for a
 * partition. 0 or -errno. */
static int sys_queue(const struct stat *st, const char *name, uint64_t *v)
{
	static const char *const where[2] = { "queue", "../queue" };
	char path[128], buf[32];
	unsigned i;

	for (i = 0; i < 2; i++) {
		FILE *f;
		int ok;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/%s", major(st->st_rdev),
			 minor(st->st_rdev), where[i], name);
		f = fopen(path, "re");
		if (!f)
			continue;
		ok = fgets(buf, sizeof(buf), f) != NULL;
		fclose(f);
		if (ok && sscanf(buf, "%" SCNu64, v) == 1)
			return 0;
	}
	return -ENOENT;
}
#endif

/* The file system type of the mount holding st (mountinfo's field after " - "), or "". */
static void fs_type_of(const struct stat *st, char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024];

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned mj, mn;
		const char *sep;
		char fs[32];

		if (sscanf(line, "%*s %*s %u:%u", &mj, &mn) != 2 ||
		    ((uint64_t)mj << 20 | mn) != ((uint64_t)major(st->st_dev) << 20 |
						  minor(st->st_dev)))
			continue;
		sep = strstr(line, " - ");
		if (sep && sscanf(sep + 3, "%31s", fs) == 1) {
			snprintf(buf, len, "%s", fs);
			break;
		}
	}
	fclose(f);
}

int engine_discard_probe(int fd, struct engine_discard_info *di)
{
	struct stat st;

	memset(di, 0, sizeof(*di));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		di->kind = ENGINE_DISCARD_BLKDEV;
#ifdef HAVE_BLKDISCARD
		if (sys_queue(&st, "discard_max_bytes", &di->max_bytes) < 0)
			return -EOPNOTSUPP;	/* no queue figures: cannot tell, do not try */
		if (sys_queue(&st, "discard_granularity", &di->granularity) < 0 ||
		    !di->granularity)
			di->granularity = 512;
		return di->max_bytes ? 0 : -EOPNOTSUPP;
#else
		return -ENOSYS;
#endif
	}
	if (!S_ISREG(st.st_mode))
		return -ENOTTY;
	di->kind = ENGINE_DISCARD_PUNCH;
	di->granularity = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
	fs_type_of(&st, di->fstype, sizeof(di->fstype));
#ifdef HAVE_PUNCH_HOLE
	{
		/* a hole past the end of the file (KEEP_SIZE: the size stays) changes no
		 * byte, but a file system without punch hole refuses it all the same */
		uint64_t at = ((uint64_t)st.st_size / di->granularity + 1) * di->granularity;

		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)at,
			      (off_t)di->granularity) < 0)
			return -errno;
		return 0;
	}
#else
	return -ENOSYS;
#endif
}

const char *engine_discard_method(int kind)
{
	return kind == ENGINE_DISCARD_BLKDEV ? "BLKDISCARD" :
	       "fallocate(FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE)";
}
