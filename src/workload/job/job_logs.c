/* job_logs.c - fio's bw, iops, latency and histogram logs (job_logs.h): the options,
 * a thread's lines in memory streams, and the files written after each step. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/comm.h"
#include "core/err.h"
#include "output/fio_fmt.h"
#include "stats/hist.h"
#include "workload/job/job_int.h"
#include "workload/job/job_logs.h"
#include "workload/job/job_run.h"

enum { JL_BW, JL_IOPS, JL_LAT, JL_CLAT, JL_SLAT, JL_HIST, JL_N };

static const char *const jl_suffix[JL_N] = {
	"_bw", "_iops", "_lat", "_clat", "_slat", "_clat_hist",
};

/* Per direction, what a window has gathered. */
struct jl_win {
	uint64_t bytes, ios, clat, slat, nslat, lat;
};

struct job_tlog {
	const struct job_logcfg *c;
	const char *jobname;
	unsigned ioprio;		/* the thread's I/O priority (job_ioprio) */
	FILE *f[JL_N];			/* memory streams, NULL for logs not asked */
	char *buf[JL_N];
	size_t len[JL_N];
	uint64_t avg_ns, hist_ns;	/* window lengths, 0: none */
	uint64_t avg_from, hist_from;	/* the windows' starts */
	struct jl_win w[JOB_DDIRS];
	unsigned hist_seen;		/* directions in this histogram window */
	uint64_t hist_bs[JOB_DDIRS];
	uint64_t (*bins)[FIO_PLAT_NR];	/* [JOB_DDIRS]: fio's bins, this window */
};

/* ---- options ---- */

void job_logcfg_clear(struct job_logcfg *c)
{
	free(c->bw);
	free(c->lat);
	free(c->iops);
	free(c->hist);
	c->bw = c->lat = c->iops = c->hist = NULL;
}

