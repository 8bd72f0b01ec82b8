/* battery.h - `iobattery battery` (and its small form, `iobattery run`): the seeds' whole
 * method in one run, sized so that every figure it shows can be trusted.
 *
 * Pieces:
 *   battery_cmd.c    the command face: options, checks, the descriptors of `battery`
 *                    and the hooks `run` (cmd/run.c) reuses
 *   battery_job.c    a whole battery: scratch directory, probe, plan, repeats over the
 *                    configurations, undoing
 *   battery_model.c  the planner's model: each step's rows, variables, rates, costs
 *   battery_plan.c   the planner: from the machine (RAM, free space), a short probe of the
 *                    target and the budget, a size and a duration for every step, such
 *                    that no figure is short (ROW_SHORT_NS) and no read of the device is
 *                    cache-inflated; what cannot be made trustworthy is skipped or left
 *                    out up front with the reason. Pure: fixed inputs, fixed plan.
 *   battery_print.c  the plan in words (--dry-run, and before a run)
 *   battery_probe.c  the probe, made of the workloads themselves at tiny sizes
 *   battery_steps.c  each step: the workload's config from the plan, its run function
 *   battery_jobstep.c  the database-pattern step: a fio job file of its own, run by the
 *                    job workload (job_plan_build, job_layout, job_run_steps)
 *   battery_pass.c   one pass of the steps in a directory, progress with the overall ETA,
 *                    the rows' honesty check and the configuration's params
 *   battery_adapt.c  the plan corrected from the rates the first pass's steps measured
 *   battery_fs.c     the file-system matrix (--fs): parsing, and one configuration made,
 *                    mounted and undone (fs/fsmake.h does the system side)
 *   battery_ranks.c  the battery across ranks (mpirun): rank 0 probes and plans
 * The steps compose the workloads through their run functions (dd_run, copy_run,
 * bonnie_run, iozone_run, postmark_run, db_run, fsync_run, the job workload's steps);
 * nothing here does I/O of its own.
 * Nothing here is thread-safe: one thread plans and drives a battery. */
#ifndef IOB_WORKLOAD_BATTERY_H
#define IOB_WORKLOAD_BATTERY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct row;
struct run;
struct runner;
struct battery_job;

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
	BSTEP_FSYNC,		/* pg_test_fsync's tests: an 8 KiB commit by each sync method */
	BSTEP_JOB,		/* the database pattern: 8 KiB random reads at queue depth 1
				 * and 32, random writes each followed by fdatasync, a 70/30
				 * mix; O_DIRECT, the best engine there is (a fio job) */
	BSTEP_SUSTAINED,	/* iobattery sustained: one large file written until the
				 * rate falls and stays down (the cliff), O_DIRECT; last,
				 * when the budget has minutes left */
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
	uint64_t free_bytes;		/* free in the target, for an unprivileged writer;
					 * under mpirun one rank's share (below) */
	unsigned fs_ranks;		/* mpirun: the ranks whose files share the file
					 * system with the least room a rank, free_bytes
					 * being its free space over them (0, 1: alone) */
	int has_direct;			/* O_DIRECT opens and reads here */
	int can_drop;			/* a file's pages leave the cache when asked */
	int memory_fs;			/* the file system keeps files in memory (tmpfs) */
	uint64_t mem_avail;		/* memory that can be allocated now (MemAvailable,
					 * or the cgroup's limit when smaller; 0 unknown):
					 * a memory file system's files take it */
	char fs_type[32];		/* "ext4" ("" unknown) */
	char job_engine[16];		/* the database pattern's engine ("io_uring"; "": the
					 * step picks it) */
	char job_engine_why[160];	/* why the engines before it were not taken, or "" */
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
	double pm_delete_alloc_ps;	/* ... deleted once their data are on the device
					 * (fsync'd first): what a large pool costs */
	double pm_bytes_per_tx;		/* ... bytes a transaction writes */
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
	unsigned steps;			/* --steps: bit (1 << step) for each step to run; 0 all */
	double margin;			/* figures planned at margin x BATTERY_ROW_NS (0: 1) */
};

