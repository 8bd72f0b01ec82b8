/* job_verify.c - `iobattery job --verify` (and fio's verify=): what the check can hold,
 * the hook of the measurement, each file named and tracked where it is opened for
 * writing, and the verify row after the steps (runner/vhook.h does the stamping and the
 * check).
 *
 * The rule that makes a job's file checkable: the checker walks a file by its blocks'
 * headers, so every write must replace whole blocks of the one length the file is laid
 * out in. A job with --verify therefore writes one fixed bs, on the grid of that bs from
 * offset 0 (its region and alignment whole blocks), and every job writing a file writes
 * the same bs; the layout stamps the whole file in blocks of it first. What breaks the
 * rule (bsrange, bssplit, a blockalign or skip off the grid, two sizes on one file) is
 * refused before anything is made rather than checked at a granularity nobody wrote.
 *
 * Generations: each write is a newer generation of its file (VHOOK_GEN_COUNT), whichever
 * thread issues it, and the hook tracks the generation of each block's last write, so a
 * block holding an older one is stale (a lost write) even when threads, a queue, loops
 * or time_based overwrite the same blocks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/vblock.h"
#include "runner/ioctx.h"
#include "runner/runner.h"
#include "runner/vhook.h"
#include "workload/job/job_run.h"

#define JV_WORKLOAD "job"

bool job_verify_asked(const struct job_plan *p)
{
	unsigned i;

	for (i = 0; i < p->nthreads; i++)
		if (p->threads[i].d->verify)
			return true;
	return false;
}

/* What a writing job itself must be: a data-moving engine, one bs in range, offsets on
 * its grid. 0 or -EINVAL with the message. */
static int jv_job(const struct job_thread *t, char *err, size_t errlen)
{
	const struct job_def *d = t->d;
	const struct job_bs *b = &d->bs[JOB_WRITE];
	unsigned long long bs = b->min;

	if (t->e->flags & ENGINE_F_NOIO)
		return job_plan_err(d, err, errlen, "--verify needs an engine that transfers "
				    "data: ioengine=%s does not", t->e->name);
	if (b->nsplit || b->min != b->max)
		return job_plan_err(d, err, errlen, "--verify writes blocks of one size: %s "
				    "gives writes of several (give bs= alone)",
				    b->nsplit ? "bssplit" : "bsrange");
	if (bs < VBLOCK_MIN_LEN || bs > VBLOCK_MAX_LEN)
		return job_plan_err(d, err, errlen, "--verify needs writes of %u bytes to 1 GiB "
				    "(a block's header and its limit): bs=%llu", VBLOCK_MIN_LEN,
				    bs);
	if (job_rw_random(d->rw) && b->ba % bs)
		return job_plan_err(d, err, errlen, "--verify writes whole blocks of bs=%llu: "
				    "blockalign=%llu puts writes across them", bs,
				    (unsigned long long)b->ba);
	if (!job_rw_random(d->rw) && d->rw_seq_add % (int64_t)bs)
		return job_plan_err(d, err, errlen, "--verify writes whole blocks of bs=%llu: "
				    "rw=...:%lld skips part of one", bs, (long long)d->rw_seq_add);
	return 0;
}

/* Thread t's writes into the files' block sizes (who: the job that set each). */
static int jv_thread(struct job_plan *p, const struct job_thread *t, const struct job_def **who,
		     char *err, size_t errlen)
{
	const struct job_def *d = t->d;
	uint64_t bs = d->bs[JOB_WRITE].min;
	unsigned k;
	int rc;

	if ((rc = jv_job(t, err, errlen)) < 0)
		return rc;
	for (k = 0; k < t->nfiles; k++) {
		const struct job_tfile *r = &t->files[k];
		struct job_file *f = &p->files[r->file];

		if (f->device)
			return job_plan_err(d, err, errlen, "--verify on a block device is not "
					    "supported: '%s'", f->path);
		if (r->off % bs || r->len % bs)
			return job_plan_err(d, err, errlen, "--verify writes whole blocks of "
					    "bs=%llu from the start of the file: the region "
					    "[%llu, %llu) of '%s' is not (make offset= and size= "
					    "multiples of bs)", (unsigned long long)bs,
					    (unsigned long long)r->off,
					    (unsigned long long)(r->off + r->len), f->path);
		if (f->vbs && f->vbs != bs)
			return job_plan_err(d, err, errlen, "--verify checks one block size per "
					    "file: '%s' is written with bs=%u by [%s] and bs=%llu "
					    "here", f->path, f->vbs, who[r->file]->section,
					    (unsigned long long)bs);
		f->vbs = (uint32_t)bs;
		who[r->file] = d;
	}
	return 0;
}

