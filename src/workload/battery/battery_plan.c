/* battery_plan.c - the planner: sizes from the machine, the probe and the budget.
 *
 * The model. Every step's figures (rows) depend on a few size variables: the dd file S,
 * Bonnie++'s data set B, per-character size C, seeks K and files N, iozone's file per
 * record size, PostMark's pool P and transactions X, the SQL script's rows R. A row lasts
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

#include "workload/battery/battery.h"

#define MIB		1048576.0
#define ROW_S		((double)BATTERY_ROW_NS / 1e9)
#define SEEKERS		5.0		/* Bonnie++'s default seekers */
#define STAT_PER_UNLINK	8.0		/* a stat from the dentry cache against an unlink */
#define PM_AVG_FILE	50150.0		/* `set size 300 100000`: mean file size */
#define PM_MIN_NUMBER	500.0		/* PostMark's default pool */
#define PG_BUILD_S	12e-6		/* not probed: plpgsql's insert loop, per row */
#define PG_SCRIPT_S	30e-6		/* ... the script, per row of test1 */
#define PG_FIXED_S	4.0		/* initdb, start and stop of the throwaway server */
#define FSYNC_TESTS	16.0		/* pg_test_fsync's timed tests on Linux */
#define FSYNC_MAX_SECS	5.0		/* pg_test_fsync's default seconds per test */
#define UPGRADE_SHARE	0.15	/* the most of a pass one upgrade may cost */
#define SPACE_SLACK(f)	((f) / 20 + (64u << 20))	/* kept free: 5% and 64 MiB */

/* The size variables. */
enum { V_S1K, V_S, V_B, V_C, V_K, V_N, V_F0, V_F1, V_F2, V_P, V_X, V_R, V_RPG, V_FSEC,
	V_COUNT };

static const struct {
	const char *unit;	/* for the reasons */
	double round;		/* rounded up to a multiple */
	int optional;		/* starts off; an upgrade switches it on */
} var_def[V_COUNT] = {
	[V_S1K] = { "B", MIB, 0 },	[V_S] = { "B", MIB, 0 },
	[V_B] = { "B", MIB, 0 },	[V_C] = { "B", MIB, 0 },
	[V_K] = { "seeks", 1, 0 },	[V_N] = { "files", 1024, 1 },
	[V_F0] = { "B", 4096, 0 },	[V_F1] = { "B", MIB, 1 },
	[V_F2] = { "B", 65536, 1 },	[V_P] = { "files", 1, 0 },
	[V_X] = { "transactions", 1, 0 }, [V_R] = { "rows", 1000, 0 },
	[V_RPG] = { "rows", 1000, 0 },
	[V_FSEC] = { "s a test", 1, 0 },
};

static const uint32_t ioz_rec[BATTERY_IOZ_RECS] = { 4, 1024, 64 };	/* KiB */

/* One row of the model: its step, phase, variable, rate (variable units per second),
 * whether the step needs it, and what a second of it costs in wall time (0: its time is
 * inside another row's, as a statement's inside the script's total). */
struct mrow {
	enum battery_step step;
	char phase[24];
	unsigned var;
	double rate;
	int optional;
	double cost;
	unsigned reads;		/* a read of the device: needs a read method */
};

struct planner {
	const struct battery_env *e;
	const struct battery_probe *p;
	const struct battery_want *w;
	struct battery_plan *out;
	struct mrow rows[96];
	unsigned nrows;
	double v[V_COUNT], cap[V_COUNT];
	int taken[BSTEP_N];
	double fixed[BSTEP_N];		/* seconds a step costs besides its rows */
	double budget;			/* seconds of one pass */
	double row_s;			/* what a figure is sized to last */
	unsigned reads;			/* BREAD_ bits the reads can use */
};

static const enum battery_step priority[BSTEP_N] = {
	BSTEP_DD_1M, BSTEP_DD_READ, BSTEP_CP, BSTEP_DD_1K, BSTEP_BONNIE, BSTEP_FSYNC, BSTEP_DB,
	BSTEP_POSTMARK, BSTEP_IOZONE, BSTEP_PG,
};

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

static void add_row(struct planner *pl, enum battery_step s, const char *phase, unsigned var,
		    double rate, int optional, double cost, unsigned reads)
{
	struct mrow *r;

	if (pl->nrows >= sizeof(pl->rows) / sizeof(pl->rows[0]))
		return;
	r = &pl->rows[pl->nrows++];
	r->step = s;
	snprintf(r->phase, sizeof(r->phase), "%s", phase);
	r->var = var;
	r->rate = rate;
	r->optional = optional;
	r->cost = cost;
	r->reads = reads;
}

