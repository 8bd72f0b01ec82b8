/* cachestat.h - the number of a file's pages in the page cache from cachestat(2)
 * (Linux 6.5+), without mapping the file. Linux-only, behind HAVE_CACHESTAT; elsewhere,
 * and on a kernel without the system call, it says -ENOSYS and the caller counts with
 * mincore (cache.c). Thread-safe. */
#ifndef IOB_OBSERVE_CACHESTAT_H
#define IOB_OBSERVE_CACHESTAT_H

#include <stdint.h>

/* Pages of fd in the page cache among those that hold bytes [off, off+len) (off and len
 * need not be page-aligned; len 0 means to the end of the file): 0 and *cached, or
 * -errno: -ENOSYS where cachestat is not built or the kernel lacks it, -EOPNOTSUPP for a
 * file system it does not serve (hugetlbfs), -EBADF, ... */
int cachestat_pages(int fd, uint64_t off, uint64_t len, uint64_t *cached);

#endif