/* The files as wholes: laid out in whole blocks, nothing beyond what the jobs reach. */
static int jv_files(const struct job_plan *p, const struct job_def **who, char *err,
		    size_t errlen)
{
	unsigned i;

	for (i = 0; i < p->nfiles; i++) {
		const struct job_file *f = &p->files[i];

		if (!f->vbs)
			continue;
		if (f->need % f->vbs)
			return job_plan_err(who[i], err, errlen, "--verify lays '%s' out in blocks "
					    "of bs=%u: its size, %llu bytes (as far as the jobs "
					    "using it reach), is not whole blocks", f->path, f->vbs,
					    (unsigned long long)f->need);
		if (f->exists && f->have > f->need)
			return job_plan_err(who[i], err, errlen, "--verify checks whole files: "
					    "'%s' holds %llu bytes, more than the jobs use (%llu)",
					    f->path, (unsigned long long)f->have,
					    (unsigned long long)f->need);
	}
	return 0;
}

/* fio's verify= on a job that only reads: its files must be written with verify by a job
 * of this run (surface-scan's verify phase), whose blocks the verify row checks after the
 * steps; what an earlier run wrote is refused. 0 or -EINVAL with the message. */
static int jv_reader(const struct job_plan *p, const struct job_thread *t, char *err,
		     size_t errlen)
{
	unsigned k;

	for (k = 0; k < t->nfiles; k++)
		if (!p->files[t->files[k].file].vbs)
			return job_plan_err(t->d, err, errlen, "verify= on a job that only "
					    "reads checks what a job of the run writes with "
					    "verify: nothing does to '%s' (iobattery verify FILE "
					    "checks a file written with --verify)",
					    p->files[t->files[k].file].path);
	return 0;
}

/* fio's verify_interval: a stamp every so many bytes, a power of two of 512 to 64 KiB
 * within bs. 0 or -EINVAL with the message; p->vunit_shift. */
static int jv_interval(struct job_plan *p, const struct job_def *d, char *err, size_t errlen)
{
	uint32_t v = d->xo.verify_interval;
	uint8_t s = 0;

	if (!v)
		return 0;
	while (s < 31 && (1u << s) < v)
		s++;
	if ((1u << s) != v || s < VBLOCK_UNIT_SHIFT_MIN || s > VBLOCK_UNIT_SHIFT_MAX ||
	    v > d->bs[JOB_WRITE].min)
		return job_plan_err(d, err, errlen, "verify_interval=%u: iobattery stamps "
				    "pieces of a power of two from 512 bytes to 64 KiB, at most "
				    "bs=%llu", v, (unsigned long long)d->bs[JOB_WRITE].min);
	if (p->vunit_shift && p->vunit_shift != s)
		return job_plan_err(d, err, errlen, "verify_interval=%u: one interval per run "
				    "(another job gives %u)", v, 1u << p->vunit_shift);
	p->vunit_shift = s;
	return 0;
}

/* The writers' verify_pattern, the payload of every block: one per run. 0 or -EINVAL. */
static int jv_pattern(struct job_plan *p, const struct job_def *d, char *err, size_t errlen)
{
	const struct job_def *o = p->vpattern;

	if (!d->xo.nvpattern || d->xo.vpattern_offset)
		return 0;	/* %o: the header's offset stands for it (job_opts_x.c) */
	if (o && (o->xo.nvpattern != d->xo.nvpattern ||
		  memcmp(o->xo.vpattern, d->xo.vpattern, d->xo.nvpattern)))
		return job_plan_err(d, err, errlen, "verify_pattern: one pattern per run (the "
				    "blocks' payload): [%s] gives another", o->section);
	p->vpattern = d;
	return 0;
}

