/* cachestat.c - cachestat(2): the kernel counts a range's cached pages from the page
 * cache's own index, in well under a millisecond for a GiB, where mmap + mincore needs a
 * mapping and a byte per page (14-17 ms for 1 GiB). glibc has no wrapper: syscall(2),
 * with the number from the system headers, or 451 (x86_64, arm64) where they predate
 * the call (configure decides). Kept apart from cache.c, whose <sys/mman.h> must not meet
 * <linux/mman.h>. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "config.h"
#include "observe/cachestat.h"

#ifdef HAVE_CACHESTAT
#include <sys/syscall.h>

#ifdef HAVE_LINUX_CACHESTAT_H
#include <linux/mman.h>
#define CACHESTAT_NR __NR_cachestat
#else
/* the kernel's ABI (include/uapi/linux/mman.h), for headers older than Linux 6.5 */
struct cachestat_range {
	uint64_t off;
	uint64_t len;
};

struct cachestat {
	uint64_t nr_cache;
	uint64_t nr_dirty;
	uint64_t nr_writeback;
	uint64_t nr_evicted;
	uint64_t nr_recently_evicted;
};
#define CACHESTAT_NR IOB_NR_CACHESTAT
#endif

int cachestat_pages(int fd, uint64_t off, uint64_t len, uint64_t *cached)
{
	struct cachestat_range r = { .off = off, .len = len };
	struct cachestat st = { 0 };

	if (syscall(CACHESTAT_NR, fd, &r, &st, 0) != 0)
		return -errno;
	*cached = st.nr_cache;
	return 0;
}

#else /* !HAVE_CACHESTAT */

int cachestat_pages(int fd, uint64_t off, uint64_t len, uint64_t *cached)
{
	(void)fd;
	(void)off;
	(void)len;
	*cached = 0;
	return -ENOSYS;
}

#endif