/* Seconds per operation of size rec at queue depth 1: the 4 KiB latency plus the rest of
 * the transfer at the streaming rate. */
static double rec_rate(double lat, double bps, double rec)
{
	double t = lat + (rec > 4096 ? (rec - 4096) / bps : 0);

	return t > 0 ? rec / t : 0;
}

/* What a PostMark transaction costs against the probe's (a small pool, all in the page
 * cache): in a large pool its data reach the device, so a transaction writes its bytes
 * there, and one in four deletes a file whose blocks are allocated. */
static double pm_tx_cost(const struct battery_probe *p)
{
	double t = p->pm_tps > 0 ? 1 / p->pm_tps : 0, pess = t;

	if (p->pm_bytes_per_tx > 0 && p->w_bps > 0)
		pess = fmax(pess, p->pm_bytes_per_tx / p->w_bps);
	if (p->pm_delete_alloc_ps > 0)
		pess += 0.25 / p->pm_delete_alloc_ps;
	return t > 0 ? 1.1 * pess / t : 1.1;
}

/* The rows of every step (the model above). */
static void model(struct planner *pl)
{
	const struct battery_probe *p = pl->p;
	double w1k = p->w1k_bps > 0 && p->w1k_bps < p->w_bps ? p->w1k_bps : p->w_bps;
	unsigned i;

	add_row(pl, BSTEP_DD_1K, "write", V_S1K, w1k, 0, 1.15, 0);
	add_row(pl, BSTEP_DD_1M, "write", V_S, p->w_bps, 0, 1.1, 0);
	if (pl->reads & BREAD_DROP)
		add_row(pl, BSTEP_DD_READ, "read", V_S, p->r_bps, 0, 1.1, 1);
	if (pl->reads & BREAD_DIRECT)
		add_row(pl, BSTEP_DD_READ, "read direct", V_S, p->r_bps, 0, 1.1, 1);
	if (!(pl->reads & (BREAD_DROP | BREAD_DIRECT)))
		add_row(pl, BSTEP_DD_READ, "read", V_S, p->r_bps, 0, 1.1, 1);
	/* cp: reading the source bounds the buffered figure; the writes follow in the
	 * fdatasync of the durable one */
	add_row(pl, BSTEP_CP, "copy", V_S, p->r_bps, 0, 1.0 + p->r_bps / p->w_bps, 1);
	add_row(pl, BSTEP_BONNIE, "putc", V_C, p->byte_wps, 0, 1.1, 0);
	add_row(pl, BSTEP_BONNIE, "put_block", V_B, p->w_bps, 0, 1.1, 0);
	add_row(pl, BSTEP_BONNIE, "rewrite", V_B, p->w_bps, 0, 1.5, 0);
	add_row(pl, BSTEP_BONNIE, "getc", V_C, p->byte_rps, 0, 1.1, 1);
	add_row(pl, BSTEP_BONNIE, "get_block", V_B, p->r_bps, 0, 1.1, 1);
	add_row(pl, BSTEP_BONNIE, "seeks", V_K, p->r_lat_s > 0 ? SEEKERS / p->r_lat_s : 0, 0,
		2.0, 1);
	add_row(pl, BSTEP_BONNIE, "seq_create", V_N, p->create_ps, 0, 1.1, 0);
	add_row(pl, BSTEP_BONNIE, "seq_stat", V_N, p->unlink_ps * STAT_PER_UNLINK, 1, 1.0, 0);
	add_row(pl, BSTEP_BONNIE, "seq_del", V_N, p->unlink_ps, 1, 1.1, 0);
	add_row(pl, BSTEP_BONNIE, "ran_create", V_N, p->create_ps, 0, 1.2, 0);
	add_row(pl, BSTEP_BONNIE, "ran_stat", V_N, p->unlink_ps * STAT_PER_UNLINK, 1, 1.0, 0);
	add_row(pl, BSTEP_BONNIE, "ran_del", V_N, p->unlink_ps, 1, 1.1, 0);
	for (i = 0; i < BATTERY_IOZ_RECS; i++) {
		double rec = ioz_rec[i] * 1024.0;
		double rw = rec_rate(p->w_lat_s, p->w_bps, rec);
		double rr = rec_rate(p->r_lat_s, p->r_bps, rec);
		static const char *const wp[] = { "write", "rewrite", "random_write" };
		static const char *const rp[] = { "read", "reread", "random_read" };
		char ph[24];
		unsigned k;

		for (k = 0; k < 3; k++) {
			snprintf(ph, sizeof(ph), "%s %uk", wp[k], ioz_rec[i]);
			add_row(pl, BSTEP_IOZONE, ph, V_F0 + i, rw, 0, 1.2, 0);
			snprintf(ph, sizeof(ph), "%s %uk", rp[k], ioz_rec[i]);
			add_row(pl, BSTEP_IOZONE, ph, V_F0 + i, rr, 0, 1.2, 1);
		}
	}
	add_row(pl, BSTEP_POSTMARK, "create_alone", V_P, p->pm_create_ps, 0, 1.1, 0);
	add_row(pl, BSTEP_POSTMARK, "transactions", V_X, p->pm_tps, 0, pm_tx_cost(p), 0);
	add_row(pl, BSTEP_POSTMARK, "delete_alone", V_P, p->pm_delete_ps, 1,
		p->pm_delete_alloc_ps > 0 && p->pm_delete_alloc_ps < p->pm_delete_ps ?
		1.1 * p->pm_delete_ps / p->pm_delete_alloc_ps : 1.1, 0);
	add_row(pl, BSTEP_DB, "build", V_R, p->db_build_s > 0 ? 1 / p->db_build_s : 0, 0, 1.1,
		0);
	add_row(pl, BSTEP_DB, "script_total", V_R,
		p->db_script_s > 0 ? 1 / p->db_script_s : 0, 0, 1.1, 0);
	for (i = 0; i < p->db_nstmt && i < BATTERY_DB_STMTS; i++) {
		char ph[24];
		double t = p->db_script_s * p->db_share[i];

		snprintf(ph, sizeof(ph), "stmt%02u", i + 1);
		add_row(pl, BSTEP_DB, ph, V_R, t > 0 ? 1 / t : 0, 1, 0, 0);
	}
	/* the fsync tests: each lasts the seconds it is given, one second or more */
	add_row(pl, BSTEP_FSYNC, "a test", V_FSEC, 1.0, 0, FSYNC_TESTS * 1.05, 0);
	add_row(pl, BSTEP_PG, "build", V_RPG, 1 / PG_BUILD_S, 0, 1.2, 0);
	add_row(pl, BSTEP_PG, "script_total", V_RPG, 1 / PG_SCRIPT_S, 0, 1.2, 0);
}

