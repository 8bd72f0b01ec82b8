/* battery_jobstep.c - the database-pattern step: what a database server asks of its
 * storage, as a fio job file of four jobs run one after the other (stonewall) by the job
 * workload: 8 KiB random reads one at a time (an index lookup that waits for its page)
 * and 32 in flight (many sessions at once), 8 KiB random writes each made durable by
 * fdatasync (a commit), and a 70/30 mix of reads and writes at depth 32; the writing jobs
 * end with an fsync, for their durable figure. O_DIRECT, so
 * that the page cache neither serves the reads nor absorbs the writes, on the best engine
 * this build and kernel allow (io_uring, then libaio, then psync). The file is laid out
 * with real data before the jobs run, and removed after.
 *
 * The rows are the job workload's per-job rows (read, write, sync: IOPS with latency);
 * its per-step aggregate rows would repeat them in MiB/s, and its disk rows the
 * samplers' device figures, so both go, and an aggregate's system figures move to the
 * first row of its job. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/battery/battery_int.h"
#include "workload/job/job.h"
#include "workload/job/job_run.h"

#define JOB_FILE	"battery-db.dat"

static const char *const job_pref[] = { "io_uring", "libaio", "psync", NULL };

const char *const *battery_job_engines(void)
{
	return job_pref;
}

void battery_job_engine(struct battery_env *e)
{
	size_t i, n = 0;

	e->job_engine[0] = e->job_engine_why[0] = '\0';
	for (i = 0; job_pref[i]; i++) {
		const struct engine *x = engine_find(job_pref[i]);
		const char *why = NULL;
		int r = 0;

		if (!x)
			why = engine_absent(job_pref[i]);
		else if (x->probe && (r = x->probe()) < 0)
			why = engine_hint(x, NULL, r);
		if (x && r == 0) {
			snprintf(e->job_engine, sizeof(e->job_engine), "%s", job_pref[i]);
			return;
		}
		if (!why)
			why = r < 0 ? strerror(-r) : "not in this build";
		if (n < sizeof(e->job_engine_why))
			n += (size_t)snprintf(e->job_engine_why + n, sizeof(e->job_engine_why) - n,
					      "%s%s: %s", n ? "; " : "", job_pref[i], why);
	}
}

int battery_job_text(const struct battery_plan *p, char *buf, size_t len)
{
	unsigned secs = battery_job_secs(p);

	/* planned: each job runs for its seconds over the whole file; by hand (--size):
	 * each does the file's bytes once, a second at most */
	return snprintf(buf, len,
			"; iobattery battery: the database pattern (8 KiB pages, O_DIRECT)\n"
			"[global]\n"
			"filename=" JOB_FILE "\n"
			"size=%llu\n"
			"bs=8k\n"
			"direct=1\n"
			"ioengine=%s\n"
			"%s"
			"runtime=%u\n"
			"\n[randread-qd1]\nrw=randread\niodepth=1\nstonewall\n"
			"\n[randread-qd32]\nrw=randread\niodepth=32\nstonewall\n"
			"\n[randwrite-fdatasync]\nrw=randwrite\niodepth=1\nfdatasync=1\n"
			"end_fsync=1\nstonewall\n"
			"\n[randrw70-qd32]\nrw=randrw\nrwmixread=70\niodepth=32\nend_fsync=1\n"
			"stonewall\n",
			(unsigned long long)battery_job_bytes(p), p->job_engine,
			p->hand_sized ? "" : "time_based=1\n", secs ? secs : 1);
}

static void job_quiet(void *arg, const char *msg)
{
	/* the rows say what matters (iodepth on a synchronous engine ...) */
	(void)arg;
	(void)msg;
}

/* dir with fio's escape for a colon (job_names_split splits a list at colons). */
static int escaped(const char *dir, char *out, size_t len)
{
	size_t n = 0;

	for (; *dir; dir++) {
		if (n + 3 > len)
			return -ENAMETOOLONG;
		if (*dir == ':')
			out[n++] = '\\';
		out[n++] = *dir;
	}
	out[n] = '\0';
	return 0;
}

