/* battery.h - `iobattery battery` (and its small form, `iobattery run`): the seeds' whole
 * method in one run, sized so that every figure it shows can be trusted.
 *
 * Pieces:
 *   battery_plan.c   the planner: from the machine (RAM, free space), a short probe of the
 *                    target and the budget, a size and a duration for every step, such
 *                    that no figure is short (ROW_SHORT_NS) and no read of the device is
 *                    cache-inflated; what cannot be made trustworthy is skipped or left
 *                    out up front with the reason. Pure: fixed inputs, fixed plan.
 *   battery_print.c  the plan in words (--dry-run, and before a run)
 *   battery_probe.c  the probe, made of the workloads themselves at tiny sizes
 *   battery_steps.c  each step: the workload's config from the plan, its run function
 *   battery_pass.c   one pass of the steps in a directory, progress with the overall ETA,
 *                    the rows' honesty check and the configuration's params
 *   battery_fs.c     the file-system matrix (--fs): parsing, and one configuration made,
 *                    mounted and undone (core/fsmake.h does the system side)
 * The steps compose the workloads through their run functions (dd_run, copy_run,
 * bonnie_run, iozone_run, postmark_run, db_run); nothing here does I/O of its own.
 * Nothing here is thread-safe: one thread plans and drives a battery. */
#ifndef IOB_WORKLOAD_BATTERY_H
#define IOB_WORKLOAD_BATTERY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct run;
struct runner;

/* What the planner aims every figure at: twice the time under which a phase is flagged
 * short, so that a probe that misjudged the speed by half still gives no short figure. */
#define BATTERY_ROW_NS		1000000000ull
/* A step that cannot run for the budget is skipped; one whose smallest honest form
 * needs more than this share of what is left waits for the steps before it. */
#define BATTERY_MAX_VARS	4
#define BATTERY_MAX_ROWS	24
#define BATTERY_MAX_OUT		40
#define BATTERY_DB_STMTS	32
#define BATTERY_IOZ_RECS	3	/* iozone's reduced grid: 4 KiB, 1 MiB, 64 KiB */

/* The steps, in the order the seeds ran them (the order of a pass). */
enum battery_step {
	BSTEP_DD_1K,		/* dd bs=1k if=/dev/zero conv=fdatasync (the seeds' command) */
	BSTEP_DD_1M,		/* the same at bs=1M */
	BSTEP_DD_READ,		/* dd of=/dev/null from the device: cache dropped, O_DIRECT */
	BSTEP_CP,		/* cp tstfile tstfile2, the source's cache dropped */
	BSTEP_BONNIE,		/* the Bonnie++ set (-s, -n) */
	BSTEP_IOZONE,		/* iozone's matrix, a reduced grid with O_DIRECT */
	BSTEP_POSTMARK,		/* PostMark, `set size 300 100000` scaled */
	BSTEP_DB,		/* the seeds' SQL script on SQLite */
	BSTEP_PG,		/* the same on a throwaway PostgreSQL (--pg-local) */
	BSTEP_N
};

/* How a read of the device kept the page cache out (bits). */
#define BREAD_DROP	(1u << 0)	/* the file's pages were dropped before the read */
#define BREAD_DIRECT	(1u << 1)	/* O_DIRECT */
#define BREAD_2XRAM	(1u << 2)	/* the data exceed twice what the cache can hold */

/* The machine and the target, as the planner sees them. */
struct battery_env {
	uint64_t ram;			/* bytes of RAM */
	uint64_t cache_bytes;		/* what the page cache can hold for us (memlimit) */
	uint64_t free_bytes;		/* free in the target, for an unprivileged writer */
	int has_direct;			/* O_DIRECT opens and reads here */
	int can_drop;			/* a file's pages leave the cache when asked */
	int memory_fs;			/* the file system keeps files in memory (tmpfs) */
	char fs_type[32];		/* "ext4" ("" unknown) */
};

/* What the probe measured (battery_probe.c); 0 where it could not. Rates are optimistic
 * on purpose: the planner's lower bound on a phase's time divides by them. */
struct battery_probe {
	double w_bps;			/* 1 MiB writes until fdatasync returned, B/s */
	double r_bps;			/* 1 MiB reads from the device (dropped or O_DIRECT) */
	double w_lat_s, r_lat_s;	/* one 4 KiB O_DIRECT write / read at queue depth 1 */
	double byte_wps, byte_rps;	/* one-byte write(2)s / read(2)s per second */
	double w1k_bps;			/* buffered 1 KiB writes, B/s */
	double create_ps, unlink_ps;	/* (nearly) empty files created / removed per s */
	double pm_create_ps;		/* PostMark at 300..100000 bytes: files created/s */
	double pm_tps;			/* ... transactions per second */
	double pm_delete_ps;		/* ... files deleted per second */
	double db_build_s;		/* SQLite: seconds per row of the build */
	double db_script_s;		/* ... seconds of the script per row of test1 */
	double db_bytes_per_row;	/* ... peak database bytes per row */
	unsigned db_nstmt;		/* the script's statements */
	double db_share[BATTERY_DB_STMTS];	/* each statement's share of the script */
	uint64_t probe_ns;		/* what the probe took */
	char note[160];			/* what could not be probed, or "" */
};

