/* battery_plan.c - the planner: sizes from the machine, the probe and the budget.
 *
 * The model. Every step's figures (rows) depend on a few size variables: the dd file S,
 * Bonnie++'s data set B, per-character size C, seeks K and files N, iozone's file per
 * record size, PostMark's pool P and transactions X, the SQL script's rows R, the seconds
 * of each fsync test and of each database-pattern job, that job's file. A row lasts
 * its variable divided by its rate, the rate the probe measured for that kind of work
 * (1 MiB writes until fdatasync, 4 KiB O_DIRECT reads, one-byte system calls, file
 * creates, ...). The rates are optimistic, so the time is a lower bound: a row planned
 * at BATTERY_ROW_NS lasts at least that long unless the probe was wrong by more than the
 * margin (twice pl->row_sHORT_NS).
 *
 * The plan, in order:
 *  1. each variable's cap from the free space, and each step's refusals (a read of the
 *     device with no way to keep the cache out, a rate the probe could not measure);
 *  2. steps in priority order (dd and cp first, PostgreSQL last): a step is taken when
 *     the variables its required rows need fit what is left of the pass budget, else it
 *     is skipped with how much it needs;
 *  3. upgrades, cheapest first, while the budget lasts: an optional variable (a second
 *     iozone record size, Bonnie++'s file tests) switched on, or a variable raised so that
 *     an optional row (Bonnie++'s deletes, PostMark's final deletion, one SQL statement)
 *     lasts long enough too;
 *  4. what is left of the budget scales every variable alike (capped by the space);
 *  5. sizes rounded up (MiB, units of 1024 files ...), rows that still come out under
 *     BATTERY_ROW_NS left out with the reason.
 * A hand-sized plan (--size) takes the sizes from the size and the quick battery's small
 * counts and leaves nothing out. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "workload/battery/battery_plan_int.h"


static void fmt_bytes(char *buf, size_t len, double b)
{
	if (b >= 1024.0 * MIB)
		snprintf(buf, len, "%.1f GiB", b / 1024.0 / MIB);
	else if (b >= MIB)
		snprintf(buf, len, "%.0f MiB", b / MIB);
	else
		snprintf(buf, len, "%.0f KiB", b / 1024.0);
}

static void fmt_secs(char *buf, size_t len, double s)
{
	if (s >= 3600)
		snprintf(buf, len, "%.0f:%02.0f:%02.0f", floor(s / 3600), fmod(floor(s / 60), 60),
			 fmod(floor(s), 60));
	else if (s >= 60)
		snprintf(buf, len, "%.0f:%02.0f", floor(s / 60), fmod(floor(s), 60));
	else if (s >= 1)
		snprintf(buf, len, "%.1f s", s);
	else
		snprintf(buf, len, "%.0f ms", s * 1e3);
}

/* A quantity of variable v in words ("1.2 GiB", "120000 files"). */
static void fmt_var(char *buf, size_t len, unsigned v, double x)
{
	if (!strcmp(var_def[v].unit, "B"))
		fmt_bytes(buf, len, x);
	else
		snprintf(buf, len, "%.0f %s", x, var_def[v].unit);
}

/* The value variable v needs for the rows of step s (required rows only, or also row r
 * when r is given) to last BATTERY_ROW_NS. */
static double need(const struct planner *pl, unsigned v, const struct mrow *extra)
{
	double x = 0;
	unsigned i;

	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];

		if (r->var != v || r->optional || r->aux || !pl->taken[r->step])
			continue;
		if (r->rate * pl->row_s > x)
			x = r->rate * pl->row_s;
	}
	if (extra && extra->rate * pl->row_s > x)
		x = extra->rate * pl->row_s;
	return x;
}

/* Seconds one pass takes with the variables in v and the steps taken. */
static double pass_secs(const struct planner *pl, const double *v)
{
	double t = 0;
	unsigned i;

	for (i = 0; i < BSTEP_N; i++)
		if (pl->taken[i])
			t += pl->fixed[i];
	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];

		if (pl->taken[r->step] && r->rate > 0 && v[r->var] > 0)
			t += v[r->var] / r->rate * r->cost;
	}
	return t;
}

