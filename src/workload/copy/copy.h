/* copy.h - the cp workload: copy a file to a new file, by a named method. */
#ifndef IOB_WORKLOAD_COPY_H
#define IOB_WORKLOAD_COPY_H

#include <stdint.h>

struct runner;

enum copy_method {
	COPY_AUTO,		/* copy_file_range, falling back to rw where unsupported (as cp) */
	COPY_RW,		/* read/write loop with a stated buffer */
	COPY_RANGE,		/* copy_file_range(2) only */
	COPY_SENDFILE,		/* sendfile(2) */
};

struct copy_job {
	const char *src, *dst;
	enum copy_method method;
	uint64_t buffer;	/* rw buffer and per-call length for the others */
	int dst_exists;		/* dst exists now: open it without O_CREAT|O_EXCL */
	int dst_ours;		/* ... made by an earlier repeat: remove it on failure */
	int keep_output;	/* keep dst after success (cp does) */
	int drop_cache;		/* drop the source's pages first, so the copy reads the device */
};

/* Name of a method ("rw", "copy_file_range", ...). */
const char *copy_method_name(enum copy_method m);
/* Parse a method name; 0 or -EINVAL. */
int copy_method_parse(const char *s, enum copy_method *out);

/* Copy and append one row ("copy") to rc->run: buffered time (until the last call
 * returned, what `time cp` shows), durable time (until an fdatasync of the copy returned),
 * the method actually used, the source's page-cache residency, and ROW_TOO_FAST when the
 * copy ran faster than this machine's memory copies bytes (reflink, server-side copy).
 * On failure or interruption the destination is removed unless it existed before.
 * Returns 0, -errno, or -EINTR. */
int copy_run(struct runner *rc, const struct copy_job *job);

/* A copy_file_range copy slower than this (bytes/s) is below the memory-copy rate of any
 * machine iobattery targets, so it cannot be "too fast" and the probe is skipped (where
 * shared extents cannot be asked for, or on a network file system). */
#define COPY_PROBE_FLOOR 1e9

/* Memory copy bandwidth in bytes/s (memcpy of a 64 MiB buffer, best of 3). 0 on ENOMEM. */
double copy_memory_bandwidth(void);

#endif
