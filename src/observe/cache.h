/* cache.h - page-cache residency (cachestat(2) where the kernel has it, else mmap +
 * mincore) and dropping a file's pages. Thread-safe. */
#ifndef IOB_OBSERVE_CACHE_H
#define IOB_OBSERVE_CACHE_H

#include <stdint.h>

/* Share (0..100) of the pages of [off, off+len) of fd resident in the page cache.
 * Returns 0 and *pct, or -errno (e.g. -ENODEV for a pipe). len 0 gives 0%. */
int cache_resident(int fd, uint64_t off, uint64_t len, double *pct);
/* The same by one method only (for tests): mincore over a mapping of the file, or
 * cachestat(2) (-ENOSYS where the build or the kernel lacks it). */
int cache_resident_mincore(int fd, uint64_t off, uint64_t len, double *pct);
int cache_resident_cachestat(int fd, uint64_t off, uint64_t len, double *pct);
/* Ask the kernel to drop the file's clean pages (fdatasync first, then
 * posix_fadvise(DONTNEED)). Returns 0 or -errno. */
int cache_drop(int fd);
/* Ask the kernel to drop the file's clean pages without flushing first (dirty pages stay
 * until written back), as fio's invalidate does between passes. 0 or -errno. */
int cache_forget(int fd);
/* Drop the whole page cache (Linux, root: sync + /proc/sys/vm/drop_caches = 3).
 * 0 or -errno (-EPERM when not root). */
int cache_drop_all(void);
/* Verdict sentence for a residency share, e.g.
 * "cache: 97% resident - this measured RAM, not the disk". Returns buf. */
char *cache_verdict(char *buf, unsigned long len, double pct, int dropped);
/* Residency at or above which a read figure is flagged cache-inflated. */
#define CACHE_INFLATED_PCT 50.0

#endif