static double step_secs(const struct planner *pl, enum battery_step s, const double *v)
{
	double t = pl->fixed[s];
	unsigned i;

	for (i = 0; i < pl->nrows; i++)
		if (pl->rows[i].step == s && pl->rows[i].rate > 0 && v[pl->rows[i].var] > 0)
			t += v[pl->rows[i].var] / pl->rows[i].rate * pl->rows[i].cost;
	return t;
}

static void skip(struct planner *pl, enum battery_step s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void skip(struct planner *pl, enum battery_step s, const char *fmt, ...)
{
	struct battery_step_plan *sp = &pl->out->s[s];
	va_list ap;

	sp->run = 0;
	va_start(ap, fmt);
	vsnprintf(sp->why, sizeof(sp->why), fmt, ap);
	va_end(ap);
}

/* Refusals before any budget: no way to read the device honestly, a rate the probe could
 * not give, a missing dependency. Returns 1 when s can be considered. */
static int possible(struct planner *pl, enum battery_step s)
{
	const struct battery_want *w = pl->w;
	unsigned i;

	if (w->steps && !(w->steps & (1u << s))) {
		skip(pl, s, "skipped: %s%s", "not in --steps", "");
		return 0;
	}
	if (s == BSTEP_PG && !w->pg_local) {
		skip(pl, s, "skipped: %s%s", "only with --pg-local (a throwaway PostgreSQL)", "");
		return 0;
	}
	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];

		if (r->step != s || r->optional)
			continue;
		if (r->reads && pl->e->memory_fs) {
			skip(pl, s, "skipped: '%s' keeps files in memory: %s",
			     pl->e->fs_type[0] ? pl->e->fs_type : "this file system",
			     "no read here can measure a device");
			return 0;
		}
		if (!(r->rate > 0) && pl->v[r->var] == 0 && !var_def[r->var].optional) {
			skip(pl, s, "skipped: the probe could not measure %s%s", r->phase, "");
			return 0;
		}
	}
	if (s == BSTEP_IOZONE && !(pl->reads & BREAD_DIRECT)) {
		skip(pl, s, "skipped: %s%s", "needs O_DIRECT, which this file system lacks "
		     "(iozone's rereads would measure the page cache)", "");
		return 0;
	}
	if (s == BSTEP_JOB && !(pl->reads & BREAD_DIRECT)) {
		skip(pl, s, "skipped: %s%s", "needs O_DIRECT, which this file system lacks "
		     "(a database's random reads of its own cache measure no device)", "");
		return 0;
	}
	if (s == BSTEP_SUSTAINED && (pl->e->memory_fs || !(pl->reads & BREAD_DIRECT) ||
				     !(pl->p->w_bps > 0))) {
		skip(pl, s, "skipped: %s%s", pl->e->memory_fs || !(pl->reads & BREAD_DIRECT) ?
		     "needs O_DIRECT, which this file system lacks (the page cache would take "
		     "the writes: its cliff is the memory's)" : "the probe could not measure "
		     "the write rate", "");
		return 0;
	}
	return 1;
}

/* Step s's variables at the least it needs, given what is set already, into v.
 * Returns 0, or -ENOSPC with the variable in *bad when one exceeds its cap. */
