/* job_plan.c - from a job list to the plan of a run: threads (a job's numjobs clones),
 * fio's groups and stonewall steps, report units, the files with the region each thread
 * uses. Pure bookkeeping: nothing is touched here (job_check.c looks at the files); under
 * mpirun the names of filename= get the rank, except with --shared-file (job_check.c
 * then gives each rank its segment). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "observe/sysinfo.h"
#include "runner/ioctx.h"
#include "workload/job/job_run.h"

/* iodepth is refused above the request pool's depth when parsed, before anything is made */
_Static_assert(JOB_IODEPTH_MAX <= IOCTX_MAX_DEPTH, "iodepth above the request pool");

/* "job: 'x.fio' line 3, section [a]: " + text, as the parser writes its messages. */
int job_plan_err(const struct job_def *d, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!d)
		snprintf(err, errlen, "job: %s", msg);
	else if (d->src && strcmp(d->src, "command line"))
		snprintf(err, errlen, "job: '%s' line %u, section [%s]: %s", d->src, d->src_line,
			 d->section, msg);
	else
		snprintf(err, errlen, "job: command line argument %u, section [%s]: %s",
			 d->src_line, d->section, msg);
	return -EINVAL;
}

/* The file called path, appended when new. Returns its index or -ENOMEM. */
static int plan_file(struct job_plan *p, const char *path, bool scratch, bool formatted)
{
	struct job_file *nf;
	unsigned i;

	/* a scratch file is always new (no search: a million of them plan in linear
	 * time); a named one may be shared with an earlier job */
	for (i = 0; !scratch && i < p->nfiles; i++)
		if (!p->files[i].in_scratch && !strcmp(p->files[i].path, path))
			return (int)i;
	/* a scratch name that filename_format gives several threads: one file (searched
	 * only for such names, so plain plans stay linear) */
	for (i = 0; formatted && i < p->nfiles; i++)
		if (p->files[i].formatted && !strcmp(p->files[i].path, path))
			return (int)i;
	if (p->nfiles >= JOB_PLAN_MAX_FILES)
		return -E2BIG;
	/* the array doubles when its count reaches a power of two (amortised O(1)) */
	if (!(p->nfiles & (p->nfiles - 1))) {
		nf = realloc(p->files, (p->nfiles ? 2 * (size_t)p->nfiles : 1) * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		p->files = nf;
	}
	nf = &p->files[p->nfiles];
	memset(nf, 0, sizeof(*nf));
	nf->cleanup_slot = -1;
	nf->in_scratch = scratch;
	nf->formatted = formatted;
	nf->path = strdup(path);
	if (!nf->path)
		return -ENOMEM;
	return (int)p->nfiles++;
}

/* dir + "/" + name, or name when it is absolute or there is no dir. NULL on ENOMEM. */
/* dir/name, or name alone when absolute or without dir; rank >= 0 appends ".RANK". */
static char *plan_join(const char *dir, const char *name, int rank)
{
	char *s;
	size_t n;

	if (!dir || name[0] == '/')
		dir = NULL;
	n = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 16;
	s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
	if (s && rank >= 0)
		snprintf(s + strlen(s), n - strlen(s), ".%d", rank);
	return s;
}

/* The scratch name of file i of clone c of job d: fio's filename_format with $jobname,
 * $jobnum (the clone), $filenum and $clientuid (0: no client/server here) replaced, or
 * fio's default "$jobname.$jobnum.$filenum". */
static void plan_format(char *buf, size_t n, const struct job_def *d, unsigned c, unsigned i)
{
	const char *f = d->xo.filename_format[0] ? d->xo.filename_format
						  : "$jobname.$jobnum.$filenum";
	size_t o = 0;

	while (*f && o + 1 < n) {
		int w = 0;

		if (!strncmp(f, "$jobname", 8)) {
			w = snprintf(buf + o, n - o, "%s", d->name);
			f += 8;
		} else if (!strncmp(f, "$jobnum", 7)) {
			w = snprintf(buf + o, n - o, "%u", c);
			f += 7;
		} else if (!strncmp(f, "$filenum", 8)) {
			w = snprintf(buf + o, n - o, "%u", i);
			f += 8;
		} else if (!strncmp(f, "$clientuid", 10)) {
			w = snprintf(buf + o, n - o, "0");
			f += 10;
		} else {
			buf[o++] = *f++;
		}
		if (w > 0)
			o = o + (size_t)w < n ? o + (size_t)w : n - 1;
	}
	buf[o] = '\0';
}

/* The sizes of thread t's regions: filesize (a range draws one per file, from the
 * thread's seed), else size shared out over the files; an existing file without either
 * is measured in job_plan_check (len 0 here). */
static void plan_regions(struct job_thread *t)
{
	const struct job_def *d = t->d;
	struct rng r;
	unsigned i;

	rng_seed(&r, t->seed ^ 0x5eed);
	for (i = 0; i < t->nfiles; i++) {
		struct job_tfile *f = &t->files[i];

		/* fio's offset_increment: each clone its own part of the files */
		f->off = d->offset + (uint64_t)t->clone * d->xo.offset_increment;
		if (d->filesize[0]) {
			f->len = d->filesize[0];
			if (d->filesize[1] > d->filesize[0])
				f->len += rng_below(&r, d->filesize[1] - d->filesize[0] + 1);
		} else if (d->size) {
			f->len = d->size / t->nfiles;
		} else {
			f->len = 0;
		}
		/* a whole number of the smallest block */
		if (f->len > d->bs[JOB_READ].min)
			f->len -= f->len % (d->bs[JOB_READ].min < d->bs[JOB_WRITE].min ?
					    d->bs[JOB_READ].min : d->bs[JOB_WRITE].min);
	}
}

/* Thread t's files: the filename= names (shared with every thread naming them), or
 * nrfiles scratch files of its own. 0, -EINVAL or -ENOMEM. */
static int plan_thread_files(struct job_plan *p, struct job_thread *t,
			     const struct job_safety *sf, char *err, size_t errlen)
{
	const struct job_def *d = t->d;
	char **names = NULL, **dirs = NULL;
	unsigned n = 0, nd = 0, i;
	int rc = 0, k;

	/* the job's directory=, else -d: where its files go */
	if ((d->directory || sf->dir) &&
	    (rc = job_names_split(d->directory ? d->directory : sf->dir, &dirs, &nd)) < 0)
		return rc;
	if (nd > 1) {
		job_names_free(dirs, nd);
		return job_plan_err(d, err, errlen, "directory= with several directories is "
				    "not implemented: give one");
	}
	if (d->filename && (rc = job_names_split(d->filename, &names, &n)) < 0)
		goto out;
	t->nfiles = d->filename ? n : d->nrfiles;
	if (!t->nfiles) {
		rc = job_plan_err(d, err, errlen, "filename= names no file");
		goto out;
	}
	t->files = calloc(t->nfiles, sizeof(*t->files));
	if (!t->files) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < t->nfiles; i++) {
		char *path;

		if (d->filename) {
			/* under mpirun each rank its own NAME.RANK, as dd's ranks; a device
			 * keeps its name (the same device on every host), and so does a
			 * --shared-file (a segment of it each) */
			int r = comm_multi() && !sf->shared_file && strncmp(names[i], "/dev/", 5) ?
				(int)comm_rank() : -1;

			path = plan_join(nd ? dirs[0] : NULL, names[i], r);
		} else {
			/* fio's name: JOB.CLONE.FILE, or filename_format's; a '/' in it would
			 * leave the scratch directory */
			char buf[JOB_NAME_MAX + JOB_XSTR_MAX + 64], *c;

			plan_format(buf, sizeof(buf), d, t->clone, i);
			for (c = buf; *c; c++)
				if (*c == '/')
					*c = '_';
			path = strdup(buf);
		}
		if (!path) {
			rc = -ENOMEM;
			goto out;
		}
		k = plan_file(p, path, !d->filename, !d->filename && d->xo.filename_format[0]);
		free(path);
		if (k == -E2BIG) {
			rc = job_plan_err(d, err, errlen, "more than %u files in the run "
					  "(nrfiles x numjobs over every job)", JOB_PLAN_MAX_FILES);
			goto out;
		}
		if (k < 0) {
			rc = k;
			goto out;
		}
		t->files[i].file = (unsigned)k;
		p->files[k].shared = sf->shared_file;
		if (!d->filename)
			p->need_scratch = true;
		if (d->xo.fileop && d->xo.fileop != JOB_FOP_STAT && d->xo.fileop != JOB_FOP_DELETE)
			p->files[k].made_by_job = true;
		if (d->xo.unlink)
			p->files[k].unlink = true;
		if (job_rw_modifies(d->rw) || d->xo.iometa)
			p->files[k].written = true;
		if (job_rw_trims(d->rw))
			p->files[k].trimmed = true;
		if (job_rw_reads(d->rw))
			p->files[k].read = true;
	}
	if (!d->filename && nd && !p->scratch_parent &&
	    !(p->scratch_parent = strdup(dirs[0])))
		rc = -ENOMEM;
	else if (!d->filename && nd && strcmp(p->scratch_parent, dirs[0]))
		rc = job_plan_err(d, err, errlen, "directory='%s' differs from '%s' of an "
				  "earlier job: one scratch directory per run", dirs[0],
				  p->scratch_parent);
out:
	job_names_free(names, n);
	job_names_free(dirs, nd);
	return rc;
}

