/* battery_pass.c - one pass of the battery's steps in a directory: progress with the
 * overall ETA, the configuration's params on every row, how each read kept the cache
 * out, and the honesty check: in a planned battery a figure the plan left out, or one
 * that came out short or cache-inflated after all, is left out with the reason (flag
 * not_measured, the note says why) instead of shown. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/err.h"
#include "fs/fsmake.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/battery/battery_int.h"

/* Does row w of step s read the device (and so must keep the cache out)? */
static int reads_device(enum battery_step s, const struct row *w)
{
	switch (s) {
	case BSTEP_DD_READ: case BSTEP_CP:
		return 1;
	case BSTEP_BONNIE:
		return !strcmp(w->phase, "getc") || !strcmp(w->phase, "get_block") ||
		       !strcmp(w->phase, "seeks");
	case BSTEP_IOZONE:
		return strstr(w->phase, "read") != NULL;
	case BSTEP_JOB:
		return !strcmp(w->phase, "read");
	default:
		return 0;
	}
}

static const char *read_method(const struct battery_plan *p, enum battery_step s,
			       const struct row *w)
{
	const char *d = kv_get(&w->params, "direct");

	if (d && (!strcmp(d, "true") || !strcmp(d, "1")))
		return "direct";
	if (w->cache_dropped)
		return "drop";
	if (p->s[s].read_methods & BREAD_2XRAM)
		return "2x_ram";
	return "none";
}

void battery_leave_out(struct row *w, const char *why)
{
	w->flags |= ROW_NOT_MEASURED;
	free(w->note);
	w->note = str_printf("%s", why);
}

/* PostgreSQL's rows beside SQLite's in one table: their detail says which. */
static void pg_detail(struct row *w)
{
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);
	char buf[160];

	snprintf(buf, sizeof(buf), "postgresql: %s", d ? d : "");
	kv_set(&w->params, RK_ROW_DETAIL, "%s", buf);
}

/* The honesty check of one row of a planned pass. */
static void check_row(const struct battery_plan *p, enum battery_step s, struct row *w)
{
	const char *why;
	char a[32], b[32], buf[200];

	if (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))
		return;
	/* what decides is how long it ran: a figure the plan expected short that lasted
	 * long enough is kept */
	if ((w->flags & ROW_SHORT) && battery_left_out(p, s, w->phase, &why)) {
		battery_leave_out(w, why);
	} else if (w->flags & ROW_SHORT) {
		units_fmt_ns(a, sizeof(a), (double)w->elapsed_ns);
		units_fmt_ns(b, sizeof(b), (double)p->s[s].shortest_ns);
		snprintf(buf, sizeof(buf), "left out: ran %s, under 0.5 s (the plan expected at "
			 "least %s)", a, b);
		battery_leave_out(w, buf);
	} else if ((w->flags & ROW_CACHE_INFLATED) && reads_device(s, w)) {
		snprintf(buf, sizeof(buf), "left out: %.0f%% of the data was in the page cache "
			 "when it began: not a figure of the device", w->cache_pct);
		battery_leave_out(w, buf);
	}
}

/* A kept figure of a target in memory says it is RAM's, beside what its note says. */
static void memory_note(const struct battery_plan *p, struct row *w)
{
	char *n;

	if (!p->mem_usable || (w->flags & (ROW_FAILED | ROW_NOT_MEASURED)))
		return;
	n = str_printf("%s%sthe target is in memory: a RAM figure, not a device's",
		       w->note ? w->note : "", w->note ? "; " : "");
	if (!n)
		return;
	free(w->note);
	w->note = n;
}

void battery_conf_params(struct row *w, const struct battery_conf *conf)
{
	if (!conf || !conf->fs)
		return;
	kv_set(&w->params, RK_ROW_FS, "%s", conf->fs);
	kv_set(&w->params, RK_ROW_FS_CONFIG, "%s", conf->label);
	kv_set(&w->params, RK_ROW_MKFS_OPTIONS, "%s", conf->mkfs_opts ? conf->mkfs_opts : "");
	kv_set(&w->params, RK_ROW_MOUNT_OPTIONS, "%s", conf->mount_opts ? conf->mount_opts : "");
}

/* A step that does not run after all: dd write bs=1M failed before it, or it could not
 * end within the budget. */
