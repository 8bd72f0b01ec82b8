/* job_io_int.h - what the two halves of a job thread share: the I/O loop (job_io.c)
 * and its setup, closing and figures (job_thread.c). Not for use elsewhere. */
#ifndef IOB_WORKLOAD_JOB_IO_INT_H
#define IOB_WORKLOAD_JOB_IO_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "runner/ioctx.h"
#include "workload/job/job_buf.h"
#include "workload/job/job_run.h"

struct jw_file {
	int fd;
	const char *name;		/* its path (the request log names it) */
	uint64_t lo, hi;		/* the region [lo, hi) */
	uint64_t pos[JOB_DDIRS];	/* next sequential offset per direction */
	uint64_t issued;		/* bytes issued to it in this pass */
	uint64_t nblk[JOB_DDIRS];	/* random blocks per direction */
	unsigned char *map;		/* blocks used in this pass (variable sizes), or NULL */
	struct job_offgen gen[JOB_DDIRS];	/* gen[0] serves all with a shared map */
	uint64_t zlo, zleft;		/* zonemode=strided: the zone's start, bytes left in it */
	bool zstarted;
	uint64_t seq_next;		/* randread:N: where the next follow-up goes */
	unsigned seq_left;		/* follow-ups left */
	bool done, wrote;
};

struct jw_io {
	unsigned dir;
	struct jw_file *f;
	uint64_t off, len;
};

struct jw {
	struct job_thread *t;
	const struct job_def *d;
	struct job_stats *s;
	struct worker *w;
	struct ioctx io;
	bool io_ready;
	struct rng rng;
	struct jw_file *f;
	unsigned nf, cur, ndone;
	unsigned char *buf;
	size_t slot_len;
	struct job_buf data;		/* what writes carry (fio's buffer options) */
	uint64_t *t_fill;		/* per slot: when it was filled (asynchronous) */
	bool async, noio, random, mixed, shared_map, stop, snapped;
	unsigned dir0;			/* the direction of a job that is not mixed */
	bool trimwrite, tw_pending;	/* trimwrite: the write of the last trim is next */
	struct jw_io tw;		/* that write */
	unsigned batch;
	uint64_t now;
	uint64_t deadline, ramp_end;	/* 0: none */
	uint64_t passes, ios_total;
	uint64_t budget;		/* --wearout's round: the bytes to issue (0: none) */
	uint64_t issued;		/* bytes issued in this round */
	uint64_t io_limit;		/* io_size: the bytes to issue over every pass (0: none) */
	unsigned think_n;		/* I/Os since the last think time (thinktime_blocks) */
	unsigned sync_every, since_sync;
	int sync_op, sync_fd;
	bool sync_pending;
	/* rate: per direction, the issue time of the next I/O is t0 + done x interval */
	uint64_t rate_t0, rate_n[JOB_DDIRS], rate_next[JOB_DDIRS];
	bool rated;
	uint64_t next_samp;
	struct rusage ru0;
	FILE *log;			/* write_iolog, or NULL */
	uint64_t log_t0;		/* clock_ns its times count from */
	const char **lognames;		/* the files' names for it */
	bool extra;			/* logs or lat percentiles: jw_extra per request */
	bool cmdprio;			/* fio's cmdprio options on an asynchronous engine */
	struct job_tlog *tl;		/* fio's bw/lat/iops/hist logs, or NULL */
	struct job_ssrun *ss;		/* steadystate, or NULL */
	uint64_t ss_next;		/* its next second's end; UINT64_MAX without */
};

/* A completion when fio's logs or steady state are on (job_io_extra.c): the logs'
 * lines, the steady-state second (it may stop the thread). */
void jw_extra(struct jw *j, const struct engine_req *r, unsigned d, uint64_t t1);

/* The loop: picks, waits, fills and issues until the job is done, then drains. */
void jw_loop(struct jw *j);
/* The runner's on_done for the thread's requests (counts them by direction). */
int jw_done(struct ioctx *io, struct engine_req *r);
/* Sleep ns (EINTR resumes unless a stop signal came). */
void jw_sleep(uint64_t ns);
/* This thread's CPU time and faults so far (RUSAGE_THREAD where there is one). */
void jw_rusage(struct rusage *ru);
/* The step's first thread finished: remember the bytes done until now. */
void jw_snap(struct jw *j);

#endif