static bool plan_selected(const struct job_def *d, const char *const *sect, unsigned ns)
{
	unsigned i;

	if (!ns)
		return true;
	for (i = 0; i < ns; i++)
		if (!strcmp(d->section, sect[i]))
			return true;
	return false;
}

/* Threads with their group and step; units. */
static int plan_threads(struct job_plan *p, const char *const *sect, unsigned ns)
{
	const struct job_list *l = p->jobs;
	unsigned j, c, n, group = 0, step = 0, seen = 0;
	uint64_t all = 0;	/* 2^20 sections x numjobs=4096 must not wrap */

	for (j = 0; j < l->njobs; j++)
		if (plan_selected(&l->jobs[j], sect, ns))
			all += l->jobs[j].numjobs;
	if (!all)
		return -ENOENT;
	if (all > JOB_PLAN_MAX_THREADS)
		return -E2BIG;
	/* each thread and report unit holds its statistics (histograms): at most half of
	 * the RAM for them, refused before anything is made */
	if (all * (sizeof(*p->threads) + sizeof(*p->units)) > sysinfo_ram() / 2)
		return -EFBIG;
	n = (unsigned)all;
	p->threads = calloc(n, sizeof(*p->threads));
	p->units = calloc(n, sizeof(*p->units));
	p->steps = calloc(n, sizeof(*p->steps));
	if (!p->threads || !p->units || !p->steps)
		return -ENOMEM;
	for (j = 0; j < l->njobs; j++) {
		const struct job_def *d = &l->jobs[j];

		if (!plan_selected(d, sect, ns))
			continue;
		if (seen && (d->stonewall || d->new_group))
			group++;
		if (seen && d->stonewall)
			step++;
		seen++;
		for (c = 0; c < d->numjobs; c++) {
			struct job_thread *t = &p->threads[p->nthreads];
			struct job_unit *u = p->nunits ? &p->units[p->nunits - 1] : NULL;

			t->d = d;
			t->job = j;
			t->clone = c;
			t->step = step;
			/* fio: randrepeat (or randseed) repeats the run; clones differ */
			t->seed = (d->randrepeat || JOB_SET(d, JOB_OPT_RANDSEED) ? d->randseed
								      : (uint64_t)clock_ns()) +
				  0x9e3779b97f4a7c15ull * (c + 1) + ((uint64_t)j << 32) +
				  /* and ranks differ, as dd's (its --seed + rank) */
				  ((uint64_t)comm_rank() << 48);
			if (!(d->group_reporting && u && u->group == group &&
			      p->threads[u->first_thread].d->group_reporting)) {
				u = &p->units[p->nunits++];
				u->first_thread = p->nthreads;
				u->group = group;
				u->step = step;
				u->cache_pct = -1;
			}
			u->nthreads++;
			t->unit = (unsigned)(u - p->units);
			if (step + 1 > p->nsteps)
				p->steps[p->nsteps++].first = p->nthreads;
			p->steps[step].n++;
			p->nthreads++;
		}
	}
	p->ngroups = group + 1;
	return 0;
}