static int late_row(struct runner *rc, const struct battery_plan *p, enum battery_step s,
		    const struct battery_conf *conf, int dd_failed, const struct battery_clock *ck)
{
	struct row *w = run_add_row(rc->run, battery_step_workload(s), "skipped");
	uint64_t now = clock_ns();

	if (!w)
		return -ENOMEM;
	w->repeat = rc->repeat;
	w->flags |= ROW_NOT_MEASURED;
	w->note = dd_failed && (s == BSTEP_DD_READ || s == BSTEP_CP) ?
		  str_printf("skipped: dd write bs=1M failed") :
		  str_printf("skipped: budget: it needs about %.1f s, %.1f s of the budget left",
			     (double)p->s[s].expect_ns / 1e9,
			     (double)(ck->end_ns > now ? ck->end_ns - now : 0) / 1e9);
	if (w->note && !dd_failed) {
		char line[240];

		snprintf(line, sizeof(line), "repeat %u: %s: %s", rc->repeat + 1,
			 battery_step_name(s), w->note);
		battery_job_note(rc->run, RK_BAT_LATE, line);
	}
	kv_set(&w->params, RK_ROW_DETAIL, "%s", battery_step_name(s));
	battery_conf_params(w, conf);
	/* under the step's progress line: why it does not run */
	if (!ck->quiet)
		fprintf(stderr, "iobattery: battery: %s%s%s: %s\n",
			ck->conf_label ? ck->conf_label : "", ck->conf_label ? ": " : "",
			battery_step_name(s), w->note ? w->note : "skipped");
	(void)p;
	return 0;
}

/* A step the pass counted at its start that a re-plan after an earlier step dropped (the
 * budget left cannot hold it): its row says so, with the plan's reason, and the progress
 * names it under its number, so that the counters stay [k/n] with no jump. */
static int dropped_row(struct runner *rc, const struct battery_plan *p, enum battery_step s,
		       const struct battery_conf *conf, unsigned k, unsigned n,
		       const struct battery_clock *ck)
{
	struct row *w = run_add_row(rc->run, battery_step_workload(s), "skipped");
	const char *why = p->s[s].why;

	if (!w)
		return -ENOMEM;
	if (!strncmp(why, "skipped: ", 9))
		why += 9;
	w->repeat = rc->repeat;
	w->flags |= ROW_NOT_MEASURED;
	w->note = str_printf("dropped at a re-plan: %s", why);
	kv_set(&w->params, RK_ROW_DETAIL, "%s", battery_step_name(s));
	battery_conf_params(w, conf);
	if (!ck->quiet)
		fprintf(stderr, "iobattery: battery: %s%s[%u/%u] %s: %s\n",
			ck->conf_label ? ck->conf_label : "", ck->conf_label ? ": " : "", k, n,
			battery_step_name(s), w->note ? w->note : "dropped");
	return 0;
}

