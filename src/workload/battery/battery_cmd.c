/* battery_cmd.c - `iobattery battery`: the 2005 mailing-list method in one run, sized by the
 * planner (workload/battery/battery.h), optionally across file systems made on loop
 * devices or on a device given to be wiped; --dry-run prints the plan, --cleanup removes
 * what a killed run left. Every check of what was typed comes before anything is made.
 * Under mpirun every rank runs the battery in its own scratch directory, as rank 0 plans
 * it (workload/battery/battery_ranks.c); the file-system matrix and --cleanup refuse. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "comm/comm.h"
#include "config.h"
#include "core/err.h"
#include "fs/fsmake.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "engine/engine.h"
#include "output/battery_out.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "workload/battery/battery.h"
#include "workload/battery/battery_int.h"
#include "workload/workload.h"

#define DEF_BUDGET	"10m"
#define DEF_FS_SIZE	(8ull << 30)

struct battery_cmd {
	const char *dir, *budget, *size, *fs, *device, *force_wipe, *steps, *job_engine;
	uint64_t fs_size;
	int dry_run, direct, pg_local, cleanup, no_space_check;
	struct battery_opts o;
	struct battery_job job;
	int started;
};

static const struct opt battery_opt_table[] = {
	{ "dir", 'd', OPT_STR, offsetof(struct battery_cmd, dir), "DIR",
	  "directory to test (a scratch directory is made inside; default .)" },
	{ "budget", 0, OPT_STR, offsetof(struct battery_cmd, budget), "TIME",
	  "how long the whole run may take: 90s, 10m, 1h (default 10m)" },
	{ "size", 0, OPT_STR, offsetof(struct battery_cmd, size), "auto|SIZE",
	  "auto: planned from the budget (default); SIZE: the data files by hand" },
	{ "steps", 0, OPT_STR, offsetof(struct battery_cmd, steps), "LIST",
	  "only these (dd, dd-1k, dd-1m, dd-read, cp, bonnie, iozone, postmark, db, pg, fsync, "
	  "job, sustained)" },
	{ "job-engine", 0, OPT_STR, offsetof(struct battery_cmd, job_engine), "NAME",
	  "the database pattern's: io_uring, libaio or psync (default: the first that runs)" },
	{ "dry-run", 0, OPT_FLAG, offsetof(struct battery_cmd, dry_run), NULL,
	  "probe the target, print the plan (sizes, durations, why) and stop" },
	{ "direct", 0, OPT_FLAG, offsetof(struct battery_cmd, direct), NULL,
	  "read the device with O_DIRECT only (no cache-dropped reads)" },
	{ "pg-local", 0, OPT_FLAG, offsetof(struct battery_cmd, pg_local), NULL,
	  "also run the SQL script on a throwaway PostgreSQL in the target" },
	{ "fs", 0, OPT_STR, offsetof(struct battery_cmd, fs), "LIST",
	  "file systems to make and compare: ext4,xfs,btrfs[,ext4:MKFS-OPTS][,xfs@MOUNT-OPTS]" },
	{ "fs-size", 0, OPT_SIZE, offsetof(struct battery_cmd, fs_size), "SIZE",
	  "size of each file system's sparse image (default 8g, at most 90% of the free space)" },
	{ "destroy-data-on", 0, OPT_STR, offsetof(struct battery_cmd, device), "DEVICE",
	  "make the file systems on this block device, destroying what it holds" },
	{ "force-wipe", 0, OPT_STR, offsetof(struct battery_cmd, force_wipe), "DEVICE",
	  "the same device again: wipe it although it holds a file system or partitions" },
	{ "cleanup", 0, OPT_FLAG, offsetof(struct battery_cmd, cleanup), NULL,
	  "remove the mounts, loop devices and scratch directories a killed run left" },
	{ "no-space-check", 0, OPT_FLAG, offsetof(struct battery_cmd, no_space_check), NULL,
	  "skip the check of --fs-size against the free space" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

/* --fs-size not given (0 is given, and too small) */
#define FS_SIZE_UNSET	UINT64_MAX

static void battery_init(void *cfg)
{
	struct battery_cmd *b = cfg;

	b->dir = ".";
	b->budget = DEF_BUDGET;
	b->size = "auto";
	b->fs_size = FS_SIZE_UNSET;
}