int job_plan_build(struct job_plan *p, const struct job_list *jobs, const char *const *sect,
		   unsigned nsect, const struct job_safety *sf, char *err, size_t errlen)
{
	unsigned i;
	int rc;

	memset(p, 0, sizeof(*p));
	p->jobs = jobs;
	rc = plan_threads(p, sect, nsect);
	if (rc == -ENOENT) {
		snprintf(err, errlen, nsect ? "job: no job section called '%s'" :
			 "job: no job to run (only global sections)", nsect ? sect[0] : "");
		return -EINVAL;
	}
	if (rc == -E2BIG || rc == -EFBIG) {
		if (rc == -E2BIG)
			snprintf(err, errlen, "job: more than %u threads in the run (numjobs "
				 "over every job)", JOB_PLAN_MAX_THREADS);
		else
			snprintf(err, errlen, "job: too many threads for this machine's memory: "
				 "each holds %zu kB of statistics, at most half of the RAM",
				 (sizeof(*p->threads) + sizeof(*p->units)) >> 10);
		return -EINVAL;
	}
	if (rc)
		return rc;
	for (i = 0; i < p->nthreads; i++) {
		struct job_thread *t = &p->threads[i];
		unsigned k;

		if (sig_stop_requested())
			return -EINTR;
		if ((rc = plan_thread_files(p, t, sf, err, errlen)) < 0)
			return rc;
		plan_regions(t);
		for (k = 0; k < t->nfiles; k++) {
			struct job_file *f = &p->files[t->files[k].file];

			/* a file offset is an off_t: offset + region must stay below 2^63
			 * (offset=2^64-1 wrapped to an empty region that "succeeded") */
			if (t->files[k].off > INT64_MAX || t->files[k].len > INT64_MAX ||
			    t->files[k].off + t->files[k].len > INT64_MAX)
				return job_plan_err(t->d, err, errlen, "offset=%llu and the "
						    "region of %llu bytes pass the largest file "
						    "offset (2^63 - 1)",
						    (unsigned long long)t->files[k].off,
						    (unsigned long long)t->files[k].len);

			if (f->need < t->files[k].off + t->files[k].len)
				f->need = t->files[k].off + t->files[k].len;
		}
	}
	return 0;
}