static int step_min(struct planner *pl, enum battery_step s, double *v, unsigned *bad,
		    double *badx)
{
	unsigned i;

	pl->taken[s] = 1;
	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];
		double x;

		if (r->step != s || var_def[r->var].optional)
			continue;
		x = need(pl, r->var, NULL);
		if (r->var == V_P && x < PM_MIN_NUMBER)
			x = PM_MIN_NUMBER;
		if (r->var == V_JF && x < JOB_FILE_MIN)
			x = JOB_FILE_MIN;
		if (r->var == V_SUSEC && x < SUS_MIN_SECS)
			x = SUS_MIN_SECS;	/* a cliff needs minutes of writing */
		if (r->reads && (pl->reads & BREAD_2XRAM) &&
		    !(pl->reads & (BREAD_DROP | BREAD_DIRECT)) &&
		    x < 2.0 * (double)pl->e->cache_bytes)
			x = 2.0 * (double)pl->e->cache_bytes;
		if (x > v[r->var] && !pl->fixv[r->var])
			v[r->var] = x;	/* a variable a step that ran fixed stays */
		if (v[r->var] > pl->cap[r->var] && !pl->fixv[r->var]) {
			*bad = r->var;
			*badx = v[r->var];
			pl->taken[s] = 0;
			return -ENOSPC;
		}
	}
	pl->taken[s] = 0;
	return 0;
}

/* A step whose files do not fit what a memory file system may take of the memory. */
static void skip_memory(struct planner *pl, enum battery_step s, const char *needs)
{
	char b[32], c[32];

	fmt_bytes(b, sizeof(b), pl->mem_cap);
	fmt_bytes(c, sizeof(c), (double)(pl->e->mem_avail ? pl->e->mem_avail :
					 pl->e->cache_bytes ? pl->e->cache_bytes : pl->e->ram));
	skip(pl, s, "skipped: needs %s; the target is in memory: its files may take %s of "
	     "the %s available", needs, b, c);
}

static void skip_space(struct planner *pl, enum battery_step s, unsigned var, double x)
{
	char a[96], b[32], c[64], sh[80];
	const char *kept = "";
	int twice = (pl->reads & BREAD_2XRAM) && !(pl->reads & (BREAD_DROP | BREAD_DIRECT)) &&
		    x >= 2.0 * (double)pl->e->cache_bytes;

	fmt_bytes(a, sizeof(a), battery_var_bytes(pl, var, x));
	if (strcmp(var_def[var].unit, "B")) {
		fmt_var(c, sizeof(c), var, x);
		snprintf(a + strlen(a), sizeof(a) - strlen(a), " (%s)", c);
	}
	fmt_bytes(b, sizeof(b), (double)pl->e->free_bytes);
	if (battery_var_bytes(pl, var, x) <= (double)pl->e->free_bytes)
		kept = " (5% and 64 MiB are kept free)";	/* why it does not fit */
	if (pl->mem_cap > 0 && battery_var_bytes(pl, var, x) > pl->mem_cap) {
		skip_memory(pl, s, a);
		return;
	}
	battery_shared_words(sh, sizeof(sh), pl->e);
	if (twice)
		skip(pl, s, "skipped: needs %s for 2x RAM, %s free%s; run with --direct or a "
		     "larger target", a, b, sh);
	else
		skip(pl, s, "skipped: needs %s, %s free%s%s", a, b, sh, kept);
}

/* Step 2: take the steps in priority order while their least form fits. */
static void take_steps(struct planner *pl)
{
	unsigned k, bad = 0;

	for (k = 0; k < BSTEP_N; k++) {
		enum battery_step s = battery_step_by_priority(k);
		double v[V_COUNT], before, after, badx = 0;
		char a[32], b[32];

		if (pl->only && !(pl->only & (1u << s)))
			continue;	/* a revision: ran already, or not in the plan */
		if (!possible(pl, s))
			continue;
		if ((s == BSTEP_DD_READ || s == BSTEP_CP) && !pl->taken[BSTEP_DD_1M]) {
			skip(pl, s, "skipped: %s%s", "it reads the file of dd write bs=1M, which "
			     "is skipped", "");
			continue;
		}
		memcpy(v, pl->v, sizeof(v));
		if (step_min(pl, s, v, &bad, &badx) < 0) {
			skip_space(pl, s, bad, badx);
			continue;
		}
		if (s == BSTEP_CP && 2 * v[V_S] > pl->cap[V_S]) {
			skip_space(pl, s, V_S, 2 * v[V_S]);	/* the copy beside the file */
			continue;
		}
		before = pass_secs(pl, pl->v);
		pl->taken[s] = 1;
		after = pass_secs(pl, v);
		if (after > pl->budget) {
			pl->taken[s] = 0;
			fmt_secs(a, sizeof(a), after - before);
			fmt_secs(b, sizeof(b), pl->budget - before > 0 ? pl->budget - before : 0);
			skip(pl, s, "skipped: needs %s at the smallest honest size, %s of the "
			     "budget left; give a larger --budget", a, b);
			pl->out->s[s].for_budget = 1;
			continue;
		}
		memcpy(pl->v, v, sizeof(v));
		pl->out->s[s].run = 1;
		if (s == BSTEP_CP)
			pl->cap[V_S] /= 2;
	}
}