static int check_fs_entries(struct battery_cmd *b)
{
	char err[256];
	unsigned i;
	int n;

	n = battery_fs_parse(b->fs, b->o.fs, BATTERY_MAX_FS, err, sizeof(err));
	if (n < 0) {
		err_msg("battery: %s", err);
		return -EINVAL;
	}
	b->o.nfs = (unsigned)n;
#ifndef HAVE_LOOP_MOUNT
	err_msg("battery: --fs: file systems are made on Linux only: '%s'", b->fs);
	return -EINVAL;
#endif
	if (geteuid() != 0) {
		err_msg("battery: --fs needs root: '%s': it makes file systems on loop devices "
			"and mounts them; run it as root, or without --fs to measure the "
			"directory's own file system", b->fs);
		return -EPERM;
	}
	for (i = 0; i < b->o.nfs; i++) {
		const struct fsmake_type *t = fsmake_type(b->o.fs[i].type);

		if (fsmake_find(t, b->o.fs[i].mkfs, sizeof(b->o.fs[i].mkfs)) < 0) {
			err_msg("battery: no %s for '%s': install %s (apt-get install %s)",
				t->mkfs, b->o.fs[i].label, t->package, t->package);
			return -ENOENT;
		}
	}
	return 0;
}

/* The largest of the entries' least sizes, and the name of the type that has it. */
static uint64_t fs_minimum(const struct battery_cmd *b, const char **who)
{
	uint64_t m = 0;
	unsigned i;

	for (i = 0; i < b->o.nfs; i++) {
		const struct fsmake_type *t = fsmake_type(b->o.fs[i].type);

		if (t->min_bytes > m) {
			m = t->min_bytes;
			*who = t->name;
		}
	}
	return m;
}

static int check_device(struct battery_cmd *b)
{
	char why[256], a[PATH_MAX], f[PATH_MAX], sz[32];
	const char *who = "";
	uint64_t bytes = 0, min;
	int r;

	if (!b->fs) {
		err_msg("battery: --destroy-data-on needs --fs: '%s': which file systems to make",
			b->device);
		return -EINVAL;
	}
	if (b->force_wipe && (!realpath(b->device, a) || !realpath(b->force_wipe, f) ||
			      strcmp(a, f))) {
		err_msg("battery: --force-wipe must name the --destroy-data-on device again: '%s'",
			b->force_wipe);
		return -EINVAL;
	}
	r = fsmake_device_check(b->device, b->force_wipe != NULL, why, sizeof(why));
	if (r < 0) {
		err_msg("battery: refusing --destroy-data-on: '%s': %s", b->device, why);
		return r;
	}
	min = fs_minimum(b, &who);
	if (fsmake_device_size(b->device, &bytes) == 0 && bytes < min) {
		err_msg("battery: --destroy-data-on: '%s': %s is smaller than %s's minimum",
			b->device, units_fmt_bytes(sz, sizeof(sz), (double)bytes), who);
		return -EINVAL;
	}
	b->o.device = b->device;
	b->o.fs_size = bytes;
	return 0;
}

static int check_fs_size(struct battery_cmd *b)
{
	char a[32], c[32];
	const char *who = "";
	uint64_t avail = 0, min = fs_minimum(b, &who);
	int set = b->fs_size != FS_SIZE_UNSET;

	if (space_check(b->dir, 0, &avail) < 0)
		avail = 0;
	if (!set) {
		b->fs_size = DEF_FS_SIZE;
		if (b->fs_size > avail / 10 * 9)
			b->fs_size = avail / 10 * 9 & ~((1ull << 20) - 1);
	}
	if (b->fs_size < min) {
		err_msg("battery: --fs-size too small: '%s': %s needs at least %s",
			units_fmt_bytes(a, sizeof(a), (double)b->fs_size), who,
			units_fmt_bytes(c, sizeof(c), (double)min));
		return -EINVAL;
	}
	if (set && !b->no_space_check && b->fs_size > avail) {
		err_msg("battery: --fs-size larger than the free space: '%s': %s free in '%s'",
			units_fmt_bytes(a, sizeof(a), (double)b->fs_size),
			units_fmt_bytes(c, sizeof(c), (double)avail), b->dir);
		return -EINVAL;
	}
	b->o.fs_size = b->fs_size;
	return 0;
}

/* --job-engine: one of the pattern's engines (battery_job_engines), in this build and
 * able to run here. */
static int check_job_engine(const char *name)
{
	const char *const *l = battery_job_engines();
	const struct engine *e = engine_find(name);
	char names[128];
	size_t i, n = 0;
	const char *why;
	int r;

	for (i = 0; l[i] && strcmp(l[i], name); i++)
		;
	if (!l[i]) {
		names[0] = '\0';
		for (i = 0; l[i] && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
					      !i ? "" : l[i + 1] ? ", " : " or ", l[i]);
		err_msg("battery: bad --job-engine: '%s': use %s", name, names);
		return -EINVAL;
	}
	if (!e) {
		why = engine_absent(name);
		err_msg("battery: --job-engine is not in this build: '%s': %s", name,
			why ? why : "not built");
		return -EINVAL;
	}
	if (e->probe && (r = e->probe()) < 0) {
		why = engine_hint(e, NULL, r);
		err_msg("battery: --job-engine cannot run here: '%s': %s%s%s", name,
			strerror(-r), why ? ": " : "", why ? why : "");
		return -EINVAL;
	}
	return 0;
}

