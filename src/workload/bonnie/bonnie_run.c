/* bonnie_run.c - running the Bonnie++ battery: the two blocks in order, the figures of
 * each row (rate as Bonnie++ computes it, params, per-copy metrics, cache verdict), the
 * effective options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe/cache.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/bonnie/bonnie.h"
#include "workload/bonnie/bonnie_int.h"
#include "runner/runner.h"
#include "workload/workload.h"

static const char *method_name(int m)
{
	return m == BONNIE_CHAR_PUTC ? "putc" : "syscall";
}

static int is_file_test(int t)
{
	return t >= BT_SEQ_CREATE;
}

/* The amount of work Bonnie++ divides by the time: KiB for the data tests (rewrite
 * moves every byte twice but counts it once), seeks, files. */
static double work_done(int t, uint64_t bytes, uint64_t ops)
{
	if (t == BT_REWRITE)
		return (double)bytes / 2.0 / 1024.0;
	if (t == BT_SEEKS || is_file_test(t))
		return (double)ops;
	return (double)bytes / 1024.0;
}

static void set_params(struct row *row, const struct bonnie_cfg *c, int t)
{
	kv_set(&row->params, RK_BONNIE_COPIES, "%u", c->copies);
	kv_set(&row->params, RK_BONNIE_FSYNC_EACH, "%d", c->fsync_each);
	if (t == BT_PUTC || t == BT_GETC)
		kv_set(&row->params, RK_ROW_DETAIL, "%s", c->char_method == BONNIE_CHAR_PUTC ?
		       "stdio putc/getc" : "a syscall per byte");
	else if (t == BT_SEEKS)
		kv_set(&row->params, RK_ROW_DETAIL, "%u seekers x%u", c->seekers, c->copies);
	else if (is_file_test(t))
		kv_set(&row->params, RK_ROW_DETAIL, "%u files", c->nfiles * BONNIE_FILE_UNIT);
	else
		kv_set(&row->params, RK_ROW_DETAIL, "%u B chunks%s", c->chunk,
		       c->direct ? ", direct" : "");
	if (t == BT_PUTC || t == BT_GETC) {
		kv_set(&row->params, RK_BONNIE_CHAR_METHOD, "%s", method_name(c->char_method));
		kv_set(&row->params, RK_BONNIE_CHAR_MB, "%llu", (unsigned long long)c->char_mb);
	}
	if (!is_file_test(t)) {
		kv_set(&row->params, RK_BONNIE_SIZE_MB, "%llu", (unsigned long long)c->size_mb);
		kv_set(&row->params, RK_BONNIE_CHUNK, "%u", c->chunk);
		kv_set(&row->params, RK_BONNIE_SEEKS, "%u", c->seeks);
		kv_set(&row->params, RK_BONNIE_SEEKERS, "%u", c->seekers);
		if (t != BT_PUTC && t != BT_GETC)
			kv_set(&row->params, RK_BONNIE_DIRECT, "%d", c->direct);
	} else {
		kv_set(&row->params, RK_BONNIE_FILES, "%u", c->nfiles);
		kv_set(&row->params, RK_BONNIE_MAX_SIZE, "%d", c->max_size);
		kv_set(&row->params, RK_BONNIE_MIN_SIZE, "%d", c->min_size);
		kv_set(&row->params, RK_BONNIE_DIRS, "%u", c->ndirs);
		kv_set(&row->params, RK_BONNIE_FILE_CHUNK, "%u", c->file_chunk);
	}
}

int bonnie_row_finish(struct row *row, const struct bonnie_cfg *c, int t, int r)
{
	double secs = (double)row->elapsed_ns / 1e9;

	row->rate = secs > 0 ? work_done(t, row->bytes, row->ops) / secs : 0;
	str_set(&row->rate_unit, t == BT_SEEKS ? "seeks/s" : is_file_test(t) ? "files/s"
										: "K/sec");
	set_params(row, c, t);
	if (r == -EINTR || sig_stop_requested()) {
		row->flags |= ROW_INCOMPLETE;
	} else if (r < 0 && !(row->flags & ROW_FAILED)) {
		row->flags |= ROW_FAILED;
		if (!row->error)
			row->error = str_printf("%s", strerror(-r));
	}
	return r;
}