/* Step 3: the cheapest upgrade that fits, applied; 0 when none fits. */
static int upgrade_once(struct planner *pl)
{
	double best = HUGE_VAL, bv = 0, now = pass_secs(pl, pl->v);
	unsigned i, bvar = V_COUNT;

	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];
		double v[V_COUNT], x, t;

		if (!pl->taken[r->step] || !(r->rate > 0) || pl->fixv[r->var] ||
		    (pl->done & (1u << r->step)))
			continue;
		if (var_def[r->var].optional && pl->v[r->var] == 0 && !r->optional)
			x = need(pl, r->var, NULL);	/* switch the variable on */
		else if (r->optional && r->cost > 0)
			x = r->rate * pl->row_s;		/* raise it for this row */
		else
			continue;
		if (x <= pl->v[r->var] || x > pl->cap[r->var])
			continue;
		memcpy(v, pl->v, sizeof(v));
		v[r->var] = x;
		t = pass_secs(pl, v);
		if (t <= pl->budget && t - now <= pl->budget * UPGRADE_SHARE && t - now < best) {
			best = t - now;
			bvar = r->var;
			bv = x;
		}
	}
	if (bvar == V_COUNT)
		return 0;
	pl->v[bvar] = bv;
	return 1;
}

/* Step 4: share what is left of the budget among the groups of steps by weight (the
 * seeds' own steps more than iozone's grid), each group's variables scaled alike
 * except the counts that only decide which figures exist (files of the pool, of
 * Bonnie++'s file tests); a group held by the space gives its share back, a few rounds. */
enum { G_DD, G_BONNIE, G_IOZ, G_PM, G_DB, G_PG, G_FSYNC, G_JOB, G_SUS, G_COUNT };

static const unsigned var_group[V_COUNT] = {
	[V_S1K] = G_DD, [V_S] = G_DD, [V_B] = G_BONNIE, [V_C] = G_BONNIE, [V_K] = G_BONNIE,
	[V_N] = G_BONNIE, [V_F0] = G_IOZ, [V_F1] = G_IOZ, [V_F2] = G_IOZ, [V_P] = G_PM,
	[V_X] = G_PM, [V_R] = G_DB, [V_RPG] = G_PG, [V_FSEC] = G_FSYNC, [V_JF] = G_JOB,
	[V_JSEC] = G_JOB, [V_SUSEC] = G_SUS, [V_SUSB] = G_SUS,
};
static const double group_weight[G_COUNT] = { 3, 3, 1, 2, 2, 1, 1, 1, 1 };

static int var_scales(unsigned v)
{
	return v != V_N && v != V_P && v != V_SUSB;	/* the file follows the time */
}

/* Seconds the scaled variables of group g cost now. */
static double group_secs(const struct planner *pl, unsigned g)
{
	double t = 0;
	unsigned i;

	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];

		if (pl->taken[r->step] && r->rate > 0 && var_group[r->var] == g &&
		    var_scales(r->var) && !pl->fixv[r->var])
			t += pl->v[r->var] / r->rate * r->cost;
	}
	return t;
}