/* The budget as one object (battery_deadline.c): when the command began, its budget
 * (0: none, hand-sized) and the passes that share it (repeats x file systems). Pure. */
struct battery_deadline {
	uint64_t t0_ns, budget_ns;
	unsigned passes;
};
/* The passes w asks for: repeats x configurations, at least 1. */
unsigned battery_passes(const struct battery_want *w);
void battery_deadline_init(struct battery_deadline *d, uint64_t t0_ns, uint64_t budget_ns,
			   const struct battery_want *w);
/* When the budget ends with the one tolerance "within budget" allows (a hundredth of it
 * and 0.25 s for the clock); 0 without a budget. */
uint64_t battery_deadline_end(const struct battery_deadline *d);
/* The budget left at now_ns (no tolerance): what a message quotes. */
uint64_t battery_deadline_left(const struct battery_deadline *d, uint64_t now_ns);
/* 1 when work of need_ns started at now_ns ends within the budget (always without one). */
int battery_deadline_fits(const struct battery_deadline *d, uint64_t now_ns, uint64_t need_ns);

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
	int for_budget;			/* skipped because the budget could not hold it */
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
	char job_engine[16];		/* the database pattern's engine (the env's, or psync) */
	uint64_t mem_usable;		/* a memory file system: the bytes its files may take
					 * (battery_mem_usable); 0 on a device */
	char note[200];			/* a word on the whole plan, or "" */
};

/* One file-system configuration of the matrix (--fs), as its rows name it. */
struct battery_conf {
	const char *label;		/* the entry as typed: "ext4", "xfs@noatime" */
	const char *fs;			/* "ext4", or NULL: the target as it is */
	const char *mkfs_opts;		/* mkfs's options ("" none) */
	const char *mount_opts;		/* mount options ("" none) */
};

/* One entry of --fs. */
#define BATTERY_MAX_FS	16
struct battery_fs_entry {
	char label[160];		/* as typed: "xfs@noatime" */
	char type[16];			/* "xfs" */
	char mkfs_opts[256];		/* "" none */
	char mount_opts[256];		/* "" none */
	char mkfs[256];			/* the mkfs program's path, once found */
};

/* One entry made: the image, the device, the mount point, their cleanup slots. */
struct battery_fs {
	char image[4096], dev[4096], mnt[4096];
	int image_slot, loop_slot, mount_slot;
	int dio;			/* the loop device reads its file with O_DIRECT */
};