void bonnie_row_cache(struct row *row, const struct bonnie_cfg *c, double pct, int dropped)
{
	char buf[160];
	int t = bonnie_test_of(row->phase);
	int direct = c->direct && t != BT_GETC;

	row->cache_pct = pct;
	row->cache_dropped = dropped;
	if (pct < 0)
		return;
	if (!direct && pct >= CACHE_INFLATED_PCT)
		row->flags |= ROW_CACHE_INFLATED;
	if (direct) {
		snprintf(buf, sizeof(buf), "O_DIRECT: the page cache was bypassed "
			 "(%.0f%% of the data was resident)", pct);
		str_set(&row->note, buf);
	} else {
		str_set(&row->note, cache_verdict(buf, sizeof(buf), pct, dropped));
	}
}

/* Per-copy figures: workers i*per .. i*per+per-1 belong to copy i. */
struct copy_fig {
	uint64_t bytes, ops, t0, t1;
};

int bonnie_phase(struct runner *rc, const struct bonnie_cfg *c, int t, unsigned nw,
		 const char *unit, uint64_t expect, int (*fn)(void *, unsigned, struct worker *),
		 void *arg, struct row **out)
{
	struct copy_fig cf[64];
	struct phase ph;
	struct row *row;
	unsigned i, per = nw / c->copies;
	int r;

	*out = NULL;
	r = phase_begin(&ph, rc, bonnie_test_name(t), nw, unit, expect);
	if (r < 0)
		return r;
	r = runner_parallel(&ph, fn, arg);
	memset(cf, 0, sizeof(cf));
	for (i = 0; i < nw && c->copies > 1; i++) {
		struct copy_fig *f = &cf[i / per];
		const struct worker *w = &ph.w[i];

		f->bytes += w->bytes;
		f->ops += w->ops;
		if (!f->t0 || w->t_first < f->t0)
			f->t0 = w->t_first;
		if (w->t_last > f->t1)
			f->t1 = w->t_last;
	}
	row = phase_end(&ph, "bonnie");
	if (!row)
		return -ENOMEM;
	*out = row;
	for (i = 0; i < c->copies && c->copies > 1; i++) {
		char name[32];
		double s = (double)(cf[i].t1 - cf[i].t0) / 1e9;

		snprintf(name, sizeof(name), RK_BONNIE_COPY_RATE_FMT, i + 1);
		row_add_metric(row, name, s > 0 ? work_done(t, cf[i].bytes, cf[i].ops) / s : 0,
			       t == BT_SEEKS ? "seeks/s" : is_file_test(t) ? "files/s" : "K/sec");
	}
	return bonnie_row_finish(row, c, t, r);
}