static void scale(struct planner *pl)
{
	int round, held[G_COUNT] = { 0 };

	for (round = 0; round < 4; round++) {
		double left = pl->budget - pass_secs(pl, pl->v), wsum = 0, gt[G_COUNT];
		unsigned g, i, capped = 0;

		if (left <= 0)
			return;
		for (g = 0; g < G_COUNT; g++) {
			gt[g] = group_secs(pl, g);
			if (gt[g] > 0 && !held[g])
				wsum += group_weight[g];
		}
		if (wsum == 0)
			return;
		for (g = 0; g < G_COUNT; g++) {
			double k;

			if (!(gt[g] > 0) || held[g])
				continue;
			k = 1 + left * group_weight[g] / wsum / gt[g];
			for (i = 0; i < V_COUNT; i++) {
				if (var_group[i] != g || !var_scales(i) || pl->fixv[i])
					continue;
				if (pl->v[i] * k > pl->cap[i]) {
					if (pl->cap[i] > pl->v[i])
						pl->v[i] = pl->cap[i];
					held[g] = 1;
					capped++;
				} else {
					pl->v[i] *= k;
				}
			}
		}
		if (!capped)
			return;
	}
}

/* Step 5: round up; Bonnie++'s per-character file fits in its data set. */
static void round_vars(struct planner *pl)
{
	unsigned i;

	/* the sustained write's file: its seconds at the probe's write rate */
	if (pl->v[V_SUSEC] > 0 && !pl->fixv[V_SUSB])
		pl->v[V_SUSB] = fmin(pl->cap[V_SUSB],
				     battery_var_bytes(pl, V_SUSEC, floor(pl->v[V_SUSEC])));
	for (i = 0; i < V_COUNT; i++) {
		double r = var_def[i].round, x = ceil(pl->v[i] / r) * r;

		if (!(pl->v[i] > 0) || i == V_FSEC || i == V_JSEC || i == V_SUSEC)
			continue;
		/* a size scaled up to its cap stays within it */
		if (x > pl->cap[i] && floor(pl->v[i] / r) * r >= r)
			x = floor(pl->v[i] / r) * r;
		pl->v[i] = x;
	}
	/* whole seconds per fsync test and per job, rounded down: each lasts a second at
	 * least anyway */
	if (pl->v[V_FSEC] > 0)
		pl->v[V_FSEC] = fmax(1, floor(pl->v[V_FSEC]));
	if (pl->v[V_JSEC] > 0)
		pl->v[V_JSEC] = fmax(1, floor(pl->v[V_JSEC]));
	if (pl->v[V_SUSEC] > 0)
		pl->v[V_SUSEC] = floor(pl->v[V_SUSEC]);
	if (pl->v[V_C] > 0 && pl->v[V_C] < MIB)
		pl->v[V_C] = MIB;
	if (pl->v[V_B] < pl->v[V_C])
		pl->v[V_B] = pl->v[V_C];
}

static void leave_out(struct planner *pl, const struct mrow *r, double secs)
{
	struct battery_plan *o = pl->out;
	struct battery_out *x;
	char a[32], b[32], c[32];
	double extra, v[V_COUNT];

	if (o->nout >= BATTERY_MAX_OUT)
		return;
	x = &o->out[o->nout++];
	x->step = r->step;
	snprintf(x->phase, sizeof(x->phase), "%s", r->phase);
	memcpy(v, pl->v, sizeof(v));
	v[r->var] = r->rate * pl->row_s;
	extra = pass_secs(pl, v) - pass_secs(pl, pl->v);
	fmt_secs(a, sizeof(a), secs);
	fmt_var(b, sizeof(b), r->var, r->rate * pl->row_s);
	fmt_secs(c, sizeof(c), extra);
	if (r->cost == 0)
		snprintf(x->why, sizeof(x->why), "left out: planned under %.0f s at this size; "
			 "its time is in script_total", pl->row_s);
	else
		snprintf(x->why, sizeof(x->why), "left out: about %s at this size; %.0f s needs "
			 "%s, %s more than the budget gives", a, pl->row_s, b, c);
}

/* The variables each step sizes (a step that ran fixes them for the steps after it). */
/* The step's variables into its plan, its expected time, its shortest kept row and its
 * left-out rows. */
