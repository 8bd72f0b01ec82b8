/* iozone_int.h - what the iozone_*.c files share: a pass's workers and their files.
 * Not for other modules. */
#ifndef IOB_WORKLOAD_IOZONE_INT_H
#define IOB_WORKLOAD_IOZONE_INT_H

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "runner/runner.h"
#include "runner/vhook.h"
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
	struct vhook *vh;		/* --verify: the cell's hook, NULL: off */
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

/* --verify (iozone_verify.c), one hook per cell; every call does nothing without it.
 * The index in passes (terminated by -1) before which the cell's verify row goes: after
 * the last pass that writes through the engine, before the stdio writes that follow it
 * (the count of passes: at the end); -1 when no pass writes through the engine. Pure. */
int ioz_verify_point(const int *passes);
/* Make the cell's hook (p->vh, the caller's to stop; NULL without --verify) for records
 * of p->rec bytes and attach it to every job's ioctx (which has none). 0 or -errno
 * (printed). Main thread, no request in flight, as every call here. */
int ioz_verify_start(struct runner *rc, struct ioz_pass *p);
/* Job j opened fd for pass p: name it when the pass writes through the engine, with the
 * file's next generation (record rewrite: the one it has). 0 or -errno. */
int ioz_verify_file(struct ioz_pass *p, struct ioz_job *j, int fd);
/* The cell's verify row (every workload's, with the cell's file size, record size and
 * workers as params). 0 also when blocks were bad (the row fails, the message is
 * printed), -EINTR, or -errno (a file that cannot be read). */
int ioz_verify_run(struct runner *rc, struct ioz_pass *p);
/* After the cell (its files removed): take the hook off every job's request pool
 * (vhook_detach), then free vh. NULL vh: nothing. 0 or vhook_stop's -errno. */
int ioz_verify_stop(struct ioz_job *job, unsigned nw, struct vhook *vh);

#endif
