/* iozone_int.h - what the iozone_*.c files share: a pass's workers and their files.
 * Not for other modules. */
#ifndef IOB_WORKLOAD_IOZONE_INT_H
#define IOB_WORKLOAD_IOZONE_INT_H

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "runner/runner.h"
#include "workload/iozone/iozone.h"

/* One worker: its requests, its file and what it counted. */
struct ioz_job {
	struct ioctx io;		/* the worker's requests (its thread's while it runs) */
	char path[PATH_MAX];
	int fd;				/* -1 when closed */
	FILE *fp;			/* the stdio passes */
	unsigned char *buf;		/* one record, page aligned */
	char *sbuf;			/* the stdio buffer (one record, as iozone's setvbuf) */
	int reads;			/* this pass reads (random mix: per worker) */
	int stopped;			/* stonewalled: stopped counting when another finished */
	uint64_t counted_bytes;		/* what its rate is computed from */
	uint64_t counted_ns;
	uint64_t t_written;		/* clock_ns when its last transfer returned */
	uint64_t t_end;			/* ... and when its timed tail (-e, -c) ended */
	const char *fail_call;		/* the call that failed first ("write", "fsync
					 * before the test" ...), NULL: none */
	int fail_err;			/* its -errno */
	uint64_t vgen;			/* --verify: the generation its file's blocks have */
};

/* One pass of one cell, for all its workers. */
struct ioz_pass {
	const struct iozone_cfg *c;
	int pass;			/* enum iozone_pass */
	uint64_t rec;			/* bytes per record */
	uint64_t nrec;			/* records per file */
	const uint64_t *order;		/* record numbers in access order, NULL: 0, 1, 2 ... */
	struct ioz_job *job;
	unsigned nw;
	int stonewall;			/* throughput mode without -x */
	atomic_int stop;		/* set by the first worker to finish */
	_Atomic uint64_t t_first_done;	/* clock_ns of that moment */
	int fail_job;			/* the job whose call failed, -1: none (set by
					 * ioz_run_pass) */
};

/* Remember that job j's call failed with err (-errno) unless an earlier one did or err is
 * -EINTR (a stop, not a failure). Returns err. Called by j's own thread only. */
int ioz_fail(struct ioz_job *j, const char *call, int err);

/* The timed part of one worker's pass (runner_parallel's fn): arg is a struct ioz_pass. */
int ioz_worker(void *arg, unsigned i, struct worker *w);
/* The stdio loops (iozone_stdio.c): fwrite or fread of every record of job's FILE, timed
 * per call, with the stonewall checks; then the timed tail. Same returns as ioz_worker. */
int ioz_stdio_loop(struct ioz_pass *p, struct ioz_job *j, struct worker *w);
/* Open job j's file for pass p as iozone does (untimed): fopen for the stdio passes.
 * 0 or -errno. */
int ioz_stdio_open(struct ioz_pass *p, struct ioz_job *j);
/* The untimed end of a stdio pass: fflush, fsync, fclose. *sync_ns gets the time of the
 * fsync (0 when not done or when it failed). 0 or -errno (the call named in j). */
int ioz_stdio_close(struct ioz_job *j, int do_sync, uint64_t *sync_ns);
/* A worker saw the stop flag (or finished): freeze what it counted. */
void ioz_count(struct ioz_job *j, struct worker *w, uint64_t now);
/* Stonewall check at the top of a record: returns 1 when a reading worker must stop. */
int ioz_stonewalled(struct ioz_pass *p, struct ioz_job *j, struct worker *w);
/* The worker finished its records: raise the stop flag (stonewalling), count. */
void ioz_finished(struct ioz_pass *p, struct ioz_job *j, struct worker *w);

/* Run pass p of the cell (file_kb, rec_kb) on nw jobs (their paths set); append its row
 * to rc->run. Returns 0, -EINTR or -errno. */
int ioz_run_pass(struct runner *rc, struct ioz_pass *p);

#endif