static void finish_step(struct planner *pl, enum battery_step s)
{
	struct battery_step_plan *sp = &pl->out->s[s];
	double shortest = HUGE_VAL;
	unsigned i;

	sp->nvar = battery_steps[s].nvar;
	for (i = 0; i < sp->nvar; i++)
		sp->v[i] = pl->v[battery_steps[s].vars[i]];
	sp->read_methods = pl->reads;
	if (!sp->run)
		return;
	/* a hand-sized battery is not probed: its durations are not known */
	sp->expect_ns = pl->out->hand_sized ? 0 : (uint64_t)(step_secs(pl, s, pl->v) * 1e9);
	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];
		double t;

		if (r->step != s || !(r->rate > 0) || pl->v[r->var] == 0 || r->aux)
			continue;
		t = pl->v[r->var] / r->rate;
		if (t < ROW_S && !pl->out->hand_sized)
			leave_out(pl, r, t);
		else if (t < shortest)
			shortest = t;
	}
	sp->shortest_ns = shortest < HUGE_VAL ? (uint64_t)(shortest * 1e9) : 0;
}

/* --size: the data files at that size, the counts of the quick battery. */
static void hand_size(struct planner *pl)
{
	double s = (double)pl->w->size;
	unsigned i;

	pl->v[V_S1K] = pl->v[V_S] = s;
	pl->v[V_B] = s > MIB ? s : MIB;
	pl->v[V_C] = MIB;
	pl->v[V_K] = 2048;
	pl->v[V_N] = 1024;
	/* iozone's cells small enough to be quick at 4 KiB records: 4, 64 and 32 MiB */
	for (i = 0; i < BATTERY_IOZ_RECS; i++)
		pl->v[V_F0 + i] = fmax(fmin(s, ioz_rec[i] == 4 ? 4 * MIB : ioz_rec[i] == 64 ?
					    32 * MIB : 64 * MIB), ioz_rec[i] * 1024.0);
	pl->v[V_P] = 1000;
	pl->v[V_X] = 5000;
	pl->v[V_R] = 20000;
	pl->v[V_RPG] = 20000;
	pl->v[V_FSEC] = 1;
	pl->v[V_JF] = s;
	pl->v[V_JSEC] = 1;	/* a cap: each job does its file's bytes once */
	for (i = 0; i < BSTEP_N; i++) {
		enum battery_step st = (enum battery_step)i;

		if (pl->w->steps && !(pl->w->steps & (1u << st))) {
			skip(pl, st, "skipped: %s%s", "not in --steps", "");
			continue;
		}
		if (st == BSTEP_JOB && !(pl->reads & BREAD_DIRECT)) {
			skip(pl, st, "skipped: %s%s", "needs O_DIRECT, which this file system "
			     "lacks", "");
			continue;
		}
		if (st == BSTEP_PG && !pl->w->pg_local) {
			skip(pl, st, "skipped: %s%s", "only with --pg-local", "");
			continue;
		}
		if (st == BSTEP_FSYNC || st == BSTEP_SUSTAINED) {
			skip(pl, st, "skipped: %s%s", st == BSTEP_FSYNC ? "its 16 tests last a "
			     "second each at least; it is sized by --budget, not by --size" :
			     "it writes for minutes, until the rate falls; it is sized by "
			     "--budget, not by --size", "");
			continue;
		}
		pl->taken[st] = 1;
		pl->out->s[st].run = 1;
	}
}

/* A hand-sized step that does not fit the free space is skipped. */
static void hand_space(struct planner *pl)
{
	char a[32], b[32], sh[80];
	unsigned i;

	battery_shared_words(sh, sizeof(sh), pl->e);
	for (i = 0; i < BSTEP_N; i++) {
		double need_b = battery_step_space(pl, (enum battery_step)i);

		if (!pl->out->s[i].run)
			continue;
		fmt_bytes(a, sizeof(a), need_b);
		if (pl->mem_cap > 0 && need_b > pl->mem_cap) {
			skip_memory(pl, (enum battery_step)i, a);
			pl->taken[i] = 0;
			continue;
		}
		if (need_b + (double)SPACE_SLACK(pl->e->free_bytes) <= (double)pl->e->free_bytes)
			continue;
		fmt_bytes(b, sizeof(b), (double)pl->e->free_bytes);
		skip(pl, (enum battery_step)i, "skipped: needs %s, %s free%s", a, b, sh);
		pl->taken[i] = 0;
	}
}