static int check_times(struct battery_cmd *b)
{
	if (battery_parse_budget(b->budget, &b->o.budget_ns) < 0) {
		err_msg("battery: bad --budget: '%s': a duration with its unit: 90s, 10m, 1h",
			b->budget);
		return -EINVAL;
	}
	if (!strcmp(b->size, "auto")) {
		b->o.size = 0;
	} else if (units_parse_size(b->size, 1, &b->o.size) < 0 || b->o.size < (1u << 20)) {
		err_msg("battery: bad --size: '%s': auto, or a size of at least 1m", b->size);
		return -EINVAL;
	}
	if (b->job_engine && check_job_engine(b->job_engine) < 0)
		return -EINVAL;
	b->o.job_engine = b->job_engine;
	if (b->steps) {
		char err[256];

		if (battery_parse_steps(b->steps, &b->o.steps, err, sizeof(err)) < 0) {
			err_msg("battery: %s", err);
			return -EINVAL;
		}
	}
	return 0;
}

/* Several ranks (mpirun): what makes or removes file systems, loop devices and mounts is
 * one machine's, run once by hand there. -EINVAL after saying why (rank 0 says it). */
static int check_ranks(const struct battery_cmd *b)
{
	const char *opt = b->cleanup ? "--cleanup" : b->device ? "--destroy-data-on" :
			  b->force_wipe ? "--force-wipe" : b->fs ? "--fs" :
			  b->fs_size != FS_SIZE_UNSET ? "--fs-size" : NULL;
	const char *what = b->cleanup ? b->dir : b->device ? b->device :
			   b->force_wipe ? b->force_wipe : b->fs ? b->fs : NULL;
	char sz[32];

	if (!comm_multi() || !opt)
		return 0;
	if (!what)
		what = units_fmt_bytes(sz, sizeof(sz), (double)b->fs_size);
	if (comm_rank() == 0)
		err_msg("battery: %s does not run under mpirun: '%s': its loop devices, mounts "
			"and file systems are one machine's; run it there without mpirun", opt,
			what);
	return -EINVAL;
}