/* Seconds steps spend besides their rows: unlinks, cache drops, set-up. */
static void fixed_costs(struct planner *pl)
{
	static const double f[BSTEP_N] = { 0.1, 0.1, 0.1, 0.1, 0.3, 0.2, 0.1, 0.3, PG_FIXED_S,
					    0.3 };

	memcpy(pl->fixed, f, sizeof(f));
}

/* Space caps. A variable's cap is what fits the free space beside the slack. */
static void space_caps(struct planner *pl)
{
	double f = (double)pl->e->free_bytes, avail = f - (double)SPACE_SLACK(pl->e->free_bytes);
	const struct battery_probe *p = pl->p;
	unsigned i;

	if (avail < 0)
		avail = 0;
	for (i = 0; i < V_COUNT; i++)
		pl->cap[i] = avail;
	pl->cap[V_K] = 1e9;
	pl->cap[V_N] = 1024.0 * 1024.0;	/* Bonnie++'s -n limit */
	pl->cap[V_P] = avail / (PM_AVG_FILE * 1.5);
	if (pl->cap[V_P] > 1e8)
		pl->cap[V_P] = 1e8;
	pl->cap[V_X] = 2e9;
	pl->cap[V_R] = avail / (p->db_bytes_per_row > 0 ? p->db_bytes_per_row : 400);
	pl->cap[V_RPG] = avail / 600.0;
	pl->cap[V_FSEC] = avail > 64.0 * MIB ? FSYNC_MAX_SECS : 0;
}

/* The value variable v needs for the rows of step s (required rows only, or also row r
 * when r is given) to last BATTERY_ROW_NS. */
static double need(const struct planner *pl, unsigned v, const struct mrow *extra)
{
	double x = 0;
	unsigned i;

	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];

		if (r->var != v || r->optional || !pl->taken[r->step])
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
		if (r->reads && (pl->reads & BREAD_2XRAM) &&
		    !(pl->reads & (BREAD_DROP | BREAD_DIRECT)) &&
		    x < 2.0 * (double)pl->e->cache_bytes)
			x = 2.0 * (double)pl->e->cache_bytes;
		if (x > v[r->var])
			v[r->var] = x;
		if (v[r->var] > pl->cap[r->var]) {
			*bad = r->var;
			*badx = v[r->var];
			pl->taken[s] = 0;
			return -ENOSPC;
		}
	}
	pl->taken[s] = 0;
	return 0;
}