/* What the user asked for. */
struct battery_want {
	uint64_t budget_ns;		/* the whole command; 0: none (hand-sized only) */
	uint64_t size;			/* --size: 0 = auto (planned), else hand-sized */
	unsigned repeats;		/* --repeat (>= 1) */
	unsigned configs;		/* file systems of the matrix (>= 1) */
	int direct;			/* --direct: reads by O_DIRECT only */
	int pg_local;			/* --pg-local, and libpq is built in */
	uint64_t overhead_ns;		/* fixed costs outside the passes (probe, mkfs) */
};

/* One figure a step leaves out, and why. */
struct battery_out {
	enum battery_step step;
	char phase[24];			/* the row's phase ("seq_stat", "stmt13") */
	char why[200];
};

/* One step of the plan. Which fields mean something depends on the step. */
struct battery_step_plan {
	int run;			/* 0: skipped, why says why */
	uint64_t expect_ns;		/* expected duration of the step in one pass */
	uint64_t shortest_ns;		/* the planned shortest figure it keeps */
	double v[BATTERY_MAX_VARS];	/* its sizes (see battery_plan.c's step table) */
	unsigned nvar;
	unsigned read_methods;		/* BREAD_ bits of its reads */
	uint64_t space;			/* bytes it occupies at most */
	char why[240];			/* the reason for its size, or for the skip */
};

struct battery_plan {
	struct battery_step_plan s[BSTEP_N];
	struct battery_out out[BATTERY_MAX_OUT];	/* figures left out up front */
	unsigned nout;
	uint64_t pass_budget_ns;	/* the budget of one pass (0: none) */
	uint64_t expect_ns;		/* one pass, all steps */
	uint64_t total_ns;		/* the whole command: passes and overhead */
	uint64_t space;			/* bytes needed at once (the largest step) */
	int hand_sized;			/* --size given: sizes from it, nothing left out */
	unsigned nrun;			/* steps that run */
	char note[200];			/* a word on the whole plan, or "" */
};

/* The sizes of a planned step, named (battery_plan.c's variables in order). */
uint64_t battery_dd_bytes(const struct battery_plan *p);	/* dd, cp: tstfile */
uint64_t battery_bonnie_mb(const struct battery_plan *p);	/* -s MiB */
uint64_t battery_bonnie_char_mb(const struct battery_plan *p);	/* per-char MiB */
uint32_t battery_bonnie_seeks(const struct battery_plan *p);
uint32_t battery_bonnie_files(const struct battery_plan *p);	/* -n, units of 1024 */
/* iozone's cells: record i (0..BATTERY_IOZ_RECS-1) and its file in KiB (0: not run). */
uint32_t battery_iozone_rec_kb(unsigned i);
uint64_t battery_iozone_file_kb(const struct battery_plan *p, unsigned i);
uint32_t battery_pm_number(const struct battery_plan *p);
uint32_t battery_pm_transactions(const struct battery_plan *p);
uint64_t battery_db_rows(const struct battery_plan *p, enum battery_step s);

/* Make the plan. Pure: no clock, no file, no global state; thread-safe.
 * Returns the number of steps that run (>= 0; 0 means nothing can be made trustworthy in
 * this budget and place, every step saying why), or -EINVAL for a want without budget or
 * size. */
int battery_plan_make(const struct battery_env *e, const struct battery_probe *p,
		      const struct battery_want *w, struct battery_plan *out);

/* The step's name as the plan prints it ("dd write bs=1k"), and the workload of its
 * rows ("dd"). Static strings. */
const char *battery_step_name(enum battery_step s);
const char *battery_step_workload(enum battery_step s);
/* The read methods as words ("cache dropped, O_DIRECT"), into buf. Returns buf. */
char *battery_read_words(char *buf, size_t len, unsigned methods);
/* The figures step s leaves out of plan p: 1 when its row phase is one of them, with the
 * reason (static inside p) in *why (may be NULL). */
int battery_left_out(const struct battery_plan *p, enum battery_step s, const char *phase,
		     const char **why);

/* battery_print.c: the plan as the dry run prints it: the machine, the probe, one line
 * per step (its size, expected duration and why), the figures left out, the total.
 * 0 or -EIO. */
int battery_plan_print(FILE *f, const struct battery_plan *p, const struct battery_env *e,
		       const struct battery_probe *pr, const char *target);
/* Parse a duration for --budget: digits with a unit s, m or h ("10m", "90s", "1h",
 * "1m30s"). A bare number or 0 is refused. Returns 0 and *ns, or -EINVAL / -ERANGE. */
int battery_parse_budget(const char *s, uint64_t *ns);

#endif