static void step_why(struct planner *pl, enum battery_step s)
{
	struct battery_step_plan *sp = &pl->out->s[s];
	char a[32], b[32], m[64];

	if (!sp->run)
		return;
	fmt_secs(a, sizeof(a), (double)sp->shortest_ns / 1e9);
	fmt_bytes(b, sizeof(b), (double)pl->e->free_bytes);
	battery_read_words(m, sizeof(m), pl->reads);
	if (pl->out->hand_sized)
		snprintf(sp->why, sizeof(sp->why), "sized by --size; figures under 0.5 s are "
			 "flagged short");
	else if (s == BSTEP_DD_READ || s == BSTEP_CP || s == BSTEP_IOZONE)
		snprintf(sp->why, sizeof(sp->why), "shortest figure about %s; reads: %s", a,
			 s == BSTEP_IOZONE ? "O_DIRECT" : s == BSTEP_CP ? "cache dropped" : m);
	else if (s == BSTEP_JOB)
		snprintf(sp->why, sizeof(sp->why),
			 "shortest figure about %s; O_DIRECT, %s%s%.120s%s", a,
			 pl->e->job_engine[0] ? pl->e->job_engine : "the best engine",
			 pl->e->job_engine_why[0] ? " (" : "", pl->e->job_engine_why,
			 pl->e->job_engine_why[0] ? ")" : "");
	else if (s == BSTEP_SUSTAINED)
		snprintf(sp->why, sizeof(sp->why), "writes for up to %.0f s, stopping once the "
			 "rate has fallen and stayed down; O_DIRECT", pl->v[V_SUSEC]);
	else if (s == BSTEP_BONNIE)
		snprintf(sp->why, sizeof(sp->why), "shortest figure about %s; reads: %s%s", a,
			 m, pl->v[V_N] == 0 ? "; no file tests (they do not fit the budget)" : "");
	else
		snprintf(sp->why, sizeof(sp->why), "shortest figure about %s", a);
}

static void init(struct planner *pl, const struct battery_env *e,
		 const struct battery_probe *p, const struct battery_want *w,
		 struct battery_plan *out)
{
	memset(pl, 0, sizeof(*pl));
	memset(out, 0, sizeof(*out));
	pl->e = e;
	pl->p = p;
	pl->w = w;
	pl->out = out;
	pl->row_s = ROW_S * (w->margin > 1 ? w->margin : 1);
	snprintf(out->job_engine, sizeof(out->job_engine), "%s",
		 e->job_engine[0] ? e->job_engine : "psync");
	out->mem_usable = battery_mem_usable(e);
	if (e->has_direct)
		pl->reads |= BREAD_DIRECT;
	if (e->can_drop && !w->direct)
		pl->reads |= BREAD_DROP;
	if (!(pl->reads & (BREAD_DROP | BREAD_DIRECT)) && !e->memory_fs)
		pl->reads |= BREAD_2XRAM;
	battery_model(pl);
}

static int conclude(struct planner *pl, const struct battery_plan *prev,
		    const uint64_t *done_ns, uint64_t passes);

int battery_plan_make(const struct battery_env *e, const struct battery_probe *p,
		      const struct battery_want *w, struct battery_plan *out)
{
	struct planner pl;
	uint64_t passes, over;

	if (!w->size && !w->budget_ns)
		return -EINVAL;
	init(&pl, e, p, w, out);
	passes = battery_passes(w);
	over = w->overhead_ns < w->budget_ns ? w->overhead_ns : w->budget_ns;
	out->pass_budget_ns = w->budget_ns ? (w->budget_ns - over) / passes : 0;
	pl.budget = (double)out->pass_budget_ns / 1e9;
	out->hand_sized = w->size != 0;
	if (out->hand_sized) {
		hand_size(&pl);
		hand_space(&pl);
	} else {
		take_steps(&pl);
		while (upgrade_once(&pl))
			;
		scale(&pl);
	}
	return conclude(&pl, NULL, NULL, passes);
}