/* The job's rows from index first on, as the battery shows them (the header says how). */
static void tidy(struct run *run, size_t first)
{
	size_t i = first;

	while (i < run->nrows) {
		struct row *w = run->rows[i];

		if (strcmp(w->workload, "job") || (strcmp(w->phase, "disk") &&
						   strcmp(w->phase, "aggregate"))) {
			i++;
			continue;
		}
		if (!strcmp(w->phase, "aggregate") && i + 1 < run->nrows &&
		    !strcmp(run->rows[i + 1]->workload, "job") && !run->rows[i + 1]->sys &&
		    strcmp(run->rows[i + 1]->phase, "aggregate")) {
			run->rows[i + 1]->sys = w->sys;
			run->rows[i + 1]->series = w->series;
			w->sys = NULL;
			w->series = NULL;
		}
		run_remove_row(run, i);
	}
}

/* The first thread that could not open its file because O_DIRECT was refused (the probe
 * found O_DIRECT, but not on this file), or NULL. */
static const struct job_thread *refused(const struct job_plan *jp)
{
	unsigned i;

	for (i = 0; i < jp->nthreads; i++) {
		const struct job_stats *st = &jp->threads[i].st;

		if (st->err == -EINVAL && st->err_op < 0 && !strncmp(st->errtxt, "cannot open", 11))
			return &jp->threads[i];
	}
	return NULL;
}

/* The job's rows from first on replaced by one not-measured row: the step is skipped,
 * with the reason, not failed. */
static void skipped(struct runner *rc, size_t first, const struct job_thread *t)
{
	struct row *w;

	while (rc->run->nrows > first)
		run_remove_row(rc->run, rc->run->nrows - 1);
	w = run_add_row(rc->run, "job", "skipped");
	if (!w)
		return;
	w->repeat = rc->repeat;
	w->flags |= ROW_NOT_MEASURED;
	w->note = str_printf("skipped: the file system refused O_DIRECT on the job's file "
			     "(%s): its random reads would measure the page cache", t->st.errtxt);
	kv_set(&w->params, RK_ROW_DETAIL, "%s", battery_step_name(BSTEP_JOB));
}

/* A row saying why the step could not run its jobs. */
static void failed_row(struct runner *rc, const char *phase, const char *err)
{
	struct row *w = run_add_row(rc->run, "job", phase);

	if (!w)
		return;
	w->repeat = rc->repeat;
	w->flags |= ROW_FAILED;
	w->error = str_printf("%s", err);
	kv_set(&w->params, RK_ROW_DETAIL, "%s", battery_step_name(BSTEP_JOB));
}

int battery_job_step(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	char text[2048], err[1024], edir[8192];
	struct job_safety sf;
	struct job_list l;
	struct job_plan jp;
	size_t first = rc->run->nrows;
	int r;

	if (battery_job_text(p, text, sizeof(text)) >= (int)sizeof(text))
		return -EOVERFLOW;
	if ((r = escaped(dir, edir, sizeof(edir))) < 0)
		return r;
	memset(&sf, 0, sizeof(sf));
	memset(&jp, 0, sizeof(jp));
	sf.dir = edir;
	job_list_init(&l);
	l.ctx.flags = JOB_PARSE_NO_INCLUDE;
	l.ctx.warn = job_quiet;
	err[0] = '\0';
	r = job_parse_buf(text, strlen(text), "battery", &l, err, sizeof(err));
	if (!r)
		r = job_prepare(&jp, &l, NULL, 0, &sf, err, sizeof(err));
	if (r < 0) {
		failed_row(rc, "plan", err[0] ? err : strerror(-r));
	} else if ((r = job_layout(&jp, &sf, err, sizeof(err))) < 0) {
		if (r != -EINTR)
			failed_row(rc, "layout", err);
	} else {
		const struct job_thread *t;

		r = job_run_steps(rc, &jp);
		if (r != -EINTR && (t = refused(&jp)) != NULL) {
			skipped(rc, first, t);
			r = 0;
		}
	}
	job_layout_release(&jp, false);
	job_plan_free(&jp);
	job_list_free(&l);
	tidy(rc->run, first);
	return r;
}