int job_logcfg_copy(struct job_logcfg *dst, const struct job_logcfg *src)
{
	*dst = *src;
	dst->bw = dst->lat = dst->iops = dst->hist = NULL;
	if (job_strset(&dst->bw, src->bw) || job_strset(&dst->lat, src->lat) ||
	    job_strset(&dst->iops, src->iops) || job_strset(&dst->hist, src->hist)) {
		job_logcfg_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

bool job_logcfg_on(const struct job_logcfg *c)
{
	return c->bw || c->lat || c->iops || c->hist;
}

/* write_*_log[=STEM]: bare, the job's name (""). */
static int jl_opt_name(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		       const char *val)
{
	char **dst = (char **)((char *)d + o->off);

	while (val && (*val == ' ' || *val == '\t'))
		val++;
	if (val && strchr(val, '/') && val[strlen(val) - 1] == '/')
		return job_opt_bad(ps, val, "a file name stem is needed, not a directory");
	return job_strset(dst, val ? val : "") ? -ENOMEM : 0;
}

#define JL_OFF(f)	offsetof(struct job_def, f)
#define JL_NAME(nm, f)	{ nm, NULL, JOB_OPT_COUNT, JK_SPECIAL, 0, JL_OFF(f), 0, 0, 0, jl_opt_name }
/* fio takes these in milliseconds, plain numbers */
#define JL_MS(nm, f)	{ nm, NULL, JOB_OPT_COUNT, JK_U64, 0, JL_OFF(f), 0, 86400000u, 0, NULL }

static const struct job_optdef jl_opts[] = {
	JL_NAME("write_bw_log", logs.bw),
	JL_NAME("write_lat_log", logs.lat),
	JL_NAME("write_iops_log", logs.iops),
	JL_NAME("write_hist_log", logs.hist),
	JL_MS("log_avg_msec", logs.avg_ms),
	JL_MS("log_hist_msec", logs.hist_ms),
	{ "log_offset", NULL, JOB_OPT_COUNT, JK_BOOL, 0, JL_OFF(logs.offset), 0, 0, 0, NULL },
	{ "log_prio", NULL, JOB_OPT_COUNT, JK_BOOL, 0, JL_OFF(logs.prio), 0, 0, 0, NULL },
};

static int jl_per_job(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	(void)o;
	if (!val || !strcmp(val, "1"))
		d->logs.shared = false;
	else if (!strcmp(val, "0"))
		d->logs.shared = true;
	else
		return job_opt_bad(ps, val, "must be 0 or 1");
	return 0;
}

static const struct job_optdef jl_per_job_opt = {
	"per_job_logs", NULL, JOB_OPT_COUNT, JK_SPECIAL, 0, 0, 0, 0, 0, jl_per_job,
};

const struct job_optdef *job_logs_opt_find(const char *name)
{
	size_t i;

	if (!strcmp(name, "per_job_logs"))
		return &jl_per_job_opt;
	for (i = 0; i < sizeof(jl_opts) / sizeof(jl_opts[0]); i++)
		if (!strcmp(jl_opts[i].name, name))
			return &jl_opts[i];
	return job_ss_opt_find(name);
}

/* ---- names ---- */

static const char *jl_stem(const struct job_def *d, int k)
{
	const struct job_logcfg *c = &d->logs;
	const char *s = k == JL_BW ? c->bw : k == JL_IOPS ? c->iops :
			k == JL_HIST ? c->hist : c->lat;

	return s && !*s ? d->name : s;
}

/* The file of log k of thread number tno (0-based); under mpirun each rank's own, with
 * ".rRANK" before ".log" (fio's readers still match *_bw.*.log). -ENAMETOOLONG or 0. */
static int jl_path(char *buf, size_t len, const struct job_def *d, int k, unsigned tno)
{
	char rank[24] = "", job[24] = "";
	int n;

	if (comm_multi())
		snprintf(rank, sizeof(rank), ".r%u", comm_rank());
	if (!d->logs.shared)
		snprintf(job, sizeof(job), ".%u", tno + 1);
	n = snprintf(buf, len, "%s%s%s%s.log", jl_stem(d, k), jl_suffix[k], job, rank);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int job_logs_check(const struct job_plan *p, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	unsigned i;
	int k;

	for (i = 0; i < p->nthreads; i++) {
		const struct job_def *d = p->threads[i].d;

		for (k = 0; k < JL_N; k++) {
			if (!jl_stem(d, k))
				continue;
			if (jl_path(path, sizeof(path), d, k, i) < 0)
				return job_plan_err(d, err, errlen, "log file name too long");
			if (lstat(path, &st) == 0)
				return job_plan_err(d, err, errlen, "log file exists: '%s': "
						    "iobattery never overwrites a file (remove it, "
						    "or name another log)", path);
		}
	}
	return 0;
}

/* ---- a thread's lines ---- */

int job_tlog_new(const struct job_def *d, struct job_tlog **out)
{
	struct job_tlog *l;
	int k;

	*out = NULL;
	if (!job_logcfg_on(&d->logs))
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->c = &d->logs;
	l->jobname = d->name;
	l->ioprio = job_ioprio(d);
	l->avg_ns = d->logs.avg_ms * 1000000u;
	l->hist_ns = d->logs.hist ? d->logs.hist_ms * 1000000u : 0;
	for (k = 0; k < JL_N; k++)
		if (jl_stem(d, k) && !(l->f[k] = open_memstream(&l->buf[k], &l->len[k])))
			goto fail;
	if (l->hist_ns && !(l->bins = calloc(JOB_DDIRS, sizeof(*l->bins))))
		goto fail;
	*out = l;
	return 0;
fail:
	job_tlog_free(l);
	return -ENOMEM;
}

void job_tlog_free(struct job_tlog *l)
{
	int k;

	if (!l)
		return;
	for (k = 0; k < JL_N; k++) {
		if (l->f[k])
			fclose(l->f[k]);
		free(l->buf[k]);
	}
	free(l->bins);
	free(l);
}

/* "TIME, VALUE, DIR, BS[, OFFSET], PRIO": prio is the ioprio value the request was
 * issued with (the thread's), written as fio writes it: the whole value in hex with
 * log_prio, else 1 for the real-time class and 0 for the others. */
static void jl_line(const struct job_tlog *l, FILE *f, uint64_t t, uint64_t v, unsigned dir,
		    uint64_t bs, uint64_t off, unsigned prio)
{
	if (!f)
		return;
	fprintf(f, "%llu, %llu, %u, %llu, ", (unsigned long long)(t / 1000000u),
		(unsigned long long)v, dir, (unsigned long long)bs);
	if (l->c->offset)
		fprintf(f, "%llu, ", (unsigned long long)off);
	if (l->c->prio)
		fprintf(f, "0x%04x\n", prio);
	else
		fputs(prio >> 13 == 1 ? "1\n" : "0\n", f);
}

/* The averaging window [avg_from, t): a line per direction seen, means over its length. */
static void jl_avg_flush(struct job_tlog *l, uint64_t t)
{
	uint64_t span = t - l->avg_from;
	unsigned d;

	for (d = 0; span && d < JOB_DDIRS; d++) {
		struct jl_win *w = &l->w[d];

		if (!w->ios)
			continue;
		/* KiB/s = bytes / (span / 1e9) / 1024; I/Os a second likewise */
		jl_line(l, l->f[JL_BW], t,
			(uint64_t)((double)w->bytes * 1e9 / (double)span / 1024), d, 0, 0, 0);
		jl_line(l, l->f[JL_IOPS], t, (uint64_t)((double)w->ios * 1e9 / (double)span), d,
			0, 0, 0);
		jl_line(l, l->f[JL_LAT], t, w->lat / w->ios, d, 0, 0, 0);
		jl_line(l, l->f[JL_CLAT], t, w->clat / w->ios, d, 0, 0, 0);
		if (w->nslat)
			jl_line(l, l->f[JL_SLAT], t, w->slat / w->nslat, d, 0, 0, 0);
		memset(w, 0, sizeof(*w));
	}
	l->avg_from = t;
}

static void jl_hist_flush(struct job_tlog *l, uint64_t t)
{
	unsigned d, i;

	for (d = 0; d < JOB_DDIRS; d++) {
		if (!(l->hist_seen & (1u << d)))
			continue;
		fprintf(l->f[JL_HIST], "%llu, %u, %llu", (unsigned long long)(t / 1000000u), d,
			(unsigned long long)l->hist_bs[d]);
		for (i = 0; i < FIO_PLAT_NR; i++)
			fprintf(l->f[JL_HIST], ", %llu", (unsigned long long)l->bins[d][i]);
		fputc('\n', l->f[JL_HIST]);
		memset(l->bins[d], 0, sizeof(l->bins[d]));
	}
	l->hist_seen = 0;
	l->hist_from = t;
}

void job_tlog_io(struct job_tlog *l, const struct job_tlog_req *q)
{
	unsigned dir = q->dir, prio = q->prio ? q->prio : l->ioprio;
	uint64_t t = q->t;

	if (l->hist_ns) {
		while (t >= l->hist_from + l->hist_ns)
			jl_hist_flush(l, l->hist_from + l->hist_ns);
		l->bins[dir][fio_plat_index(hist_index(q->clat))]++;
		l->hist_seen |= 1u << dir;
		l->hist_bs[dir] = q->bs;
	}
	if (!l->avg_ns) {
		jl_line(l, l->f[JL_BW], t, q->bytes * 1000000u / (q->clat ? q->clat : 1), dir,
			q->bs, q->off, prio);
		jl_line(l, l->f[JL_IOPS], t, 1, dir, q->bs, q->off, prio);
		jl_line(l, l->f[JL_LAT], t, q->lat, dir, q->bs, q->off, prio);
		jl_line(l, l->f[JL_CLAT], t, q->clat, dir, q->bs, q->off, prio);
		if (q->slat != UINT64_MAX)
			jl_line(l, l->f[JL_SLAT], t, q->slat, dir, q->bs, q->off, prio);
		return;
	}
	while (t >= l->avg_from + l->avg_ns)
		jl_avg_flush(l, l->avg_from + l->avg_ns);
	l->w[dir].bytes += q->bytes;
	l->w[dir].ios++;
	l->w[dir].clat += q->clat;
	l->w[dir].lat += q->lat;
	if (q->slat != UINT64_MAX) {
		l->w[dir].slat += q->slat;
		l->w[dir].nslat++;
	}
}

void job_tlog_end(struct job_tlog *l, uint64_t t)
{
	if (!l)
		return;
	if (l->avg_ns && t > l->avg_from)
		jl_avg_flush(l, t);
	if (l->hist_ns && l->hist_seen)
		jl_hist_flush(l, t > l->hist_from ? t : l->hist_from);
}

/* ---- the files ---- */

/* Whether this run made path already (per_job_logs=0: the next thread appends). */
static bool jl_made(const struct job_plan *p, const char *path)
{
	unsigned i;

	for (i = 0; i < p->nlogs; i++)
		if (!strcmp(p->logs[i], path))
			return true;
	return false;
}

/* Create path (it must not exist, not even as a link), or append to the one this run
 * made (never through a link put there since). */
static int jl_write_one(struct job_plan *p, const char *path, const char *buf, size_t len)
{
	bool again = jl_made(p, path);
	int fd = open(path, again ? O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC :
				    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	FILE *f;
	char **nl;
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (!(f = fdopen(fd, "a"))) {
		rc = -errno;
		(void)close(fd);	/* nothing written through it */
		return rc;
	}
	if (!again) {
		nl = realloc(p->logs, (p->nlogs + 1) * sizeof(*nl));
		if (!nl || !(nl[p->nlogs] = strdup(path))) {
			p->logs = nl ? nl : p->logs;
			rc = -ENOMEM;
		} else {
			p->logs = nl;
			p->nlogs++;
		}
	}
	if (len && fwrite(buf, 1, len, f) != len)
		rc = rc ? rc : -EIO;
	if (fclose(f) != 0 && !rc)
		rc = -errno;
	return rc;
}

int job_logs_write(struct job_plan *p, unsigned first, unsigned n)
{
	char path[4096];
	unsigned i;
	int k, rc, ret = 0;

	for (i = first; i < first + n; i++) {
		struct job_thread *t = &p->threads[i];
		struct job_tlog *l = t->tlog;

		if (!l)
			continue;
		for (k = 0; k < JL_N; k++) {
			if (!l->f[k])
				continue;
			rc = fflush(l->f[k]) ? -ENOMEM : jl_path(path, sizeof(path), t->d, k, i);
			if (!rc)
				rc = jl_write_one(p, path, l->buf[k], l->len[k]);
			if (rc < 0) {
				err_errno(rc, "job: cannot write the log: '%s'", path);
				ret = ret ? ret : rc;
			}
		}
		job_tlog_free(l);
		t->tlog = NULL;
		t->logs_done = true;
	}
	return ret;
}