/* The bytes x units of variable v occupy. */
static double var_bytes(const struct planner *pl, unsigned v, double x)
{
	switch (v) {
	case V_N: return x * 512;
	case V_P: return x * PM_AVG_FILE * 1.5;
	case V_R: return x * (pl->p->db_bytes_per_row > 0 ? pl->p->db_bytes_per_row : 400);
	case V_RPG: return x * 600;
	case V_K: case V_X: return 0;
	default: return x;
	}
}

static void skip_space(struct planner *pl, enum battery_step s, unsigned var, double x)
{
	char a[96], b[32], c[64];
	int twice = (pl->reads & BREAD_2XRAM) && !(pl->reads & (BREAD_DROP | BREAD_DIRECT)) &&
		    x >= 2.0 * (double)pl->e->cache_bytes;

	fmt_bytes(a, sizeof(a), var_bytes(pl, var, x));
	if (strcmp(var_def[var].unit, "B")) {
		fmt_var(c, sizeof(c), var, x);
		snprintf(a + strlen(a), sizeof(a) - strlen(a), " (%s)", c);
	}
	fmt_bytes(b, sizeof(b), (double)pl->e->free_bytes);
	if (twice)
		skip(pl, s, "skipped: needs %s for 2x RAM, %s free; run with --direct or a "
		     "larger target", a, b);
	else
		skip(pl, s, "skipped: needs %s, %s free", a, b);
}

