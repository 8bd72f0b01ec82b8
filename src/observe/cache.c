/* cache.c - page-cache residency (cachestat, else mincore) and dropping pages from the
 * cache. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "observe/cache.h"
#include "observe/cachestat.h"

#define CACHE_CHUNK	(1ull << 30)	/* map at most 1 GiB at a time */

#ifdef HAVE_MINCORE
/* Count resident pages of [off, off+len) (page-aligned off) with one mapping. */
static int cache_count_chunk(int fd, uint64_t off, uint64_t len, uint64_t pg,
			     unsigned char *vec, uint64_t *resident)
{
	uint64_t npages = (len + pg - 1) / pg, i;
	void *map;
	int rc = 0;

	map = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (map == MAP_FAILED)
		return -errno;
	if (mincore(map, (size_t)len, vec) != 0)
		rc = -errno;
	else
		for (i = 0; i < npages; i++)
			*resident += vec[i] & 1;
	munmap(map, (size_t)len);
	return rc;
}
#endif

/* Resident pages of [start, end) (start page-aligned) by mapping the file and asking
 * mincore, 1 GiB at a time. 0 or -errno (-ENOSYS without mincore). */
static int cache_count_mincore(int fd, uint64_t start, uint64_t end, uint64_t pg,
			       uint64_t *resident)
{
#ifdef HAVE_MINCORE
	uint64_t pos, chunk;
	unsigned char *vec;
	int rc = 0;

	vec = malloc((size_t)(CACHE_CHUNK / pg));
	if (!vec)
		return -ENOMEM;
	for (pos = start; pos < end; pos += chunk) {
		chunk = end - pos < CACHE_CHUNK ? end - pos : CACHE_CHUNK;
		rc = cache_count_chunk(fd, pos, chunk, pg, vec, resident);
		if (rc < 0)
			break;
	}
	free(vec);
	return rc;
#else
	(void)fd;
	(void)start;
	(void)end;
	(void)pg;
	(void)resident;
	return -ENOSYS;
#endif
}

/* Share of resident pages of [off, off+len) of fd, counted by method (0: cachestat,
 * falling back to mincore when it fails; 1: mincore only; 2: cachestat only). */
static int cache_resident_by(int fd, uint64_t off, uint64_t len, int method, double *pct)
{
	struct stat st;
	uint64_t pg, start, end, resident = 0;
	long psz;
	int rc = -ENOSYS;

	*pct = 0;
	if (fstat(fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENODEV;
	if (off >= (uint64_t)st.st_size)
		return 0;
	if (len > (uint64_t)st.st_size - off)
		len = (uint64_t)st.st_size - off;	/* pages past EOF cannot be mapped */
	if (len == 0)
		return 0;
	psz = sysconf(_SC_PAGESIZE);
	pg = psz > 0 ? (uint64_t)psz : 4096;
	start = off / pg * pg;
	end = off + len;
	/* cachestat counts the pages holding [start, end), as mincore sees them; on a
	 * kernel before 6.5 it fails with ENOSYS (any failure: mincore decides) */
	if (method != 1)
		rc = cachestat_pages(fd, start, end - start, &resident);
	if (rc < 0 && method != 2) {
		resident = 0;
		rc = cache_count_mincore(fd, start, end, pg, &resident);
	}
	if (rc < 0)
		return rc;
	*pct = (double)resident * 100.0 / (double)((end - start + pg - 1) / pg);
	if (*pct > 100)
		*pct = 100;
	return 0;
}

int cache_resident(int fd, uint64_t off, uint64_t len, double *pct)
{
	return cache_resident_by(fd, off, len, 0, pct);
}

int cache_resident_mincore(int fd, uint64_t off, uint64_t len, double *pct)
{
	return cache_resident_by(fd, off, len, 1, pct);
}

int cache_resident_cachestat(int fd, uint64_t off, uint64_t len, double *pct)
{
	return cache_resident_by(fd, off, len, 2, pct);
}

int cache_drop(int fd)
{
#ifdef HAVE_FDATASYNC
	if (fdatasync(fd) != 0 && errno != EINVAL && errno != EROFS)
		return -errno;
#else
	if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
		return -errno;
#endif
#ifdef HAVE_POSIX_FADVISE
	{
		int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

		return rc ? -rc : 0;
	}
#else
	return -ENOSYS;
#endif
}

int cache_forget(int fd)
{
#ifdef HAVE_POSIX_FADVISE
	int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	return rc ? -rc : 0;
#else
	(void)fd;
	return -ENOSYS;
#endif
}

int cache_drop_all(void)
{
	int fd;
	ssize_t n;

	if (geteuid() != 0)
		return -EPERM;
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, "3", 1);
	if (n != 1) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return -e;
	}
	if (close(fd) != 0)
		return -errno;
	return 0;
}

char *cache_verdict(char *buf, unsigned long len, double pct, int dropped)
{
	/* decide on the figure as printed, so "90%" never reads "partly RAM" */
	pct = pct < 0 ? 0 : pct > 100 ? 100 : (double)(long)(pct + 0.5);
	if (pct >= 90)
		snprintf(buf, len, "cache: %.0f%% resident - this measured RAM, not the disk%s",
			 pct, dropped ? " (dropped before the read, but the kernel kept it)" : "");
	else if (pct >= 10)
		snprintf(buf, len, "cache: %.0f%% resident - partly RAM, partly the disk%s",
			 pct, dropped ? " (dropped before the read)" : "");
	else
		snprintf(buf, len, "cache: %.0f%% resident - read from the device%s",
			 pct, dropped ? " (dropped before the read)" : "");
	return buf;
}
