/* run.c - `iobattery run`: the default job, the battery (workload/battery/battery.h)
 * with a small budget on the target's own file system. Every step runs in one fresh
 * scratch directory under --dir (default: the current directory), which is removed at
 * the end; the battery's table goes to stdout, the results to iobattery-results.json
 * and, unless --no-store, to the results store. --size sizes the data files by hand
 * (the quick battery's counts for the rest): figures may then be short, and are flagged. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "cmd/sample_opts.h"
#include "core/err.h"
#include "core/scratch.h"
#include "core/units.h"
#include "output/battery_out.h"
#include "output/output.h"
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

/* The battery with the run's options: a small budget, the target's own file system; the
 * samplers run from after the probe to the end of the steps, as for every workload. */
static int run_battery(struct runner *rc, struct battery_opts *bo,
		       const struct common_opts *co)
{
	struct battery_job j;
	int err = battery_job_start(&j, bo, rc);

	if (!err && sample_run_start(co, bo->dir, rc) < 0)
		err = -EIO;
	for (rc->repeat = 0; rc->repeat < co->repeat && !err; rc->repeat++)
		err = battery_job_repeat(&j, rc);
	sample_run_stop(rc);
	if (battery_job_finish(&j, rc->run) < 0 && !err)
		err = -EIO;
	return err;
}

int cmd_run(int argc, char **argv)
{
	struct common_opts co;
	struct run_opts o = { ".", UINT64_MAX, "2m", 0 };
	struct battery_opts bo;
	struct opt_group g[2];
	struct runner rc = { 0 };
	char **ops = NULL;
	int n, err = 0, status, wrc;

	common_init(&co);
	g[0] = (struct opt_group){ run_opt_table, &o };
	g[1] = (struct opt_group){ common_opt_table, &co };
	n = opt_parse(g, 2, argc, argv, &ops);
	if (n == -ECANCELED) {
		printf("usage: iobattery run [OPTION]...\n"
		       "Run the battery (dd write and read, cp, bonnie, iozone, postmark, the SQL\n"
		       "script, the fsync test, a database's pattern as a fio job) in a scratch\n"
		       "directory, sized so that it takes about the budget and every figure it\n"
		       "shows can be trusted; what cannot be is left out, with the reason.\n"
		       "'iobattery battery' is its full form.\n\n"
		       "options:\n");
		opt_help(stdout, g, 2);
		return EXIT_OK;
	}
	free(ops);
	if (n < 0)
		return EXIT_USAGE;
	if (n > 0) {
		err_msg("run: unexpected operand: use --dir DIR");
		return EXIT_USAGE;
	}
	memset(&bo, 0, sizeof(bo));
	if (o.size == UINT64_MAX) {
		o.size = 0;	/* not given: planned */
	} else if (o.size < (1u << 20)) {
		err_msg("run: bad --size: at least 1m (the dd and cp file; default: planned)");
		return EXIT_USAGE;
	}
	if (battery_parse_budget(o.budget, &bo.budget_ns) < 0) {
		err_msg("run: bad --budget: '%s': a duration with its unit: 90s, 2m", o.budget);
		return EXIT_USAGE;
	}
	if (common_validate(&co, &rc.eng))
		return EXIT_USAGE;
	if (access(o.dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "run: cannot make a scratch directory in: '%s'", o.dir);
		return EXIT_USAGE;
	}
	bo.dir = o.dir;
	bo.size = o.size;
	bo.repeats = co.repeat;
	bo.quiet = co.quiet || co.watch;	/* --watch: the live view owns the terminal */
	rc.progress = !co.quiet;
	rc.run = run_new("run");
	if (!rc.run || common_prepare_run(rc.run, &co, argc, argv, g, 2, o.dir)) {
		err_msg("run: out of memory");
		run_free(rc.run);
		return EXIT_FAILED;
	}
	err = run_battery(&rc, &bo, &co);
	common_mark(rc.run, &co);
	if (!strcmp(co.format, "text") && !co.output_dir) {
		wrc = out_battery_text(stdout, rc.run);
		if (wrc == 0 && fflush(stdout) != 0)
			wrc = -errno;
		if (wrc < 0)
			err_errno(wrc, "cannot write results to standard output");
	} else {
		wrc = common_write(rc.run, &co, 0);
	}
	common_store(rc.run, &co);
	if (!o.no_json && write_json(rc.run, co.output_dir) < 0 && wrc == 0)
		wrc = -EIO;
	status = common_exit_status(rc.run);
	/* results that could not be written are a failed run, whatever the figures */
	if (wrc < 0 && status == EXIT_OK)
		status = EXIT_FAILED;
	if (err && err != -EINTR && status == EXIT_OK)
		status = EXIT_FAILED;
	if (err == -EINTR || sig_stop_requested())
		status = EXIT_SIGNAL;
	run_free(rc.run);
	return status;
}