/* Move the rows of from to the end of to (both runs of the same workload). */
static int move_rows(struct run *to, struct run *from)
{
	size_t i;

	if (to->nrows + from->nrows > to->cap) {
		size_t cap = to->nrows + from->nrows + 16;
		struct row **v = realloc(to->rows, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		to->rows = v;
		to->cap = cap;
	}
	for (i = 0; i < from->nrows; i++)
		to->rows[to->nrows++] = from->rows[i];
	from->nrows = 0;
	return 0;
}

/* --min-time: run the file block on trial runs, growing the file count by the ratio of
 * the wanted time to the shortest phase's, until every phase lasts min_time (or the
 * count reaches BONNIE_MAX_FILES_UNITS); the last trial's rows are the result. */
static int file_block_min_time(struct runner *rc, const struct bonnie_cfg *c,
			       const char *dir)
{
	struct bonnie_cfg t = *c;
	uint64_t want = (uint64_t)(c->min_time * 1e9);
	int tries, r = 0;

	for (tries = 0; tries < 8; tries++) {
		struct runner tr = *rc;
		uint64_t shortest = UINT64_MAX;
		double grow;
		size_t i;

		tr.run = run_new("bonnie");
		if (!tr.run)
			return -ENOMEM;
		r = bonnie_file_tests(&tr, &t, dir);
		for (i = 0; i < tr.run->nrows; i++)
			if (tr.run->rows[i]->elapsed_ns < shortest)
				shortest = tr.run->rows[i]->elapsed_ns;
		if (r < 0 || shortest >= want || t.nfiles >= BONNIE_MAX_FILES_UNITS ||
		    sig_stop_requested() || tries == 7) {
			for (i = 0; i < tr.run->nrows; i++)
				kv_set(&tr.run->rows[i]->params, RK_BONNIE_MIN_TIME, "%g",
				       c->min_time);
			if (move_rows(rc->run, tr.run) < 0)
				r = -ENOMEM;
			run_free(tr.run);
			return r;
		}
		run_free(tr.run);
		grow = (double)want / (double)(shortest ? shortest : 1) * 1.2;
		if (grow < 1.5)
			grow = 1.5;
		t.nfiles = (double)t.nfiles * grow > BONNIE_MAX_FILES_UNITS ?
			   BONNIE_MAX_FILES_UNITS : (uint32_t)((double)t.nfiles * grow + 0.5);
	}
	return r;
}

int bonnie_run(struct runner *rc, const struct bonnie_cfg *c, const char *dir)
{
	int r = 0;

	if (c->size_mb)
		r = bonnie_io_tests(rc, c, dir);
	if (r == 0 && c->nfiles && !sig_stop_requested())
		r = c->min_time > 0 ? file_block_min_time(rc, c, dir)
				    : bonnie_file_tests(rc, c, dir);
	if (r == 0 && sig_stop_requested())
		r = -EINTR;
	return r;
}

int bonnie_record_options(struct run *run, const struct bonnie_cfg *c)
{
	struct kvlist *o = &run->options;
	int r = 0;

	r |= kv_set(o, RK_BONNIE_DIRECTORY, "%s", c->dir);
	r |= kv_set(o, RK_BONNIE_MACHINE, "%s", c->machine ? c->machine : "");
	r |= kv_set(o, RK_BONNIE_CONCURRENCY, "%u", c->copies);
	r |= kv_set(o, RK_BONNIE_SEED, "%llu", (unsigned long long)c->seed);
	r |= kv_set(o, RK_BONNIE_SIZE_MB, "%llu", (unsigned long long)c->size_mb);
	r |= kv_set(o, RK_BONNIE_CHUNK, "%u", c->chunk);
	r |= kv_set(o, RK_BONNIE_SEEKS, "%u", c->seeks);
	r |= kv_set(o, RK_BONNIE_SEEKERS, "%u", c->seekers);
	r |= kv_set(o, RK_BONNIE_FILES, "%u", c->nfiles);
	r |= kv_set(o, RK_BONNIE_MAX_SIZE, "%d", c->max_size);
	r |= kv_set(o, RK_BONNIE_MIN_SIZE, "%d", c->min_size);
	r |= kv_set(o, RK_BONNIE_DIRS, "%u", c->ndirs);
	r |= kv_set(o, RK_BONNIE_FILE_CHUNK, "%u", c->file_chunk);
	r |= kv_set(o, RK_BONNIE_RAM_MB, "%llu", (unsigned long long)c->ram_mb);
	r |= kv_set(o, RK_BONNIE_REPEATS, "%u", c->repeats);
	r |= kv_set(o, RK_BONNIE_CHAR_METHOD, "%s", method_name(c->char_method));
	r |= kv_set(o, RK_BONNIE_CHAR_MB, "%llu",
		    c->skip_char ? 0ull : (unsigned long long)c->char_mb);
	r |= kv_set(o, RK_BONNIE_FSYNC_EACH, "%d", c->fsync_each);
	r |= kv_set(o, RK_BONNIE_DIRECT, "%d", c->direct);
	r |= kv_set(o, RK_BONNIE_DROP_CACHE, "%d", c->drop_cache);
	r |= kv_set(o, RK_BONNIE_MIN_TIME, "%g", c->min_time);
	return r ? -ENOMEM : 0;
}