/* Step 2: take the steps in priority order while their least form fits. */
static void take_steps(struct planner *pl)
{
	unsigned k, bad = 0;

	for (k = 0; k < BSTEP_N; k++) {
		enum battery_step s = priority[k];
		double v[V_COUNT], before, after, badx = 0;
		char a[32], b[32];

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

		if (!pl->taken[r->step] || !(r->rate > 0))
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
enum { G_DD, G_BONNIE, G_IOZ, G_PM, G_DB, G_PG, G_FSYNC, G_COUNT };

static const unsigned var_group[V_COUNT] = {
	[V_S1K] = G_DD, [V_S] = G_DD, [V_B] = G_BONNIE, [V_C] = G_BONNIE, [V_K] = G_BONNIE,
	[V_N] = G_BONNIE, [V_F0] = G_IOZ, [V_F1] = G_IOZ, [V_F2] = G_IOZ, [V_P] = G_PM,
	[V_X] = G_PM, [V_R] = G_DB, [V_RPG] = G_PG, [V_FSEC] = G_FSYNC,
};
static const double group_weight[G_COUNT] = { 3, 3, 1, 2, 2, 1, 1 };

static int var_scales(unsigned v)
{
	return v != V_N && v != V_P;
}

/* Seconds the scaled variables of group g cost now. */
static double group_secs(const struct planner *pl, unsigned g)
{
	double t = 0;
	unsigned i;

	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];

		if (pl->taken[r->step] && r->rate > 0 && var_group[r->var] == g &&
		    var_scales(r->var))
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
				if (var_group[i] != g || !var_scales(i))
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

	for (i = 0; i < V_COUNT; i++)
		if (pl->v[i] > 0 && i != V_FSEC)
			pl->v[i] = ceil(pl->v[i] / var_def[i].round) * var_def[i].round;
	/* whole seconds per fsync test, rounded down: each lasts a second at least anyway */
	if (pl->v[V_FSEC] > 0)
		pl->v[V_FSEC] = fmax(1, floor(pl->v[V_FSEC]));
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

/* The step's variables into its plan, its expected time, its shortest kept row and its
 * left-out rows. */
static void finish_step(struct planner *pl, enum battery_step s)
{
	static const unsigned vars[BSTEP_N][BATTERY_MAX_VARS + 1] = {
		[BSTEP_DD_1K] = { 1, V_S1K }, [BSTEP_DD_1M] = { 1, V_S },
		[BSTEP_DD_READ] = { 1, V_S }, [BSTEP_CP] = { 1, V_S },
		[BSTEP_BONNIE] = { 4, V_B, V_C, V_K, V_N },
		[BSTEP_IOZONE] = { 3, V_F0, V_F1, V_F2 },
		[BSTEP_POSTMARK] = { 2, V_P, V_X }, [BSTEP_DB] = { 1, V_R },
		[BSTEP_PG] = { 1, V_RPG }, [BSTEP_FSYNC] = { 1, V_FSEC },
	};
	struct battery_step_plan *sp = &pl->out->s[s];
	double shortest = HUGE_VAL;
	unsigned i;

	sp->nvar = vars[s][0];
	for (i = 0; i < sp->nvar; i++)
		sp->v[i] = pl->v[vars[s][i + 1]];
	sp->read_methods = pl->reads;
	if (!sp->run)
		return;
	/* a hand-sized battery is not probed: its durations are not known */
	sp->expect_ns = pl->out->hand_sized ? 0 : (uint64_t)(step_secs(pl, s, pl->v) * 1e9);
	for (i = 0; i < pl->nrows; i++) {
		const struct mrow *r = &pl->rows[i];
		double t;

		if (r->step != s || !(r->rate > 0) || pl->v[r->var] == 0)
			continue;
		t = pl->v[r->var] / r->rate;
		if (t < ROW_S && !pl->out->hand_sized)
			leave_out(pl, r, t);
		else if (t < shortest)
			shortest = t;
	}
	sp->shortest_ns = shortest < HUGE_VAL ? (uint64_t)(shortest * 1e9) : 0;
}

static double step_space(const struct planner *pl, enum battery_step s)
{
	const double *v = pl->v;

	switch (s) {
	case BSTEP_DD_1K: return v[V_S1K];
	case BSTEP_DD_1M: case BSTEP_DD_READ: return v[V_S];
	case BSTEP_CP: return 2 * v[V_S];
	case BSTEP_BONNIE: return v[V_B] + v[V_C] + v[V_N] * 512;
	case BSTEP_IOZONE: return fmax(v[V_F0], fmax(v[V_F1], v[V_F2]));
	case BSTEP_POSTMARK: return v[V_P] * PM_AVG_FILE * 1.5;
	case BSTEP_DB: return v[V_R] * (pl->p->db_bytes_per_row > 0 ? pl->p->db_bytes_per_row
								       : 400);
	case BSTEP_PG: return v[V_RPG] * 600 + 64 * MIB;
	case BSTEP_FSYNC: return 16 * MIB;
	default: return 0;
	}
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
	for (i = 0; i < BSTEP_N; i++) {
		enum battery_step st = (enum battery_step)i;

		if (st == BSTEP_PG && !pl->w->pg_local) {
			skip(pl, st, "skipped: %s%s", "only with --pg-local", "");
			continue;
		}
		if (st == BSTEP_FSYNC) {
			skip(pl, st, "skipped: %s%s", "its 16 tests last a second each at least; it "
			     "is sized by --budget, not by --size", "");
			continue;
		}
		pl->taken[st] = 1;
		pl->out->s[st].run = 1;
	}
}

/* A hand-sized step that does not fit the free space is skipped. */
static void hand_space(struct planner *pl)
{
	char a[32], b[32];
	unsigned i;

	for (i = 0; i < BSTEP_N; i++) {
		double need_b = step_space(pl, (enum battery_step)i);

		if (!pl->out->s[i].run || need_b + (double)SPACE_SLACK(pl->e->free_bytes) <=
					      (double)pl->e->free_bytes)
			continue;
		fmt_bytes(a, sizeof(a), need_b);
		fmt_bytes(b, sizeof(b), (double)pl->e->free_bytes);
		skip(pl, (enum battery_step)i, "skipped: needs %s, %s free", a, b);
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
	if (e->has_direct)
		pl->reads |= BREAD_DIRECT;
	if (e->can_drop && !w->direct)
		pl->reads |= BREAD_DROP;
	if (!(pl->reads & (BREAD_DROP | BREAD_DIRECT)) && !e->memory_fs)
		pl->reads |= BREAD_2XRAM;
	fixed_costs(pl);
	model(pl);
	space_caps(pl);
}

int battery_plan_make(const struct battery_env *e, const struct battery_probe *p,
		      const struct battery_want *w, struct battery_plan *out)
{
	struct planner pl;
	uint64_t passes, over;
	unsigned i;

	if (!w->size && !w->budget_ns)
		return -EINVAL;
	init(&pl, e, p, w, out);
	passes = (uint64_t)(w->repeats ? w->repeats : 1) * (w->configs ? w->configs : 1);
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
	round_vars(&pl);
	for (i = 0; i < BSTEP_N; i++) {
		finish_step(&pl, (enum battery_step)i);
		step_why(&pl, (enum battery_step)i);
		if (!out->s[i].run)
			continue;
		out->s[i].space = (uint64_t)step_space(&pl, (enum battery_step)i);
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