/* "1:32", or "45 s" under a minute. */
static void mmss(char *buf, size_t len, uint64_t ns)
{
	unsigned long s = (unsigned long)((ns + 500000000u) / 1000000000u);

	if (s < 60)
		snprintf(buf, len, "%lu s", s);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

static void step_line(const struct battery_plan *p, enum battery_step s, unsigned k,
		      unsigned n, const struct battery_clock *ck, uint64_t end_ns)
{
	char a[32], b[32];
	uint64_t now = clock_ns();

	if (p->hand_sized) {
		fprintf(stderr, "iobattery: battery: %s%s[%u/%u] %s\n",
			ck->conf_label ? ck->conf_label : "", ck->conf_label ? ": " : "", k, n,
			battery_step_name(s));
		return;
	}
	mmss(a, sizeof(a), p->s[s].expect_ns);
	mmss(b, sizeof(b), end_ns > now ? end_ns - now : 0);
	fprintf(stderr, "iobattery: battery: %s%s[%u/%u] %s (about %s; all done in about %s)\n",
		ck->conf_label ? ck->conf_label : "", ck->conf_label ? ": " : "", k, n,
		battery_step_name(s), a, b);
}

/* Does a step from s on read the dd file (so it must stay)? */
static int uses_tstfile(const struct battery_plan *p, unsigned s)
{
	for (; s < BSTEP_N; s++)
		if (p->s[s].run && (s == BSTEP_DD_READ || s == BSTEP_CP))
			return 1;
	return 0;
}

/* The steps after step s that the pass will name: those the plan runs, and those it
 * counted (bits of counted) that a re-plan dropped since. */
static unsigned steps_after(const struct battery_plan *p, enum battery_step s,
			    unsigned counted)
{
	unsigned i, n = 0;

	for (i = s + 1; i < BSTEP_N; i++)
		n += p->s[i].run || (counted & (1u << i) && !p->hand_sized);
	return n;
}

/* The planned time left from step s of this pass on. */
static uint64_t left_ns(const struct battery_plan *p, enum battery_step s)
{
	uint64_t t = 0;
	unsigned i;

	for (i = s; i < BSTEP_N; i++)
		if (p->s[i].run)
			t += p->s[i].expect_ns;
	return t;
}

int battery_pass(struct runner *rc, const struct battery_plan *p, const char *dir,
		 const struct battery_conf *conf, struct battery_clock *ck)
{
	struct progress_total total;
	const struct progress_total *saved = rc->total;
	unsigned i, k = 0, n = 0, counted = 0;
	int r = 0, dd_failed = 0, late;
	uint64_t t0, mark = clock_ns();

	/* a step is counted when it runs, or when the pass counted it and a re-plan then
	 * dropped it (named under its number); the count is the steps so far and those still
	 * to be named, so that it grows only where a re-plan adds a step */
	for (i = 0; i < BSTEP_N; i++)
		if (p->s[i].run)
			counted |= 1u << i;
	rc->total = &total;
	for (i = 0; i < BSTEP_N && r != -EINTR; i++) {
		enum battery_step s = (enum battery_step)i;
		size_t first = rc->run->nrows, j;

		if (!p->s[s].run) {
			/* the plan in the run's options says why; a step dropped since the
			 * pass began gets its row and its line */
			if ((counted & (1u << i)) && !p->hand_sized) {
				k++;
				n = k + steps_after(p, s, counted);
				if ((r = dropped_row(rc, p, s, conf, k, n, ck)) < 0)
					break;
			}
			continue;
		}
		counted |= 1u << i;
		k++;
		n = k + steps_after(p, s, counted);
		total.end_ns = clock_ns() + left_ns(p, s) + ck->after_ns;
		snprintf(total.what, sizeof(total.what), "battery %u/%u", k, n);
		if (!ck->quiet)
			step_line(p, s, k, n, ck, total.end_ns);
		/* a step that cannot end within the budget does not start (rank 0's
		 * clock decides for every rank) */
		late = ck->end_ns &&
		       battery_ranks_decide(clock_ns() + p->s[s].expect_ns > ck->end_ns);
		if ((dd_failed && (s == BSTEP_DD_READ || s == BSTEP_CP)) || late) {
			if ((r = late_row(rc, p, s, conf, dd_failed, ck)) < 0)
				break;
			continue;
		}
		t0 = clock_ns();
		r = battery_step_run(rc, p, s, dir);
		ck->steps_ns += clock_ns() - t0;
		if (!uses_tstfile(p, s + 1))
			(void)battery_remove(dir, BATTERY_TSTFILE);
		(void)fsmake_sync(dir);
		/* the time since the step before ended: the step, its sync, the progress */
		if (ck->adapt && r != -EINTR)
			battery_adapt(ck->adapt, rc, s, first, clock_ns() - mark);
		mark = clock_ns();
		if (r < 0 && s == BSTEP_DD_1M)
			dd_failed = 1;
		for (j = first; j < rc->run->nrows; j++) {
			struct row *w = rc->run->rows[j];

			battery_conf_params(w, conf);
			if (s == BSTEP_PG)
				pg_detail(w);
			if (reads_device(s, w))
				kv_set(&w->params, RK_ROW_READ_METHOD, "%s", read_method(p, s, w));
			if (!p->hand_sized)
				check_row(p, s, w);
			memory_note(p, w);
		}
		if (r < 0 && r != -EINTR && !ck->quiet)
			err_errno(r, "battery: %s failed%s%s", battery_step_name(s),
				  conf ? " on " : "", conf ? conf->label : "");
		if (r != -EINTR)
			r = 0;	/* a failed step is its rows' failure; the next one runs */
	}
	(void)battery_remove(dir, BATTERY_TSTFILE);
	(void)battery_remove(dir, BATTERY_TSTFILE2);
	rc->total = saved;
	if (r == 0 && sig_stop_requested())
		r = -EINTR;
	return r;
}
