/* battery_plan_int.h - what the planner's files share (battery_plan.c: the algorithm,
 * battery_model.c: the model of each step's rows, its fixed costs and space); not for
 * other modules. */
#ifndef IOB_WORKLOAD_BATTERY_PLAN_INT_H
#define IOB_WORKLOAD_BATTERY_PLAN_INT_H

#include <stdint.h>

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
#define FSYNC_FILE	(16.0 * MIB)	/* its file: one WAL segment (FSYNC_PREFILL) */
#define JOB_PATTERNS	4.0		/* the database pattern's jobs, a second each at least */
#define JOB_MAX_SECS	60.0		/* ... and a minute each at most */
#define JOB_FILE_MIN	(256.0 * MIB)	/* its file: past what a device's cache holds */
#define JOB_FILE_MAX	(16384.0 * MIB)
#define SUS_MIN_SECS	60.0	/* sustained: a minute at least (past a cache of tens
				 * of GB), ten at most (its command's --time); its file
				 * is what the probe's write rate writes in that time:
				 * a faster device stops at the size, having written
				 * as much */
#define SUS_MAX_SECS	600.0
#define UPGRADE_SHARE	0.15	/* the most of a pass one upgrade may cost */
#define SPACE_SLACK(f)	((f) / 20 + (64u << 20))	/* kept free: 5% and 64 MiB */
#define MEM_KEEP_MIN	(256ull << 20)	/* a memory file system: memory kept at least */

/* The size variables. */
enum { V_S1K, V_S, V_B, V_C, V_K, V_N, V_F0, V_F1, V_F2, V_P, V_X, V_R, V_RPG, V_FSEC,
	V_JF, V_JSEC, V_SUSEC, V_SUSB, V_COUNT };

/* One row of the model: its step, phase, variable, rate (variable units per second),
 * whether the step needs it, and what a second of it costs in wall time (0: its time is
 * inside another row's, as a statement's inside the script's total). An aux row is no
 * figure: it is time the step spends (laying out the job's file), scaled with its
 * variable. */
struct mrow {
	enum battery_step step;
	char phase[24];
	unsigned var;
	double rate;
	int optional;
	double cost;
	unsigned reads;		/* a read of the device: needs a read method */
	int aux;		/* time, not a figure */
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
	double mem_cap;			/* a memory file system: bytes its files may take
					 * (0: a device) */
	double space_avail;		/* bytes a step may occupy (the caps' base) */
	unsigned done;			/* a revision: the steps that ran (bits), fixed */
	unsigned only;			/* a revision: the steps it may take (bits; 0 all) */
	int fixv[V_COUNT];		/* variables a step that ran has fixed */
};

struct battery_var {
	const char *unit;	/* for the reasons */
	double round;		/* rounded up to a multiple */
	int optional;		/* starts off; an upgrade switches it on */
};
extern const struct battery_var battery_var_def[V_COUNT];
#define var_def battery_var_def
extern const uint32_t battery_ioz_rec[BATTERY_IOZ_RECS];	/* KiB */
#define ioz_rec battery_ioz_rec

/* The rows of every step, their fixed costs and the space caps into pl (from its probe,
 * environment and want). */
void battery_model(struct planner *pl);
/* The bytes x units of variable v occupy; the bytes step s occupies at most. */
double battery_var_bytes(const struct planner *pl, unsigned v, double x);
double battery_step_space(const struct planner *pl, enum battery_step s);

#endif
