/* job_thread.c - one thread of a job around its I/O loop (job_io.c): the engine, the
 * buffers, the files and their offset generators, startdelay, the closing fsyncs of
 * end_fsync and fsync_on_close, the thread's own CPU time, fio's request log. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "config.h"
#include "comm/comm.h"
#include "core/affinity.h"
#include "core/rng.h"
#include "runner/runner.h"
#include "workload/job/job_cmdprio.h"
#include "workload/job/job_fileops.h"
#include "workload/job/job_int.h"
#include "workload/job/job_io_int.h"

static uint64_t tv_ns(struct timeval t)
{
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_usec * 1000ull;
}

void jw_rusage(struct rusage *ru)
{
#ifdef RUSAGE_THREAD
	if (getrusage(RUSAGE_THREAD, ru) == 0)
		return;
#endif
	if (getrusage(RUSAGE_SELF, ru) != 0)
		memset(ru, 0, sizeof(*ru));
}

/* ---- setup and the end ---- */

/* Remember why setup failed: "what 'path': reason[: the engine's hint]". Returns rc. */
static int jw_err(struct jw *j, int rc, const char *what, const char *path)
{
	const char *h = engine_hint(j->t->e, &j->t->eo, rc);
	char *b = j->s->errtxt;
	size_t n, len = sizeof(j->s->errtxt);

	if (j->s->err)
		return rc;
	j->s->err = rc;
	j->s->err_op = -1;
	if (path)
		snprintf(b, len, "%s '%s': %s", what, path, strerror(-rc));
	else
		snprintf(b, len, "%s: %s", what, strerror(-rc));
	n = strlen(b);
	if (h)
		snprintf(b + n, len - n, ": %s", h);
	return rc;
}

