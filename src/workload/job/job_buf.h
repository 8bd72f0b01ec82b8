/* job_buf.h - the data a job writes (fio's buffer options, job_xopts.h): the fill is
 * chosen once per thread, then called on each write's buffer before it is issued.
 * Thread-safety: a struct job_buf belongs to one thread. */
#ifndef IOB_WORKLOAD_JOB_BUF_H
#define IOB_WORKLOAD_JOB_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "workload/job/job.h"

struct job_buf {
	const struct job_xopts *x;
	struct rng r;
	uint64_t key;		/* this thread's seeds start here */
	uint64_t uniq;		/* distinct blocks made so far */
	uint64_t ws;		/* dedupe_mode=working_set: blocks in the set */
	/* the per-write fill, or NULL when the buffers stay as set up */
	void (*fill)(struct job_buf *b, unsigned char *p, size_t len, uint64_t off);
};

/* Fill the thread's buffers (buf, len bytes) once and choose the per-write fill for job
 * d; seed makes the data reproducible. */
void job_buf_setup(struct job_buf *b, const struct job_def *d, uint64_t seed,
		   unsigned char *buf, size_t len);
/* The data the job writes, in a word: zeros, pattern, compress/dedupe, refill, scramble
 * or fixed (static). */
const char *job_buf_mode(const struct job_def *d);

#endif
