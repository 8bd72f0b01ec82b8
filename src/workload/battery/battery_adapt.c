/* battery_adapt.c - the plan corrected as the first pass runs: the rates the finished
 * steps measured replace the probe's where they are slower (a probe of 192 MiB can fit a
 * host's write-back cache that a step of gigabytes passes), and the steps yet to run are
 * planned again into the time the budget has left (battery_plan_revise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/err.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/battery/battery_int.h"

#define SLOWER		0.9	/* a rate a tenth below the probe's is corrected */

static void rate_words(char *buf, size_t len, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.2f GB/s", bps / 1e9);
	else
		snprintf(buf, len, "%.0f MB/s", bps / 1e6);
}

/* Lower *rate to got when got is slower by a tenth; say so in what. 1 when lowered. */
static int lower(double *rate, double got, const char *name, char *what, size_t len)
{
	char a[32], b[32];
	size_t n = what ? strlen(what) : 0;

	if (!(got > 0) || !(got < SLOWER * *rate))
		return 0;
	rate_words(a, sizeof(a), got);
	rate_words(b, sizeof(b), *rate);
	if (what)
		snprintf(what + n, len - n, "%s%s measured %s, planned at %s", n ? ", " : "",
			 name, a, b);
	*rate = got;
	return 1;
}

int battery_adapt_rates(struct battery_probe *p, enum battery_step s,
			struct row *const *rows, size_t n, char *what, size_t len)
{
	int k = 0;
	size_t i;

	if (what && len)
		what[0] = '\0';
	if (s == BSTEP_DD_READ) {
		double best = 0;

		/* the faster of its reads (dropped, O_DIRECT), as the probe took */
		for (i = 0; i < n; i++)
			if (!strcmp(rows[i]->phase, "read") && rows[i]->elapsed_ns &&
			    !(rows[i]->flags & (ROW_FAILED | ROW_NOT_MEASURED)) &&
			    (double)rows[i]->bytes / ((double)rows[i]->elapsed_ns / 1e9) > best)
				best = (double)rows[i]->bytes / ((double)rows[i]->elapsed_ns / 1e9);
		return lower(&p->r_bps, best, "reads", what, len);
	}
	if (s != BSTEP_DD_1K && s != BSTEP_DD_1M)
		return 0;
	for (i = 0; i < n; i++) {
		const struct row *w = rows[i];
		double secs, got, tail;

		if (strcmp(w->phase, "write") || (w->flags & (ROW_FAILED | ROW_NOT_MEASURED)) ||
		    !w->elapsed_ns || !w->durable_ns)
			continue;
		/* the bytes over the time until fdatasync returned: durable */
		secs = (double)w->elapsed_ns / 1e9;
		got = (double)w->bytes / secs;
		if (s == BSTEP_DD_1M) {
			k += lower(&p->w_bps, got, "durable 1 MiB writes", what, len);
			continue;
		}
		k += lower(&p->w1k_bps, got, "1 KiB writes", what, len);
		tail = w->buffered_ns && w->buffered_ns < w->elapsed_ns ?
		       (double)(w->elapsed_ns - w->buffered_ns) / (double)w->elapsed_ns : 0;
		if (tail >= 0.1)	/* the device was behind the writer: its rate */
			k += lower(&p->w_bps, got, "durable writes", what, len);
	}
	return k;
}

static void fmt_s(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%.1f s", (double)ns / 1e9);
}

static void adapt_here(struct battery_job *j, struct runner *rc, enum battery_step s,
		       size_t first, uint64_t step_ns)
{
	struct battery_plan *np;
	struct battery_probe p = j->rates;
	char what[240], a[32], b[32], c[32], line[600];
	uint64_t planned = j->plan.s[s].expect_ns, used = 0, dev;
	unsigned i, left = 0;
	int lowered;

	/* the steps of the pass before s that did not run (late, or failed early) are done
	 * too: the pass has gone past them */
	for (i = 0; i < (unsigned)s; i++)
		if (j->plan.s[i].run && !(j->done & (1u << i))) {
			j->done |= 1u << i;
			j->done_ns[i] = 0;
		}
	j->done |= 1u << s;
	j->done_ns[s] = step_ns;
	for (i = 0; i < BSTEP_N; i++) {
		if ((j->plan.s[i].run && !(j->done & (1u << i))) ||
		    (j->plan.s[i].for_budget && i > (unsigned)s))
			left++;	/* to run, or to try again: the budget left it out */
		if (j->done & (1u << i))
			used += j->done_ns[i];
	}
	lowered = battery_adapt_rates(&p, s, rc->run->rows + first, rc->run->nrows - first,
				      what, sizeof(what));
	dev = step_ns > planned ? step_ns - planned : planned - step_ns;
	if (!left)
		return;
	np = malloc(sizeof(*np));
	if (!np)
		return;
	if (battery_plan_revise(&j->env, &p, &j->want, &j->plan, j->done, j->done_ns, np) < 0) {
		free(np);
		return;
	}
	j->rates = p;
	j->plan = *np;
	free(np);
	battery_job_record(rc->run, j);
	/* every step re-plans what is left; one that changed the picture says so */
	if (!lowered && (dev * 10 < planned || dev < 1000000000ull))
		return;
	j->replans++;
	fmt_s(a, sizeof(a), step_ns);
	fmt_s(b, sizeof(b), planned);
	fmt_s(c, sizeof(c), j->plan.pass_budget_ns > used ? j->plan.pass_budget_ns - used : 0);
	snprintf(line, sizeof(line), "after %s (it took %s, planned %s%s%s): the steps after it "
		 "re-sized to the %s left of the pass", battery_step_name(s), a, b,
		 what[0] ? "; " : "", what, c);
	battery_job_note(rc->run, RK_BAT_REPLAN, line);
	if (!j->o->quiet)
		err_msg("battery: re-planned %s", line);
}

/* Several ranks: rank 0 re-plans from its own rows, the others take its plan. */
void battery_adapt(struct battery_job *j, struct runner *rc, enum battery_step s,
		   size_t first, uint64_t step_ns)
{
	if (!comm_multi() || comm_rank() == 0)
		adapt_here(j, rc, s, first, step_ns);
	battery_ranks_adapted(j);
}