static int jw_open_flags(const struct job_def *d)
{
	/* falloc's reads allocate too (fio's FALLOC_FL_KEEP_SIZE): the file is written */
	int flags = (job_rw_modifies(d->rw) || d->xo.iometa ? O_RDWR : O_RDONLY) | O_CLOEXEC;

#ifdef HAVE_O_DIRECT
	if (d->direct)
		flags |= O_DIRECT;
#endif
	if (d->sync == JOB_SYNC_SYNC)
		flags |= O_SYNC;
	else if (d->sync == JOB_SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

/* Whether direction dir of d picks its own offsets (a trimwrite's writes take their
 * trims'). */
static bool jw_picks(const struct job_def *d, unsigned dir)
{
	if (dir == JOB_READ)
		return job_rw_reads(d->rw);
	if (dir == JOB_WRITE)
		return job_rw_writes(d->rw) && !job_rw_trims(d->rw);
	return job_rw_trims(d->rw);
}

/* The random generators of f: one over the blocks of the job's direction (both
 * directions share it when the random map is on and the alignments agree, as fio's one
 * map per file), or one per direction; a bit map where sizes vary. 0 or -errno. */
static int jw_setup_random(struct jw *j, struct jw_file *f)
{
	const struct job_def *d = j->d;
	unsigned d0 = j->dir0, dir;
	uint64_t span = f->hi - f->lo;

	j->shared_map = !d->norandommap && d->dist.kind == JOB_DIST_RANDOM &&
			(!j->mixed || d->bs[JOB_READ].ba == d->bs[JOB_WRITE].ba);
	for (dir = 0; dir < JOB_DDIRS; dir++) {
		if (!jw_picks(d, dir))
			continue;
		if (j->shared_map && dir != d0)
			continue;
		f->nblk[dir] = job_rand_blocks(&d->bs[dir], span);
		if (job_offgen_init(&f->gen[j->shared_map ? 0 : dir], d, dir, f->nblk[dir],
				    &j->rng) < 0)
			return -EINVAL;
	}
	if (j->shared_map) {
		f->nblk[0] = f->nblk[d0];
		if (d->bs[JOB_READ].min != d->bs[JOB_READ].max ||
		    d->bs[JOB_WRITE].min != d->bs[JOB_WRITE].max ||
		    (j->mixed && d->bs[JOB_READ].min != d->bs[JOB_WRITE].min) ||
		    (d0 == JOB_TRIM && d->bs[JOB_TRIM].min != d->bs[JOB_TRIM].max)) {
			f->map = calloc(1, (size_t)(f->nblk[0] / 8 + 1));
			if (!f->map)
				return -ENOMEM;
		}
	}
	return 0;
}

static int jw_setup_files(struct jw *j)
{
	struct job_thread *t = j->t;
	const struct job_def *d = j->d;
	int flags = jw_open_flags(d);
	unsigned i, dir;

	j->f = calloc(t->nfiles, sizeof(*j->f));
	if (!j->f)
		return -ENOMEM;
	j->nf = t->nfiles;
	for (i = 0; i < j->nf; i++)
		j->f[i].fd = -1;
	for (i = 0; i < j->nf; i++) {
		struct jw_file *f = &j->f[i];
		const char *path = t->pfiles[t->files[i].file].path;
		int rc;

		f->name = path;
		f->lo = t->files[i].off;
		f->hi = f->lo + t->files[i].len;
		for (dir = 0; dir < JOB_DDIRS; dir++)
			f->pos[dir] = f->lo;
		if (!j->noio) {
			f->fd = ioctx_open(&j->io, path, flags, 0);
			if (f->fd < 0)
				return jw_err(j, f->fd, "cannot open", path);
			/* --verify: this thread's writes of the file are stamped */
			if (job_rw_writes(d->rw) &&
			    (rc = job_verify_open(t->vh, &j->io, &t->pfiles[t->files[i].file],
						  t->files[i].file, f->fd)) < 0)
				return jw_err(j, rc, "cannot verify the writes of", path);
			if (j->async && !ioctx_async_honest(&j->io, f->fd))
				j->s->sync_only_engine = true;
		}
		if (j->random && (rc = jw_setup_random(j, f)) < 0)
			return jw_err(j, rc, "cannot set up the offsets of", path);
	}
	return 0;
}

/* fio's write_iolog: NAME, or NAME.CLONE for numjobs above 1, then .RANK under mpirun; a
 * new file, or in --wearout's round the first round's again, appended to. 0 or -errno. */
static int jw_setup_log(struct jw *j)
{
	const struct job_def *d = j->d;
	char path[4096];
	unsigned i;
	int rc = 0;

	j->lognames = calloc(j->nf, sizeof(*j->lognames));
	if (!j->lognames)
		return jw_err(j, -ENOMEM, "cannot allocate the request log", NULL);
	for (i = 0; i < j->nf; i++)
		j->lognames[i] = j->f[i].name;
	if (d->numjobs > 1)
		snprintf(path, sizeof(path), "%s.%u", d->write_iolog, j->t->clone);
	else
		snprintf(path, sizeof(path), "%s", d->write_iolog);
	if (comm_multi())	/* under mpirun: each rank its own, NAME.RANK as filename= */
		snprintf(path + strlen(path), sizeof(path) - strlen(path), ".%u", comm_rank());
	j->log = job_iolog_open(path, j->lognames, j->nf, j->budget != 0, &rc);
	if (j->log)
		return 0;
	return jw_err(j, rc, j->budget ? "cannot append to the request log (write_iolog)"
				      : "cannot create the request log (write_iolog)", path);
}

void job_thread_resume_free(struct job_thread *t)
{
	if (!t->resume)
		return;
	free(t->resume->pos);
	free(t->resume->issued);
	free(t->resume->done);
	free(t->resume);
	t->resume = NULL;
}

/* After the first round: where it stopped, for a --wearout round (struct jt_resume).
 * Out of memory: nothing kept, the round then starts the files again. */
static void jw_keep(struct jw *j)
{
	struct job_thread *t = j->t;
	struct jt_resume *r = t->resume;
	unsigned i;

	if (r && r->nf != j->nf)
		job_thread_resume_free(t);
	if (!t->resume) {
		r = calloc(1, sizeof(*r));
		if (r) {
			r->pos = calloc(j->nf ? j->nf : 1, sizeof(*r->pos));
			r->issued = calloc(j->nf ? j->nf : 1, sizeof(*r->issued));
			r->done = calloc(j->nf ? j->nf : 1, sizeof(*r->done));
			r->nf = j->nf;
		}
		t->resume = r;
		if (!r || !r->pos || !r->issued || !r->done) {
			job_thread_resume_free(t);
			return;
		}
	}
	r->rng = j->rng;
	r->cur = j->cur;
	for (i = 0; i < j->nf; i++) {
		memcpy(r->pos[i], j->f[i].pos, sizeof(r->pos[i]));
		r->issued[i] = j->f[i].issued;
		r->done[i] = j->f[i].done;
	}
}

/* A --wearout round: on from where the first round stopped (jw_keep). */
static void jw_resume(struct jw *j)
{
	const struct jt_resume *r = j->t->resume;
	unsigned i;

	if (!r || r->nf != j->nf)
		return;
	j->rng = r->rng;
	j->cur = r->cur < j->nf ? r->cur : 0;
	for (i = 0; i < j->nf; i++) {
		memcpy(j->f[i].pos, r->pos[i], sizeof(j->f[i].pos));
		j->f[i].issued = r->issued[i];
		j->f[i].done = r->done[i];
		j->ndone += r->done[i];
	}
}

static int jw_setup(struct jw *j, struct job_thread *t, struct worker *w)
{
	const struct job_def *d = t->d;
	uint64_t maxbs = d->bs[JOB_READ].max > d->bs[JOB_WRITE].max ? d->bs[JOB_READ].max
								      : d->bs[JOB_WRITE].max;
	unsigned depth;
	struct iovec iov;
	int rc;

	j->t = t;
	j->d = d;
	j->s = &t->st;
	j->w = w;
	j->async = (t->e->flags & ENGINE_F_ASYNC) != 0;
	j->cmdprio = j->async && job_cmdprio_on(&t->d->xo.cmdprio);
	j->noio = (t->e->flags & ENGINE_F_NOIO) != 0;
	j->random = job_rw_random(d->rw);
	j->mixed = d->rw == JOB_RW_RW || d->rw == JOB_RW_RANDRW;
	j->dir0 = job_rw_reads(d->rw) ? JOB_READ : job_rw_trims(d->rw) ? JOB_TRIM : JOB_WRITE;
	j->trimwrite = job_rw_trims(d->rw) && job_rw_writes(d->rw);
	if (j->trimwrite && d->bs[JOB_TRIM].max > maxbs)
		maxbs = d->bs[JOB_TRIM].max;	/* its writes are its trims' lengths */
	j->rated = d->rate[0] || d->rate[1] || d->rate[2] || d->rate_iops[0] ||
		   d->rate_iops[1] || d->rate_iops[2];
	j->s->sync_only_engine = !j->async;
	rng_seed(&j->rng, t->seed);
	depth = j->async ? d->iodepth : 1;
	rc = ioctx_init_opts(&j->io, t->e, depth, &t->eo);
	if (rc < 0)
		return jw_err(j, rc, "cannot set up the engine", t->e->name);
	j->io_ready = true;
	j->io.issue_after = j->async;
	j->io.user = j;
	j->io.on_done = jw_done;
	j->io.reap_min = d->iodepth_batch_complete_min;
	if (j->io.reap_min < 1)
		j->io.reap_min = 1;
	if (j->io.reap_min > depth)
		j->io.reap_min = depth;
	/* fio: at most iodepth_batch_complete_max a reap, the min when unset or lower */
	j->io.reap_max = d->iodepth_batch_complete_max;
	if (j->io.reap_max < j->io.reap_min)
		j->io.reap_max = j->io.reap_min;
	j->batch = j->async ? d->iodepth_batch : 1;
	if (j->batch < 1)
		j->batch = 1;
	ioctx_bind(&j->io, w);
	j->slot_len = (size_t)((maxbs + 4095) / 4096 * 4096);
	if (posix_memalign((void **)&j->buf, 4096, j->slot_len * (depth + 1)))
		return jw_err(j, -ENOMEM, "cannot allocate the buffers", NULL);
	if (job_rw_writes(d->rw))
		job_buf_setup(&j->data, d, t->seed, j->buf, j->slot_len * (depth + 1));
	else
		memset(j->buf, 0, j->slot_len * (depth + 1));
	iov.iov_base = j->buf;
	iov.iov_len = j->slot_len * (depth + 1);
	/* the engine uses them when its options ask (io_uring's fixedbufs) */
	if ((rc = ioctx_register_buffers(&j->io, &iov, 1)) < 0)
		return jw_err(j, rc, "cannot register the buffers (fixedbufs)", NULL);
	j->t_fill = calloc(depth + 1, sizeof(*j->t_fill));
	j->s->samp = calloc(JOB_SAMPLES_MAX, sizeof(*j->s->samp));
	if (!j->t_fill || !j->s->samp)
		return jw_err(j, -ENOMEM, "cannot allocate the samples", NULL);
	j->s->samp_ns = JOB_SAMPLE_NS;
	j->sync_every = d->fsync ? d->fsync : d->fdatasync;
	j->sync_op = d->fsync ? ENGINE_OP_FSYNC : ENGINE_OP_FDATASYNC;
	j->passes = 0;
#if defined(__linux__) && defined(PR_SET_TIMERSLACK)
	/* rate and think time sleep to the microsecond, not the default 50 us slack */
	if (j->rated || d->thinktime)
		(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
	rc = jw_setup_files(j);
	if (!rc && j->budget)
		jw_resume(j);
	if (!rc && d->write_iolog)
		rc = jw_setup_log(j);
	return rc;
}

/* end_fsync and fsync_on_close: each file written is flushed; the time counts. */
static void jw_close(struct jw *j, bool flush)
{
	const struct job_def *d = j->d;
	bool any = false;
	unsigned i;
	int rc;

	for (i = 0; j->f && i < j->nf; i++) {
		struct jw_file *f = &j->f[i];

		free(f->map);	/* a file left unopened (the null engine's) has one too */
		f->map = NULL;
		if (f->fd < 0)
			continue;
		if (flush && f->wrote && (d->end_fsync || d->fsync_on_close)) {
			rc = ioctx_sync(&j->io, f->fd, 0);
			if (rc < 0 && !j->s->err) {
				j->s->err = rc;
				j->s->err_op = ENGINE_OP_FSYNC;
			}
			any = true;
		}
		(void)ioctx_close(&j->io, f->fd);
		f->fd = -1;
	}
	if (any)
		j->s->t_durable = clock_ns();
}

static void jw_free(struct jw *j)
{
	int e;

	if (j->log && (e = job_iolog_close(j->log, j->lognames, j->nf)) < 0 && !j->s->err) {
		j->s->err = e;
		j->s->err_op = -1;
		snprintf(j->s->errtxt, sizeof(j->s->errtxt), "cannot write the request log "
			 "(write_iolog): %s", strerror(-e));
	}
	j->log = NULL;
	free(j->lognames);
	jw_close(j, false);
	free(j->f);
	if (j->io_ready)
		ioctx_exit(&j->io);
	free(j->buf);
	free(j->t_fill);
}

/* fio's logs and steady state for the first round: the logs' origin is the request log's
 * (after ramp_time), the steady state's seconds start after ramp_time too. The logs of
 * the first repeat only (t->logs_done). 0 or -errno. */
static int jt_extras(struct jw *j, struct job_thread *t)
{
	int rc = 0;

	job_tlog_free(t->tlog);
	t->tlog = NULL;
	job_ss_free(t->ss);
	t->ss = NULL;
	if (!t->logs_done)
		rc = job_tlog_new(t->d, &t->tlog);
	if (!rc)
		rc = job_ss_new(t->d, j->now + t->d->ramp_time * 1000u, &t->ss);
	if (rc < 0)
		return jw_err(j, rc, "cannot allocate the logs", NULL);
	j->tl = t->tlog;
	j->ss = t->ss;
	j->ss_next = j->ss ? job_ss_next(j->ss) : UINT64_MAX;
	return 0;
}

/* A job with exitall finished: fio's exit_what says which jobs stop with it: its group
 * (the default), every job running (stonewall), or those and every later step's (all). */
static void jt_exit_all(const struct job_thread *t)
{
	unsigned i;

	if (t->d->xo.exit_what == JOB_EXIT_GROUP) {
		atomic_store(t->exit_all, 1);
		return;
	}
	for (i = 0; i < t->exit_ngroups; i++)
		atomic_store(&t->exit_groups[i], 1);
	if (t->d->xo.exit_what == JOB_EXIT_ALL && t->exit_later)
		atomic_store(t->exit_later, 1);
}

/* The thread's run, or with budget its --wearout round (no start delay, ramp or runtime;
 * the worker's clock goes on, and the request log's times go on from the first round's
 * origin). */
static int jt_run(struct job_thread *t, struct worker *w, uint64_t budget)
{
	const struct job_def *d = t->d;
	struct job_stats *s = &t->st;
	struct rusage ru1;
	uint64_t zero = 0, rt;
	struct jw j;
	int rc;

	memset(&j, 0, sizeof(j));
	j.budget = budget;
	j.snapped = budget != 0;	/* the first-done figure is the first round's */
	job_stats_init(s);
	rc = jw_setup(&j, t, w);
	/* fio's lat percentiles: the total latency's histogram (a synchronous engine's
	 * is its clat's) */
	if (rc >= 0 && d->xo.lat_percentiles && j.async && job_lat_hist_new(s) < 0)
		rc = jw_err(&j, -ENOMEM, "cannot allocate the latency histograms", NULL);
	if (rc < 0) {
		jw_free(&j);
		return rc;
	}
	if (d->startdelay[1] && !budget) {
		uint64_t us = d->startdelay[0];

		if (d->startdelay[1] > us)
			us += rng_below(&j.rng, d->startdelay[1] - us + 1);
		jw_sleep(us * 1000u);
	}
	if (!budget)
		worker_start(w);
	j.now = s->t_start = budget ? clock_ns() : w->t_first;
	j.next_samp = s->t_start + s->samp_ns;
	j.log_t0 = budget ? t->log_t0 : s->t_start;
	j.rate_t0 = j.now;
	j.deadline = d->runtime && !budget ? j.now + (d->ramp_time + d->runtime) * 1000u : 0;
	j.ramp_end = d->ramp_time && !budget ? j.now + d->ramp_time * 1000u : 0;
	j.ss_next = UINT64_MAX;
	if (!budget && (rc = jt_extras(&j, t)) < 0) {
		jw_free(&j);
		return rc;
	}
	j.extra = j.tl != NULL || s->lat_h != NULL;
	jw_rusage(&j.ru0);
	j.io_limit = budget ? 0 : d->xo.io_size;
	jw_loop(&j);
	if (j.tl)
		job_tlog_end(j.tl, w->t_last > j.log_t0 ? w->t_last - j.log_t0 : 0);
	if (d->xo.exitall && t->exit_all)
		jt_exit_all(t);
	if (!budget)
		t->log_t0 = j.log_t0;	/* ramp_time may have moved it */
	jw_close(&j, true);
	s->t_stop = w->t_last > s->t_durable ? w->t_last : s->t_durable;
	if (s->t_stop < s->t_start)
		s->t_stop = s->t_start;
	jw_rusage(&ru1);
	s->usr_ns = tv_ns(ru1.ru_utime) - tv_ns(j.ru0.ru_utime);
	s->sys_ns = tv_ns(ru1.ru_stime) - tv_ns(j.ru0.ru_stime);
	s->ctx = (uint64_t)(ru1.ru_nvcsw - j.ru0.ru_nvcsw + ru1.ru_nivcsw - j.ru0.ru_nivcsw);
	s->majf = (uint64_t)(ru1.ru_majflt - j.ru0.ru_majflt);
	s->minf = (uint64_t)(ru1.ru_minflt - j.ru0.ru_minflt);
	rt = s->t_stop - s->t_start;
	s->rt_sum_ns = s->rt_min_ns = s->rt_max_ns = rt;
	s->nthreads = 1;
	if (!j.snapped) {
		(void)atomic_compare_exchange_strong(t->first_done, &zero, s->t_stop);
		jw_snap(&j);
	}
	if (!budget)
		jw_keep(&j);
	jw_free(&j);
	/* the errors continue_on_error passed over are the job's figures, not its failure
	 * (the worker remembers the first failed request whatever the job made of it) */
	if (!s->err && (s->errs[JOB_READ] || s->errs[JOB_WRITE] || s->errs[JOB_TRIM]))
		w->err = 0;
	/* nor is the ENOSPC that ends a fill_device=1 job (job_io.c) */
	if (!s->err && t->d->xo.fill_device)
		w->err = 0;
	return s->err;
}

unsigned job_ioprio(const struct job_def *d)
{
	bool cls = job_xopt_set(d, "prioclass"), lvl = job_xopt_set(d, "prio");

	if (!cls && !lvl)
		return 0;
	return (cls && d->xo.prioclass ? d->xo.prioclass : 2u) << 13 |
	       (lvl ? d->xo.prio : 0u);
}

/* cpus_allowed (with cpus_allowed_policy=split: one CPU of the list per clone),
 * numa_cpu_nodes, numa_mem_policy and the I/O priority (prio, prioclass) for the calling
 * thread. 0 or -errno with the reason in t->st. */
static int jt_bind(struct job_thread *t)
{
	const struct job_xopts *x = &t->d->xo;
	char cpus[1024];
	const char *what = "cpus_allowed";
	unsigned prio;
	int rc = 0;

	if (x->numa_cpu_nodes[0]) {
		what = "numa_cpu_nodes";
		rc = affinity_node_cpus(x->numa_cpu_nodes, cpus, sizeof(cpus));
		if (!rc)
			rc = affinity_set(cpus, -1);
	}
	if (!rc && x->cpus_allowed[0]) {
		what = "cpus_allowed";
		rc = affinity_set(x->cpus_allowed, x->cpus_split ? (int)t->clone : -1);
	}
	if (!rc && x->numa_mem_policy[0]) {
		what = "numa_mem_policy";
		rc = affinity_mempolicy(x->numa_mem_policy);
	}
	if (!rc && (prio = job_ioprio(t->d)) != 0) {
		what = "prio, prioclass";
		rc = affinity_ioprio(prio >> 13, prio & 7);
	}
	if (rc < 0) {
		job_stats_init(&t->st);
		t->st.err = rc;
		t->st.err_op = -1;
		snprintf(t->st.errtxt, sizeof(t->st.errtxt), "%s: cannot %s the thread: %s",
			 what, what[0] == 'p' ? "set the I/O priority of" : "bind", strerror(-rc));
	}
	return rc;
}

int job_thread_run(struct job_thread *t, struct worker *w)
{
	int rc = jt_bind(t);

	if (rc < 0)
		return rc;
	if (t->d->xo.fileop)
		return job_fileops_run(t, w);
	return jt_run(t, w, 0);
}

int job_thread_wear(struct job_thread *t, struct worker *w, uint64_t budget)
{
	struct job_stats first = t->st;
	uint64_t t0;
	int rc;

	if (!budget)
		return 0;
	memset(&t->st, 0, sizeof(t->st));
	(void)jt_run(t, w, budget);
	/* one thread's figures over both rounds; the samples are the first round's */
	free(t->st.samp);
	t->st.samp = NULL;
	t->st.nsamp = 0;
	rc = job_merge(&first, &t->st);
	job_stats_free(&t->st);
	t->st = first;
	t0 = t->st.t_start;
	t->st.nthreads = 1;
	t->st.rt_sum_ns = t->st.rt_min_ns = t->st.rt_max_ns =
		t->st.t_stop > t0 ? t->st.t_stop - t0 : 0;
	return rc < 0 ? rc : t->st.err;
}
