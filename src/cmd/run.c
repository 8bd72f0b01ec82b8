/* run.c - `iobattery run`: the default job, the battery (workload/battery/battery.h)
 * with a small budget on the target's own file system. Every step runs in one fresh
 * scratch directory under --dir (default: the current directory), which is removed at
 * the end; the battery's table goes to stdout, the results to iobattery-results.json
 * and, unless --no-store, to the results store. --size sizes the data files by hand
 * (the quick battery's counts for the rest): figures may then be short, and are flagged.
 * Under mpirun every rank runs it as `iobattery battery` does (rank 0 probes and plans;
 * one merged result, written by rank 0). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "comm/comm.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "output/battery_out.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "runner/runner.h"
#include "workload/battery/battery.h"
#include "workload/workload.h"

struct run_opts {
	const char *dir;
	uint64_t size;
	const char *budget;
	int no_json;
};

struct run_cmd {
	struct run_opts o;		/* first: the option table's offsets are into it */
	struct battery_opts bo;
	struct battery_job job;
	int started;
};

static const struct opt run_opt_table[] = {
	{ "dir", 'd', OPT_STR, offsetof(struct run_opts, dir), "DIR",
	  "directory to test (a scratch directory is made inside; default .)" },
	{ "budget", 0, OPT_STR, offsetof(struct run_opts, budget), "TIME",
	  "how long it may take: 90s, 2m (default 2m); the sizes follow from it" },
	{ "size", 's', OPT_SIZE, offsetof(struct run_opts, size), "SIZE",
	  "bytes per data file, by hand (default: planned from the budget)" },
	{ "no-json", 0, OPT_FLAG, offsetof(struct run_opts, no_json), NULL,
	  "do not write iobattery-results.json" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static int write_json(const struct run *run, const char *dir)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/iobattery-results.json", dir ? dir : ".");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		err_errno(-errno, "cannot write results: '%s'", tmp);
		return -errno;
	}
	rc = out_write(&out_json, f, run);
	if (fclose(f) != 0 && !rc)
		rc = -EIO;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc) {
		remove(tmp);
		err_errno(rc, "cannot write results: '%s'", path);
		return rc;
	}
	printf("results: %s\n", path);
	return 0;
}

/* --dir, --budget and --size; nothing may be created yet. 0 or -EINVAL. */
static int run_operands(struct workload_ctx *x, char **ops, int n)
{
	struct run_cmd *r = x->cfg;

	(void)ops;
	if (n > 0) {
		err_msg("run: unexpected operand: use --dir DIR");
		return -EINVAL;
	}
	if (r->o.size == UINT64_MAX) {
		r->o.size = 0;	/* not given: planned */
	} else if (r->o.size < (1u << 20)) {
		err_msg("run: bad --size: at least 1m (the dd and cp file; default: planned)");
		return -EINVAL;
	}
	if (battery_parse_budget(r->o.budget, &r->bo.budget_ns) < 0) {
		err_msg("run: bad --budget: '%s': a duration with its unit: 90s, 2m", r->o.budget);
		return -EINVAL;
	}
	if (access(r->o.dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "run: cannot make a scratch directory in: '%s'", r->o.dir);
		return -EINVAL;
	}
	return 0;
}

static int run_validate(struct workload_ctx *x)
{
	struct run_cmd *r = x->cfg;

	r->bo.dir = r->o.dir;
	r->bo.size = r->o.size;
	r->bo.repeats = x->co->repeat;
	/* --watch: the live view owns the terminal; several ranks: rank 0 speaks */
	r->bo.quiet = x->co->quiet || x->co->watch || comm_rank() != 0;
	x->target = r->o.dir;
	return 0;
}

static int run_setup(struct workload_ctx *x, struct runner *rc)
{
	struct run_cmd *r = x->cfg;
	int err;

	r->started = 1;
	err = battery_job_start(&r->job, &r->bo, rc);
	if (err == -EINTR)
		return EXIT_SIGNAL;
	return err < 0 ? EXIT_FAILED : 0;
}

static int run_wl_run(struct workload_ctx *x, struct runner *rc)
{
	return battery_job_repeat(&((struct run_cmd *)x->cfg)->job, rc);
}

static int run_teardown(struct workload_ctx *x, struct run *run)
{
	struct run_cmd *r = x->cfg;

	return r->started ? battery_job_finish(&r->job, run) : 0;
}

/* The battery's table (and, of several ranks, theirs) on stdout, or the formats asked
 * for; then iobattery-results.json unless --no-json. 0 or -errno. */
static int run_emit(struct workload_ctx *x, struct run *run)
{
	struct run_cmd *r = x->cfg;
	int wrc;

	/* the text formatter prints a battery's run as the battery's tables */
	wrc = common_write(run, x->co, COMMON_OWN_REPEATS);
	if (!r->o.no_json && write_json(run, x->co->output_dir) < 0 && wrc == 0)
		wrc = -EIO;
	return wrc;
}

static void run_init(void *cfg)
{
	struct run_cmd *r = cfg;

	r->o.dir = ".";
	r->o.size = UINT64_MAX;
	r->o.budget = "2m";
}

/* Not in the workload table (not a step of itself): main.c lists it first and drives it
 * through workload_cmd, so that it runs under mpirun as the battery does. */
static const struct workload workload_run = {
	.name = "run",
	.summary = "the quick battery on a scratch directory (the default job)",
	.synopsis = "[OPTION]...",
	.help = "Run the battery (dd write and read, cp, bonnie, iozone, postmark, the SQL\n"
		"script, the fsync test, a database's pattern as a fio job) in a scratch\n"
		"directory, sized so that it takes about the budget and every figure it\n"
		"shows can be trusted; what cannot be is left out, with the reason.\n"
		"'iobattery battery' is its full form.\n\n"
		"options:\n",
	.opts = run_opt_table,
	.cfg_size = sizeof(struct run_cmd),
	.init = run_init,
	.operands = run_operands,
	.validate = run_validate,
	.setup = run_setup,
	.run = run_wl_run,
	.teardown = run_teardown,
	.emit = run_emit,
};

int cmd_run(int argc, char **argv)
{
	return workload_cmd(&workload_run, argc, argv);
}