static int battery_operands(struct workload_ctx *x, char **ops, int n)
{
	struct battery_cmd *b = x->cfg;
	struct stat st;

	if (n > 0) {
		err_msg("battery: unexpected operand: '%s': use -d DIR", ops[0]);
		return -EINVAL;
	}
	if (check_ranks(b) < 0)
		return -EINVAL;
	if (b->cleanup)
		return 0;
	if (check_times(b) < 0)
		return -EINVAL;
	if (stat(b->dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(b->dir, W_OK | X_OK) < 0) {
		err_msg("battery: not a writable directory: '%s'", b->dir);
		return -EINVAL;
	}
	if ((b->fs_size != FS_SIZE_UNSET || b->force_wipe) && !b->fs) {
		err_msg("battery: %s needs --fs", b->fs_size != FS_SIZE_UNSET ? "--fs-size" :
			"--force-wipe");
		return -EINVAL;
	}
	if (b->fs && check_fs_entries(b) < 0)
		return -EINVAL;
	if (b->device)
		return check_device(b);
	if (b->fs)
		return check_fs_size(b);
	return 0;
}

/* The matrix planned before the first image, mkfs or wipe (battery_fit): a run that
 * cannot hold a step is refused here, with nothing made or written. */
static int check_fit(struct battery_cmd *b)
{
	char why[600], sz[32];
	int r = battery_fit(&b->o, why, sizeof(why));

	if (r == 0)
		return 0;
	if (r == -ETIME)
		err_msg("battery: --budget too short for the file-system matrix: '%s': %s; "
			"nothing was made", b->budget, why);
	else if (b->device)
		err_msg("battery: nothing fits --destroy-data-on: '%s': %s; nothing was "
			"written to it", b->device, why);
	else
		err_msg("battery: nothing fits --fs-size: '%s': %s; nothing was made",
			units_fmt_bytes(sz, sizeof(sz), (double)b->o.fs_size), why);
	return r;
}

static int battery_validate(struct workload_ctx *x)
{
	struct battery_cmd *b = x->cfg;

	if (!b->cleanup && (x->eng->flags & ENGINE_F_NOIO)) {
		err_msg("battery: the %s engine moves no data: nothing to size: '%s'",
			x->eng->name, x->eng->name);
		return -EINVAL;
	}
	b->o.dir = b->dir;
	b->o.direct = b->direct;
	b->o.pg_local = b->pg_local;
	b->o.dry_run = b->dry_run;
	b->o.repeats = x->co->repeat;
	b->o.quiet = x->co->quiet || comm_rank() != 0;	/* rank 0 speaks for every rank */
	if (!b->cleanup && check_fit(b) < 0)
		return -EINVAL;
#ifndef HAVE_LIBPQ
	if (b->pg_local) {
		err_msg("battery: --pg-local needs libpq: this iobattery was built without libpq");
		return -EINVAL;
	}
#endif
	x->target = b->dir;
	return 0;
}

static void cleanup_said(void *arg, const char *what, const char *path, int err)
{
	(void)arg;
	if (err < 0)
		err_errno(err, "battery: --cleanup: cannot remove the %s: '%s'", what, path);
	else
		printf("removed %s: %s\n", what, path);
}

static int do_cleanup(struct battery_cmd *b)
{
	int n = fsmake_leftovers(b->dir, 1, cleanup_said, NULL);

	if (n < 0) {
		err_errno(n, "battery: --cleanup failed");
		return EXIT_FAILED;
	}
	if (n == 0)
		printf("nothing to clean up\n");
	return EXIT_OK;
}

static int battery_session(struct workload_ctx *x, char **ops, int n)
{
	struct battery_cmd *b = x->cfg;
	struct runner rc;
	int r;

	(void)ops;
	(void)n;
	if (b->cleanup)
		return do_cleanup(b);
	if (!b->dry_run)
		return x->drv->measure(x);
	memset(&rc, 0, sizeof(rc));
	rc.eng = x->eng;
	rc.run = run_new("battery");
	if (!rc.run)
		return EXIT_FAILED;
	r = battery_job_start(&b->job, &b->o, &rc);
	battery_job_finish(&b->job, NULL);
	run_free(rc.run);
	return r == 0 ? EXIT_OK : r == -EINTR ? EXIT_SIGNAL : EXIT_FAILED;
}

static int battery_setup(struct workload_ctx *x, struct runner *rc)
{
	struct battery_cmd *b = x->cfg;
	int r;

	b->started = 1;
	r = battery_job_start(&b->job, &b->o, rc);
	if (r == -EINTR)
		return EXIT_SIGNAL;
	return r < 0 ? EXIT_FAILED : 0;
}

static int battery_wl_run(struct workload_ctx *x, struct runner *rc)
{
	return battery_job_repeat(&((struct battery_cmd *)x->cfg)->job, rc);
}

static int battery_teardown(struct workload_ctx *x, struct run *run)
{
	struct battery_cmd *b = x->cfg;

	return b->started ? battery_job_finish(&b->job, run) : 0;
}

/* Every format as every workload writes it: the text formatter prints a battery's run
 * as the battery's tables (output/output.c), on stdout and in --output-dir alike; the
 * repeats block is part of them. */
static int battery_emit(struct workload_ctx *x, struct run *run)
{
	return x->drv->write(run, x->co, COMMON_OWN_REPEATS);
}

const struct workload workload_battery = {
	.name = "battery",
	.summary = "the whole 2005 mailing-list method in one run, across file systems",
	.synopsis = "[-d DIR] [--budget TIME] [--size auto|SIZE] [--fs LIST] [OPTION]...",
	.help = "\n"
		"Run the method of the 2005 mailing-list threads that compared systems for a\n"
		"database server, in its order - dd write (bs=1k and bs=1M, buffered and\n"
		"durable), dd read from the device, cp, the Bonnie++ set, iozone's matrix (a\n"
		"reduced grid), PostMark (set size 300 100000, scaled), the SQL script, the\n"
		"fsync test (pg_test_fsync's) - and a database's pattern as a fio job (8 KiB\n"
		"random reads at queue depth 1 and 32, random writes each made durable by\n"
		"fdatasync, a 70/30 mix; O_DIRECT on io_uring, libaio or psync, the first that\n"
		"runs here), and where the budget has a minute or more left, a sustained\n"
		"write until the rate falls (iobattery sustained), as one run with one\n"
		"result. A short probe and the budget size\n"
		"every step so that no figure is short and no read of the device comes from\n"
		"the page cache; what cannot be made trustworthy is skipped or left out, with\n"
		"the reason. --fs makes each file system on a loop device over a sparse file\n"
		"in DIR (root only) and compares them on this device.\n\n",
	.opts = battery_opt_table,
	.cfg_size = sizeof(struct battery_cmd),
	.init = battery_init,
	.operands = battery_operands,
	.validate = battery_validate,
	.session = battery_session,
	.setup = battery_setup,
	.run = battery_wl_run,
	.teardown = battery_teardown,
	.emit = battery_emit,
};