uint64_t job_plan_layout_bytes(const struct job_plan *p)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < p->nfiles; i++) {
		const struct job_file *f = &p->files[i];
		/* a shared file: this rank fills its own segment (rank 0 from the start) */
		uint64_t from = f->shared && comm_rank() && f->lo > f->have ? f->lo : f->have;

		if (!f->device && f->need > from)
			n += f->need - from;
	}
	return n;
}

int job_plan_place(struct job_plan *p, const char *dir)
{
	unsigned i;

	for (i = 0; i < p->nfiles; i++) {
		struct job_file *f = &p->files[i];
		char *path;

		if (!f->in_scratch)
			continue;
		path = plan_join(dir, f->path, -1);
		if (!path)
			return -ENOMEM;
		if (strlen(path) >= PATH_MAX) {
			free(path);
			return -ENAMETOOLONG;
		}
		free(f->path);
		f->path = path;
	}
	return 0;
}

void job_plan_free(struct job_plan *p)
{
	unsigned i;

	for (i = 0; i < p->nthreads; i++) {
		free(p->threads[i].files);
		job_thread_resume_free(&p->threads[i]);
		job_tlog_free(p->threads[i].tlog);
		job_ss_free(p->threads[i].ss);
		job_stats_free(&p->threads[i].st);
	}
	for (i = 0; i < p->nunits; i++)
		job_stats_free(&p->units[i].st);
	for (i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	free(p->threads);
	free(p->units);
	free(p->steps);
	free(p->files);
	free(p->scratch_parent);
	for (i = 0; i < p->nlogs; i++)
		free(p->logs[i]);
	free(p->logs);
	memset(p, 0, sizeof(*p));
}
