/* job_fileops.c - fio's file-metadata engines in the job workload: filecreate (each of
 * the job's files created, open with O_CREAT then close), filestat (each stat'ed) and
 * filedelete (each unlinked), and fio 3.37's dircreate, dirstat and dirdelete (the same
 * on a directory of each name: mkdir, stat, rmdir), through the engine's metadata calls
 * (runner/ioctx.h), each call timed as one request. fio counts them as reads of
 * filesize bytes each (no data moves), with the call's time as the completion latency;
 * so does the fio summary here. ftruncate (each write a truncate to its offset) and
 * falloc (each request a fallocate of its range) are the engines' ftruncate and
 * fallocate calls too (job_io.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "runner/ioctx.h"
#include "runner/runner.h"
#include "workload/job/job_fileops.h"

/* fio's engine names and what each does. */
static const struct {
	const char *name;
	enum job_fileop op;
} job_fops[] = {
	{ "filecreate", JOB_FOP_CREATE }, { "filestat", JOB_FOP_STAT },
	{ "filedelete", JOB_FOP_DELETE }, { "dircreate", JOB_FOP_DCREATE },
	{ "dirstat", JOB_FOP_DSTAT }, { "dirdelete", JOB_FOP_DDELETE },
};

void job_fileop_names(char *buf, size_t len)
{
	const size_t nf = sizeof(job_fops) / sizeof(job_fops[0]);
	size_t i, used = strnlen(buf, len);
	int n;

	for (i = 0; i < nf + 2 && used < len; i++) {
		const char *nm = i < nf ? job_fops[i].name : i == nf ? "falloc" : "ftruncate";

		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", nm);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

int job_fileop_engine(struct job_def *d, const char *name)
{
	size_t i;

	d->xo.fileop = JOB_FOP_NONE;
	d->xo.iometa = JOB_IOM_NONE;
	if (!strcmp(name, "falloc") || !strcmp(name, "ftruncate")) {
		d->xo.iometa = name[1] == 'a' ? JOB_IOM_FALLOC : JOB_IOM_FTRUNCATE;
		d->engine_name = name[1] == 'a' ? "falloc" : "ftruncate";
		return 0;
	}
	for (i = 0; i < sizeof(job_fops) / sizeof(job_fops[0]); i++)
		if (!strcmp(job_fops[i].name, name)) {
			d->xo.fileop = job_fops[i].op;
			d->engine_name = job_fops[i].name;
			return 0;
		}
	return 1;
}

/* One timed call on path. Returns 0 or -errno. */
static int jf_one(struct ioctx *io, enum job_fileop op, const char *path)
{
	struct stat st;
	int fd;

	switch (op) {
	case JOB_FOP_CREATE:
		fd = ioctx_open(io, path, O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
		return fd < 0 ? fd : ioctx_close(io, fd);
	case JOB_FOP_STAT:
	case JOB_FOP_DSTAT:
		return ioctx_stat(io, path, &st);
	case JOB_FOP_DELETE:
		return ioctx_unlink(io, path);
	case JOB_FOP_DCREATE:
		return ioctx_mkdir(io, path, 0755);
	case JOB_FOP_DDELETE:
		return ioctx_rmdir(io, path);
	default:
		return -EINVAL;
	}
}

int job_fileops_run(struct job_thread *t, struct worker *w)
{
	const struct job_def *d = t->d;
	struct job_stats *s = &t->st;
	struct ioctx io;
	unsigned i, loop;
	int rc;

	job_stats_init(s);
	s->sync_only_engine = true;
	rc = ioctx_init(&io, &engine_psync, 1);
	if (rc < 0)
		return rc;
	ioctx_bind(&io, w);
	/* dirstat and dirdelete find their directories made (untimed), as fio lays out */
	for (i = 0; (d->xo.fileop == JOB_FOP_DSTAT || d->xo.fileop == JOB_FOP_DDELETE) &&
		    i < t->nfiles; i++) {
		rc = ioctx_mkdir(&io, t->pfiles[t->files[i].file].path, 0755);
		if (rc < 0 && rc != -EEXIST) {
			s->err = rc;
			s->err_op = -1;
			snprintf(s->errtxt, sizeof(s->errtxt), "%s: cannot make '%s': %s",
				 d->engine_name, t->pfiles[t->files[i].file].path, strerror(-rc));
			ioctx_exit(&io);
			return rc;
		}
	}
	worker_start(w);
	s->t_start = w->t_first;
	for (loop = 0; loop < d->loops && !s->err; loop++) {
		for (i = 0; i < t->nfiles && !sig_stop_requested(); i++) {
			const struct job_tfile *f = &t->files[i];
			uint64_t t0 = op_begin(), t1;

			rc = jf_one(&io, d->xo.fileop, t->pfiles[f->file].path);
			t1 = clock_ns();
			worker_record(w, t1 - t0, rc < 0 ? rc : (int64_t)f->len, t1);
			if (rc < 0) {
				s->err = rc;
				s->err_op = -1;
				snprintf(s->errtxt, sizeof(s->errtxt), "%s '%s': %s",
					 d->engine_name, t->pfiles[f->file].path, strerror(-rc));
				break;
			}
			hist_add(&s->clat[JOB_READ], t1 - t0);
			s->ios[JOB_READ]++;
			s->bytes[JOB_READ] += f->len;
		}
		/* a file made or removed once: the next loop finds it so (as fio) */
		if (d->xo.fileop != JOB_FOP_STAT && d->xo.fileop != JOB_FOP_DSTAT)
			break;
	}
	s->t_stop = w->t_last > s->t_start ? w->t_last : s->t_start;
	s->rt_sum_ns = s->rt_min_ns = s->rt_max_ns = s->t_stop - s->t_start;
	s->nthreads = 1;
	ioctx_exit(&io);
	return s->err;
}