int job_verify_plan(struct job_plan *p, const struct job_safety *sf, char *err, size_t errlen)
{
	const struct job_def **who = calloc(p->nfiles ? p->nfiles : 1, sizeof(*who));
	unsigned i, writers = 0;
	int rc = 0;

	if (!who)
		return -ENOMEM;
	for (i = 0; i < p->nfiles; i++)
		p->files[i].vbs = 0;
	p->vunit_shift = 0;
	p->vreadback = false;
	p->vpattern = NULL;
	for (i = 0; i < p->nthreads && !rc; i++) {
		const struct job_thread *t = &p->threads[i];

		if (job_rw_trims(t->d->rw)) {
			/* a trimmed block reads back as zeros or as anything: no stamp holds */
			rc = job_plan_err(t->d, err, errlen, "--verify cannot check a trim job "
					  "(rw=%s): a trimmed block holds no stamp",
					  job_rw_name(t->d->rw));
			break;
		}
		/* the read-back: for a writer unless do_verify=0, a reader with verify= */
		if (!t->d->xo.no_do_verify && (t->d->verify || job_rw_writes(t->d->rw)))
			p->vreadback = true;
		if (!job_rw_writes(t->d->rw))
			continue;
		writers++;
		rc = jv_thread(p, t, who, err, errlen);
		if (!rc)
			rc = jv_interval(p, t->d, err, errlen);
		if (!rc)
			rc = jv_pattern(p, t->d, err, errlen);
	}
	for (i = 0; i < p->nthreads && !rc; i++)
		if (!job_rw_writes(p->threads[i].d->rw) && p->threads[i].d->verify)
			rc = jv_reader(p, &p->threads[i], err, errlen);
	if (!rc && !writers)
		rc = job_plan_err(NULL, err, errlen, "--verify has nothing to check: no job "
				  "writes");
	if (!rc && sf->no_layout)
		rc = job_plan_err(NULL, err, errlen, "--verify lays every file written out in "
				  "checkable blocks: --no-layout cannot be used with it");
	if (!rc)
		rc = jv_files(p, who, err, errlen);
	free(who);
	return rc;
}

int job_verify_start(struct runner *rc, struct job_plan *p)
{
	uint32_t block = 0;
	unsigned i;

	p->vh = NULL;
	for (i = 0; i < p->nfiles; i++)
		block = p->files[i].vbs > block ? p->files[i].vbs : block;
	if (!block)
		return 0;
	if (p->vpattern)	/* fio's verify_pattern: every block's payload */
		return vhook_start_pattern(&p->vh, rc, block, p->vpattern->xo.vpattern,
					   p->vpattern->xo.nvpattern,
					   VHOOK_F_UNIT(p->vunit_shift));
	/* the layout and fio write random bytes: so does every block's payload */
	return vhook_start(&p->vh, rc, block, VBLOCK_DATA_RANDOM,
			   VHOOK_F_UNIT(p->vunit_shift));
}

int job_verify_open(struct vhook *vh, struct ioctx *io, const struct job_file *f,
		    unsigned idx, int fd)
{
	int rc;

	if (!vh || !f->vbs)
		return 0;
	if ((rc = vhook_attach(vh, io)) < 0 ||
	    (rc = vhook_file(io, fd, f->path, idx, VHOOK_GEN_COUNT)) < 0)
		return rc;
	/* 0: too large a table; its blocks are then held to any generation of the run */
	rc = vhook_track(io, idx, f->vbs, f->need);
	return rc < 0 ? rc : 0;
}

int job_verify_run(struct runner *rc, struct job_plan *p)
{
	int r;

	if (!p->vh || !p->vreadback)	/* do_verify=0 everywhere: stamped, not read */
		return 0;
	r = vhook_verify(p->vh, rc, JV_WORKLOAD);
	/* bad blocks fail the verify row (exit 1); the message is printed */
	return r > 0 ? 0 : r;
}

int job_verify_stop(struct job_plan *p)
{
	int rc = vhook_stop(p->vh);

	p->vh = NULL;
	return rc;
}
