/* t_core.c - page-cache residency and verdicts, CPU accounting, clocks, progress off. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "observe/cache.h"
#include "core/clock.h"
#include "observe/cpu.h"
#include "core/progress.h"
#include "stats/result.h"

static void t_cache_resident(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096], *buf;
	double pct = -1;
	int fd, p[2];
	size_t len = 4u << 20;

	snprintf(path, sizeof(path), "%s/iob-t_core.XXXXXX", dir);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	buf = malloc(len);
	if (buf) {
		memset(buf, 'x', len);
		CHECK(write(fd, buf, len) == (ssize_t)len);
		free(buf);
	}
	/* just written: the pages are in the cache (unless memory is very short) */
	CHECK(cache_resident(fd, 0, len, &pct) == 0 && pct > 50 && pct <= 100);
	CHECK(cache_resident(fd, 4097, len, &pct) == 0 && pct > 50 && pct <= 100);
	CHECK(cache_resident(fd, 0, 0, &pct) == 0 && pct == 0);
	CHECK(cache_resident(fd, len * 2, 10, &pct) == 0 && pct == 0);
	/* dropping may not shrink residency (tmpfs keeps its pages): only the call */
	CHECK(cache_drop(fd) == 0);
	CHECK(cache_resident(fd, 0, len, &pct) == 0 && pct >= 0 && pct <= 100);
	close(fd);
	CHECK(pipe(p) == 0);
	CHECK(cache_resident(p[0], 0, 10, &pct) == -ENODEV);
	close(p[0]);
	close(p[1]);
	if (geteuid() != 0)
		CHECK(cache_drop_all() == -EPERM);
}

/* Both ways of counting agree on a file half in the cache: written, made durable, then
 * the second half dropped with POSIX_FADV_DONTNEED. They may differ a little (2 points
 * allowed): the two counts are taken one after the other, and the kernel may evict
 * (memory pressure from other processes) or the writeback of a neighbour may touch pages
 * in between; each count is exact for its own instant. */
static void t_cache_methods(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096], *buf;
	double m = -1, c = -1;
	size_t len = 8u << 20;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/iob-t_core.XXXXXX", dir);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	buf = malloc(len);
	CHECK(buf != NULL);
	if (buf) {
		memset(buf, 'y', len);
		CHECK(write(fd, buf, len) == (ssize_t)len);
		free(buf);
	}
	CHECK(fdatasync(fd) == 0);
#ifdef POSIX_FADV_DONTNEED
	CHECK(posix_fadvise(fd, (off_t)len / 2, (off_t)len / 2, POSIX_FADV_DONTNEED) == 0);
#endif
	CHECK(cache_resident_mincore(fd, 0, len, &m) == 0 && m >= 0 && m <= 100);
	rc = cache_resident_cachestat(fd, 0, len, &c);
	if (rc == -ENOSYS || rc == -EOPNOTSUPP) {
		printf("note: no cachestat here (%s): mincore only\n", strerror(-rc));
		CHECK(cache_resident(fd, 0, len, &c) == 0);	/* the fallback */
		CHECK_NEAR(c, m, 2);
		close(fd);
		return;
	}
	CHECK(rc == 0);
	CHECK_NEAR(c, m, 2);
	/* half in the cache unless DONTNEED does nothing here (tmpfs keeps its pages) */
	if (m < 90) {
		CHECK(m > 30 && m < 70);
		CHECK(cache_resident_cachestat(fd, 0, len / 2, &c) == 0 && c > 90);
		CHECK(cache_resident_cachestat(fd, len / 2, len / 2, &c) == 0 && c < 10);
	} else {
		printf("note: POSIX_FADV_DONTNEED dropped nothing (%.0f%% resident)\n", m);
	}
	/* each half, and an unaligned range, counted the same both ways */
	CHECK(cache_resident_mincore(fd, 0, len / 2, &m) == 0);
	CHECK(cache_resident_cachestat(fd, 0, len / 2, &c) == 0);
	CHECK_NEAR(c, m, 2);
	CHECK(cache_resident_mincore(fd, len / 2, len / 2, &m) == 0);
	CHECK(cache_resident_cachestat(fd, len / 2, len / 2, &c) == 0);
	CHECK_NEAR(c, m, 2);
	CHECK(cache_resident_mincore(fd, len / 4 + 1, len / 2, &m) == 0);
	CHECK(cache_resident_cachestat(fd, len / 4 + 1, len / 2, &c) == 0);
	CHECK_NEAR(c, m, 2);
	/* what cache_resident itself reports is the cachestat figure */
	CHECK(cache_resident(fd, 0, len, &m) == 0);
	CHECK(cache_resident_cachestat(fd, 0, len, &c) == 0);
	CHECK_NEAR(c, m, 2);
	/* past the end and empty ranges: 0% either way */
	CHECK(cache_resident_cachestat(fd, len * 2, 10, &c) == 0 && c == 0);
	CHECK(cache_resident_cachestat(fd, 0, 0, &c) == 0 && c == 0);
	close(fd);
}

static void t_verdict(void)
{
	char b[128];

	CHECK(strcmp(cache_verdict(b, sizeof(b), 97.2, 0),
		     "cache: 97% resident - this measured RAM, not the disk") == 0);
	CHECK(strcmp(cache_verdict(b, sizeof(b), 45, 0),
		     "cache: 45% resident - partly RAM, partly the disk") == 0);
	CHECK(strcmp(cache_verdict(b, sizeof(b), 2, 0),
		     "cache: 2% resident - read from the device") == 0);
	CHECK(strcmp(cache_verdict(b, sizeof(b), 0, 1),
		     "cache: 0% resident - read from the device (dropped before the read)") == 0);
	CHECK(strncmp(cache_verdict(b, sizeof(b), 89.7, 0), "cache: 90% resident - this", 26) == 0);
}

static void t_cpu(void)
{
	struct cpu_sample a, b;
	struct row_cpu c;
	volatile unsigned long x = 0;
	unsigned long i;

	cpu_sample_now(&a);
	for (i = 0; i < 20000000; i++)
		x += i;
	cpu_sample_now(&b);
	cpu_fill(&c, &a, &b, 1000);
	CHECK(c.valid == 1);
	CHECK(c.user_s >= 0 && c.sys_s >= 0);
	CHECK(c.proc_pct >= 0 && c.sys_busy_pct >= 0 && c.sys_busy_pct <= 100.0001);
	CHECK_NEAR(c.cpu_ns_per_op, (c.user_s + c.sys_s) * 1e9 / 1000, 1);
	cpu_fill(&c, &a, &b, 0);
	CHECK(c.cpu_ns_per_op == 0);
	CHECK(cpu_count() >= 1);
}

static void t_clock(void)
{
	char b[32];
	uint64_t t0 = clock_ns();

	CHECK(clock_ns() >= t0);
	CHECK(clock_wall_s() > 1.5e9);
	clock_iso8601(b, sizeof(b));
	CHECK(strlen(b) == 20 && b[4] == '-' && b[10] == 'T' && b[19] == 'Z');
}

static void t_progress_off(void)
{
	struct progress p;

	progress_init(&p, 0, "write", "B", 100);
	CHECK(p.enabled == 0 && p.next_ns == UINT64_MAX);
	progress_tick(&p, 50, clock_ns());
	progress_done(&p);
	CHECK(p.drawn == 0);
}

int main(void)
{
	RUN(t_cache_resident);
	RUN(t_cache_methods);
	RUN(t_verdict);
	RUN(t_cpu);
	RUN(t_clock);
	RUN(t_progress_off);
	return test_done();
}