/* Steps 5 and after: rounding, each step's plan (a step that ran, in a revision, as it
 * was, with the time it took), the totals. Returns the steps that run. */
static int conclude(struct planner *pl, const struct battery_plan *prev,
		    const uint64_t *done_ns, uint64_t passes)
{
	struct battery_plan *out = pl->out;
	const struct battery_want *w = pl->w;
	unsigned i, k;

	round_vars(pl);
	for (i = 0; i < BSTEP_N; i++) {
		if (prev && !(pl->only & (1u << i))) {
			out->s[i] = prev->s[i];	/* ran already, or skipped from the start */
			if (pl->done & (1u << i))
				out->s[i].expect_ns = done_ns[i];
			for (k = 0; k < prev->nout && out->nout < BATTERY_MAX_OUT; k++)
				if (prev->out[k].step == (enum battery_step)i)
					out->out[out->nout++] = prev->out[k];
		} else {
			finish_step(pl, (enum battery_step)i);
			step_why(pl, (enum battery_step)i);
			if (out->s[i].run)
				out->s[i].space = (uint64_t)battery_step_space(pl,
									 (enum battery_step)i);
		}
		if (!out->s[i].run)
			continue;
		if (out->s[i].space > out->space)
			out->space = out->s[i].space;
		out->expect_ns += out->s[i].expect_ns;
		out->nrun++;
	}
	out->total_ns = out->expect_ns * passes + w->overhead_ns;
	if (!out->nrun)
		snprintf(out->note, sizeof(out->note), "nothing can be measured honestly here "
			 "in this budget: every step says why");
	else if (w->budget_ns && out->total_ns > w->budget_ns + w->budget_ns / 10)
		snprintf(out->note, sizeof(out->note), "expected to take longer than the "
			 "budget");
	return (int)out->nrun;
}


int battery_plan_revise(const struct battery_env *e, const struct battery_probe *p,
			const struct battery_want *w, const struct battery_plan *prev,
			unsigned done, const uint64_t *done_ns, struct battery_plan *out)
{
	struct planner pl;
	uint64_t passes;
	unsigned i, k, last = 0;

	if (prev->hand_sized || !prev->pass_budget_ns || prev == out)
		return -EINVAL;
	init(&pl, e, p, w, out);
	passes = battery_passes(w);
	out->pass_budget_ns = prev->pass_budget_ns;
	pl.budget = (double)out->pass_budget_ns / 1e9;
	for (i = 0; i < BSTEP_N; i++)
		if (done & (1u << i))
			last = i;
	for (i = 0; i < BSTEP_N; i++) {
		/* a step the budget left out may fit now, if the pass has not gone past it */
		if (!prev->s[i].run && prev->s[i].for_budget && i > last)
			pl.only |= 1u << i;
		if (!prev->s[i].run)
			continue;
		if (!(done & (1u << i))) {
			pl.only |= 1u << i;
			continue;
		}
		/* what it took is its fixed cost; its rows cost nothing more */
		pl.done |= 1u << i;
		pl.taken[i] = 1;
		pl.fixed[i] = (double)done_ns[i] / 1e9;
		for (k = 0; k < battery_steps[i].nvar; k++) {
			pl.v[battery_steps[i].vars[k]] = prev->s[i].v[k];
			pl.fixv[battery_steps[i].vars[k]] = 1;
		}
	}
	for (i = 0; i < pl.nrows; i++)
		if (pl.done & (1u << pl.rows[i].step))
			pl.rows[i].cost = 0;
	if (!pl.only)
		pl.only = 1u << BSTEP_N;	/* nothing left: no step is taken again */
	take_steps(&pl);
	while (upgrade_once(&pl))
		;
	scale(&pl);
	return conclude(&pl, prev, done_ns, passes);
}
