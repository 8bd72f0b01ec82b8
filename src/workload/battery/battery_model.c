/* battery_model.c - the planner's model (battery_plan.c explains it): each step's rows,
 * each row's variable, rate and wall-time cost, the steps' fixed costs, the space caps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workload/battery/battery_plan_int.h"

const struct battery_var battery_var_def[V_COUNT] = {
	[V_S1K] = { "B", MIB, 0 },	[V_S] = { "B", MIB, 0 },
	[V_B] = { "B", MIB, 0 },	[V_C] = { "B", MIB, 0 },
	[V_K] = { "seeks", 1, 0 },	[V_N] = { "files", 1024, 1 },
	[V_F0] = { "B", 4096, 0 },	[V_F1] = { "B", MIB, 1 },
	[V_F2] = { "B", 65536, 1 },	[V_P] = { "files", 1, 0 },
	[V_X] = { "transactions", 1, 0 }, [V_R] = { "rows", 1000, 0 },
	[V_RPG] = { "rows", 1000, 0 },
	[V_FSEC] = { "s a test", 1, 0 },
	[V_JF] = { "B", MIB, 0 },
	[V_JSEC] = { "s a pattern", 1, 0 },
	[V_SUSEC] = { "s", 1, 0 },
	[V_SUSB] = { "B", MIB, 0 },
};

const uint32_t battery_ioz_rec[BATTERY_IOZ_RECS] = { 4, 1024, 64 };	/* KiB */

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
	r->aux = 0;
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
static void model_rows(struct planner *pl)
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
	/* the database pattern: each job lasts the seconds it is given; laying out its
	 * file is time, not a figure */
	add_row(pl, BSTEP_JOB, "a pattern", V_JSEC, 1.0, 0, JOB_PATTERNS * 1.05, 1);
	add_row(pl, BSTEP_JOB, "layout", V_JF, p->w_bps, 0, 1.1, 0);
	if (pl->nrows && !strcmp(pl->rows[pl->nrows - 1].phase, "layout"))
		pl->rows[pl->nrows - 1].aux = 1;
	/* the sustained write: it lasts the seconds it is given (or stops at the knee) */
	add_row(pl, BSTEP_SUSTAINED, "write", V_SUSEC, 1.0, 0, 1.05, 0);
	add_row(pl, BSTEP_PG, "build", V_RPG, 1 / PG_BUILD_S, 0, 1.2, 0);
	add_row(pl, BSTEP_PG, "script_total", V_RPG, 1 / PG_SCRIPT_S, 0, 1.2, 0);
}

/* Seconds steps spend besides their rows: unlinks, cache drops, set-up. */
static void fixed_costs(struct planner *pl)
{
	static const double f[BSTEP_N] = { 0.1, 0.1, 0.1, 0.1, 0.3, 0.2, 0.1, 0.3, PG_FIXED_S,
					    0.3, 0.3, 0.5 };

	memcpy(pl->fixed, f, sizeof(f));
}

uint64_t battery_mem_usable(const struct battery_env *e)
{
	uint64_t m = e->mem_avail ? e->mem_avail : e->cache_bytes ? e->cache_bytes : e->ram;
	uint64_t keep = m / 4 > MEM_KEEP_MIN ? m / 4 : MEM_KEEP_MIN;

	if (!e->memory_fs)
		return 0;
	return m > keep ? m - keep : 0;
}

/* Space caps. A variable's cap is what fits the free space beside the slack; on a
 * memory file system also what the memory can hold (its free space is memory that other
 * things may want first, and a tmpfs may be larger than the RAM). */
static void space_caps(struct planner *pl)
{
	double f = (double)pl->e->free_bytes, avail = f - (double)SPACE_SLACK(pl->e->free_bytes);
	const struct battery_probe *p = pl->p;
	unsigned i;

	if (avail < 0)
		avail = 0;
	pl->mem_cap = pl->e->memory_fs ? (double)battery_mem_usable(pl->e) : 0;
	if (pl->e->memory_fs && pl->mem_cap < avail)
		avail = pl->mem_cap;
	pl->space_avail = avail;
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
	pl->cap[V_FSEC] = avail >= FSYNC_FILE ? FSYNC_MAX_SECS : 0;
	pl->cap[V_JF] = fmin(avail, JOB_FILE_MAX);
	pl->cap[V_JSEC] = JOB_MAX_SECS;
	/* the sustained write's seconds: as many as its file fits the space */
	pl->cap[V_SUSB] = avail;
	pl->cap[V_SUSEC] = p->w_bps > 0 ? fmin(SUS_MAX_SECS, avail / p->w_bps) : 0;
}

/* The bytes x units of variable v occupy. */
double battery_var_bytes(const struct planner *pl, unsigned v, double x)
{
	switch (v) {
	case V_N: return x * 512;
	case V_P: return x * PM_AVG_FILE * 1.5;
	case V_R: return x * (pl->p->db_bytes_per_row > 0 ? pl->p->db_bytes_per_row : 400);
	case V_RPG: return x * 600;
	case V_FSEC: return FSYNC_FILE;	/* one file, however long the tests */
	case V_SUSEC: return x * pl->p->w_bps;
	case V_K: case V_X: case V_JSEC: return 0;
	default: return x;
	}
}

double battery_step_space(const struct planner *pl, enum battery_step s)
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
	case BSTEP_FSYNC: return FSYNC_FILE;
	case BSTEP_JOB: return v[V_JF];
	case BSTEP_SUSTAINED: return v[V_SUSB];
	default: return 0;
	}
}


void battery_model(struct planner *pl)
{
	fixed_costs(pl);
	model_rows(pl);
	space_caps(pl);
}