/* What a pass needs to draw the overall progress. */
struct battery_clock {
	uint64_t after_ns;		/* planned time of everything after this pass */
	const char *conf_label;		/* the configuration's name on the step lines, or NULL */
	int quiet;			/* no step lines */
	uint64_t end_ns;		/* clock_ns() by which the budget ends: a step that
					 * cannot end by then does not start (0: none) */
	uint64_t steps_ns;		/* the steps' own time, added by each pass */
	struct battery_job *adapt;	/* the pass re-plans as its steps run (the first
					 * pass of a planned battery), or NULL */
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
unsigned battery_fsync_secs(const struct battery_plan *p);	/* seconds per test */
uint64_t battery_job_bytes(const struct battery_plan *p);	/* the pattern's file */
unsigned battery_job_secs(const struct battery_plan *p);	/* seconds a pattern */
unsigned battery_sus_secs(const struct battery_plan *p);	/* sustained: --time */
uint64_t battery_sus_bytes(const struct battery_plan *p);	/* ... and --size */

/* What the files of a battery on a memory file system (e->memory_fs) may take: the
 * memory available less a margin for the tests themselves and everything else (a
 * quarter, 256 MiB at least); the RAM's page-cache share stands in for an unknown
 * MemAvailable. 0 when e is no memory file system. Pure. */
uint64_t battery_mem_usable(const struct battery_env *e);
/* The sentence that says a target is in memory, into buf (e->memory_fs; "" otherwise).
 * Returns buf. Pure. */
char *battery_memory_note(char *buf, size_t len, const struct battery_env *e);
/* What follows "N GiB free" where the plan says it: under mpirun with ranks sharing
 * the file system " for each of the 2 ranks sharing the file system", else "". Into
 * buf; returns buf. Pure. */
char *battery_shared_words(char *buf, size_t len, const struct battery_env *e);

/* Make the plan. Pure: no clock, no file, no global state; thread-safe.
 * Returns the number of steps that run (>= 0; 0 means nothing can be made trustworthy in
 * this budget and place, every step saying why), or -EINVAL for a want without budget or
 * size. */
int battery_plan_make(const struct battery_env *e, const struct battery_probe *p,
		      const struct battery_want *w, struct battery_plan *out);

/* Re-plan as the steps run: the steps of prev in done (bits 1 << step) ran, step s taking
 * done_ns[s] (its sync after it included); p holds the rates as the finished steps
 * measured them (battery_adapt_rates). The steps that ran keep their plan and their
 * sizes (a size they share with a step after them, dd's file, stays), with what they
 * took as their expected time; the steps of prev yet to run are planned again, in the
 * same order and by the same rules, into what the steps that ran left of prev's pass
 * budget, and with them the steps after the last that ran which prev skipped for the
 * budget (the steps before took less than planned); a step that does not fit is skipped
 * with the reason (the budget); the steps prev skipped for other reasons stay skipped.
 * out must not be prev. Pure. Returns the steps that run, or -EINVAL (prev hand-sized or
 * without a budget). */
int battery_plan_revise(const struct battery_env *e, const struct battery_probe *p,
			const struct battery_want *w, const struct battery_plan *prev,
			unsigned done, const uint64_t *done_ns, struct battery_plan *out);

/* The battery's knowledge of its steps, in one table (battery_steps.c), one entry per
 * step in the order of a pass (the enum's): what --steps calls it, the name the plan,
 * the progress and the text print ("dd write bs=1k"; a row of a step that did not run
 * has it in its `detail` param), the workload of its rows, the rank in which the planner
 * takes steps while their least form fits the budget (1 first), the planner's size
 * variables it runs with (battery_plan_int.h's V_ indices, into its plan's v[]), and the
 * function that runs it. The planner, the plan's printer, the pass and --steps read it;
 * the report (which may not include workload/) reads the same order from a run's
 * options step1, step2 ... and the rows. */
struct battery_step_info {
	enum battery_step step;
	const char *id;			/* --steps' word: "dd-1k" */
	const char *name;		/* "dd write bs=1k" */
	const char *workload;		/* "dd" */
	unsigned priority;		/* 1 .. BSTEP_N */
	unsigned nvar;
	unsigned vars[BATTERY_MAX_VARS];
	int (*run)(struct runner *rc, const struct battery_plan *p, const char *dir);
};
extern const struct battery_step_info battery_steps[BSTEP_N];

/* The step's name as the plan prints it ("dd write bs=1k"), and the workload of its
 * rows ("dd"), from battery_steps[]. Static strings; "?" out of range. */
const char *battery_step_name(enum battery_step s);
const char *battery_step_workload(enum battery_step s);
/* The step the planner takes k-th (0 first), by the table's priority. */
enum battery_step battery_step_by_priority(unsigned k);
/* Parse --steps: a comma-separated list of step ids ("dd" for its three steps, "dd-1k",
 * "dd-1m", "dd-read", "cp", "bonnie", "iozone", "postmark", "db", "pg", "fsync", "job",
 * "sustained")
 * into *mask (bit 1 << step). Returns 0, or -EINVAL with the reason in err. Pure. */
int battery_parse_steps(const char *spec, unsigned *mask, char *err, size_t len);
/* The read methods as words ("cache dropped, O_DIRECT"), into buf. Returns buf. */
char *battery_read_words(char *buf, size_t len, unsigned methods);
/* The figures step s leaves out of plan p: 1 when its row phase is one of them, with the
 * reason (static inside p) in *why (may be NULL). */
int battery_left_out(const struct battery_plan *p, enum battery_step s, const char *phase,
		     const char **why);

/* battery_probe.c: measure the rates of struct battery_probe and the facts of struct
 * battery_env in a scratch directory made inside dir (removed after), with rc's engine;
 * rc->run is not touched. About a second. Without full, only the facts (a hand-sized
 * battery needs no rates). Returns 0, -EINTR after a stop signal, or the -errno of the
 * first probe that failed (the target is not usable). */
int battery_probe(const struct runner *rc, const char *dir, struct battery_env *e,
		  struct battery_probe *p, int full);

/* battery_jobstep.c: the engines the database pattern may run on, best first (io_uring,
 * libaio, psync), NULL-terminated; --job-engine must name one of them. Static. */
const char *const *battery_job_engines(void);
/* The engine the database pattern runs on: the first of battery_job_engines() that this
 * build has and this kernel lets run, into e->job_engine, and why the ones before it
 * were not taken into e->job_engine_why. */
void battery_job_engine(struct battery_env *e);
/* The database pattern of plan p (on p->job_engine) as a fio job file, the one the step
 * runs: its file, filename=, is relative (fio's --directory, or the step's directory,
 * places it). Returns the length (as snprintf: len or more means buf was too small).
 * Pure. */
int battery_job_text(const struct battery_plan *p, char *buf, size_t len);

/* battery_pass.c: one pass of plan p's steps inside dir (a scratch directory of the
 * caller's), rows appended to rc->run with the configuration's params (conf may be NULL);
 * a skipped step gets one not-measured row with the reason in the first repeat; in a
 * planned battery every row the plan leaves out, or that came out short or
 * cache-inflated, is left out (battery_leave_out). Draws the overall progress from ck.
 * Returns 0 (a failed step is in its rows; the next step runs) or -EINTR. */
int battery_pass(struct runner *rc, const struct battery_plan *p, const char *dir,
		 const struct battery_conf *conf, struct battery_clock *ck);
/* Mark row w left out: flag not_measured, why as its note. */
void battery_leave_out(struct row *w, const char *why);
/* The configuration's params (fs, fs_config, mkfs_options, mount_options) on w. */
void battery_conf_params(struct row *w, const struct battery_conf *conf);

/* battery_fs.c: parse --fs ("ext4,xfs@noatime,ext4:-O ^has_journal") into out[0..max-1].
 * A word after a mount option that names no file system continues it
 * ("xfs@noatime,logbsize=256k"). Returns the number of entries, or -EINVAL with the reason
 * in err (unknown type, empty options, an entry twice). Pure. */
int battery_fs_parse(const char *spec, struct battery_fs_entry *out, unsigned max,
		     char *err, size_t len);
/* Make entry e (index idx) inside the scratch directory scratch: on device (which the
 * caller checked), or on a loop device over a sparse image of size bytes; mkfs, then a
 * mount at scratch/mnt-N. Each step is registered for cleanup. 0, or -errno with the
 * reason (mkfs's own words) in msg and everything undone. */
int battery_fs_make(const struct battery_fs_entry *e, unsigned idx, const char *scratch,
		    uint64_t size, const char *device, struct battery_fs *st, char *msg,
		    size_t len);
/* Unmount, detach, remove the image, in that order. 0 or the first -errno. */
int battery_fs_undo(struct battery_fs *st);

/* What `iobattery battery` (and `iobattery run`) was asked, checked by the command. */
struct battery_opts {
	const char *dir;		/* the target directory */
	uint64_t budget_ns;		/* --budget (0: hand-sized only) */
	uint64_t size;			/* --size (0: auto) */
	unsigned repeats;		/* --repeat */
	int direct, pg_local, dry_run, quiet;
	unsigned steps;			/* --steps (0: every step) */
	const char *job_engine;		/* --job-engine, checked (NULL: the first that runs) */
	struct battery_fs_entry fs[BATTERY_MAX_FS];	/* --fs, mkfs found */
	unsigned nfs;			/* 0: the target's own file system */
	uint64_t fs_size;		/* --fs-size: the images' size */
	const char *device;		/* --destroy-data-on, checked; NULL: loop devices */
};

struct scratch;

/* A battery under way (battery_job.c). */
struct battery_job {
	const struct battery_opts *o;
	struct scratch *sc;		/* the scratch directory in o->dir, marked */
	struct scratch *inner;		/* the one inside the mounted file system */
	struct battery_fs fs;		/* the configuration made now */
	unsigned fs_up;			/* its index + 1; 0 none */
	uint64_t make_ns;		/* what making one took */
	uint64_t t0;
	struct battery_deadline dl;	/* the budget from t0 (battery_job_start) */
	uint64_t steps_ns;		/* the steps' own time, all passes */
	unsigned late;			/* repeats skipped for the budget */
	struct battery_want want;	/* what the plan was made for */
	struct battery_probe rates;	/* the probe's rates as the steps corrected them */
	unsigned done;			/* steps of the first pass that ran (bits) */
	uint64_t done_ns[BSTEP_N];	/* ... what each took, its sync after it included */
	unsigned replans;		/* revisions of the plan made */
	unsigned broken;		/* configurations that could not be made (bits) */
	char probe_dir[4096];
	struct battery_env env;
	struct battery_probe probe;
	struct battery_plan plan;
};

/* Start: the scratch directory, the first file system of the matrix, the probe, the
 * plan (recorded in rc->run's options, printed on stderr unless quiet, on stdout for a
 * dry run). 0, or -errno after saying why (battery_job_finish undoes it either way). */
int battery_job_start(struct battery_job *j, const struct battery_opts *o, struct runner *rc);
/* One repeat (rc->repeat): a pass over every configuration, each on a fresh file system,
 * unmounted after. 0 or -EINTR; failures are in the rows. */
int battery_job_repeat(struct battery_job *j, struct runner *rc);
/* Undo everything: the mount, the loop device, the images, the scratch directory; with
 * run, record the wall time, the steps' time and the overhead between them in its
 * options. 0 or the first -errno (said). */
int battery_job_finish(struct battery_job *j, struct run *run);

/* battery_adapt.c: lower p's rates to what the rows step s made (rows[0..n-1]) measured
 * where they are slower than the probe said by more than a tenth: dd write bs=1M's bytes
 * over its time until fdatasync returned is the device's durable write rate (a host's
 * write-back cache absorbs the probe's 192 MiB but not a step's gigabytes); bs=1k's is
 * its own rate, and the device's too where its fdatasync took a tenth of the time or more
 * (the writer had outrun the device); dd read's faster read is the read rate. The
 * words of what changed into what (may be NULL). Returns the number of rates lowered.
 * Pure. */
int battery_adapt_rates(struct battery_probe *p, enum battery_step s,
			struct row *const *rows, size_t n, char *what, size_t len);
/* After step s of the first pass, which took step_ns (its sync included) and made the
 * rows from first on in rc->run: when a rate was lowered, or the step took more or less
 * than planned by a tenth and a second, the steps after it are planned again into what
 * is left (battery_plan_revise), the plan recorded again with the reason in the run's
 * replanned option, and said on stderr unless quiet. */
void battery_adapt(struct battery_job *j, struct runner *rc, enum battery_step s,
		   size_t first, uint64_t step_ns);

/* battery_print.c: the plan as the dry run prints it: the machine, the probe, one line
 * per step (its size, expected duration and why), the figures left out, the total.
 * 0 or -EIO. */
int battery_plan_print(FILE *f, const struct battery_plan *p, const struct battery_env *e,
		       const struct battery_probe *pr, const char *target);
/* Parse a duration for --budget: digits with a unit s, m or h ("10m", "90s", "1h",
 * "1m30s"). A bare number or 0 is refused. Returns 0 and *ns, or -EINVAL / -ERANGE. */
int battery_parse_budget(const char *s, uint64_t *ns);

#endif
