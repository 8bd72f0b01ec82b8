/* null.c - the engine that does no I/O: every request completes at once with its full
 * length (reads return the length too; end of file never comes, so callers bound their
 * loops by count). It measures the tool's own per-request cost (timing, histogram,
 * loop) and drives tests without touching a disk. Metadata calls (open, unlink ...) are
 * the real POSIX defaults, so files a workload lays out exist. Stateless, thread-safe. */
#include <sys/types.h>

#include "engine/engine.h"

static int null_submit(void *ctx, struct engine_req **reqs, unsigned n)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < n; i++) {
		switch (reqs[i]->op) {
		case ENGINE_OP_FSYNC:
		case ENGINE_OP_FDATASYNC:
			reqs[i]->res = 0;
			break;
		default:
			reqs[i]->res = (int64_t)reqs[i]->len;
		}
	}
	return (int)n;
}

static ssize_t null_cwrite(int fd, const void *buf, size_t len)
{
	(void)fd;
	(void)buf;
	return (ssize_t)len;
}

static ssize_t null_cread(int fd, void *buf, size_t len)
{
	(void)fd;
	(void)buf;
	return (ssize_t)len;
}

const struct engine engine_null = {
	.name = "null",
	.summary = "no I/O: completes every request at once (overhead figures, tests)",
	.flags = ENGINE_F_NOIO,
	.submit = null_submit,
	.cwrite = null_cwrite,
	.cread = null_cread,
};
