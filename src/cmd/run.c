/* run.c - `iobattery run`: the quick battery, the default job. Every step runs in one
 * fresh scratch directory under --dir (default: the current directory), which is removed
 * at the end; a table goes to stdout, the results to iobattery-results.json and, unless
 * --no-store, to the results store. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "cmd/sample_opts.h"
#include "core/err.h"
#include "core/scratch.h"
#include "core/units.h"
#include "output/output.h"
#include "stats/result.h"
#include "runner/runner.h"
#include "workload/workload.h"

struct run_opts {
	const char *dir;
	uint64_t size;
	int no_json;
};

static const struct opt run_opt_table[] = {
	{ "dir", 'd', OPT_STR, offsetof(struct run_opts, dir), "DIR",
	  "directory to test (a scratch directory is made inside; default .)" },
	{ "size", 's', OPT_SIZE, offsetof(struct run_opts, size), "SIZE",
	  "bytes per data file (default 512m)" },
	{ "no-json", 0, OPT_FLAG, offsetof(struct run_opts, no_json), NULL,
	  "do not write iobattery-results.json" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

/* Run every workload's quick step, in the workload table's order (the seeds'). */
static int run_steps(struct runner *rc, const char *dir, int quiet)
{
	const struct workload *const *w;
	int err = 0;

	for (w = workload_table; *w && !err; w++) {
		if (!(*w)->quick)
			continue;
		if (!quiet)
			fprintf(stderr, "iobattery: running %s\n", (*w)->name);
		err = (*w)->quick(rc, dir);
	}
	return err;
}

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

int cmd_run(int argc, char **argv)
{
	struct common_opts co;
	struct run_opts o = { ".", 512ull << 20, 0 };
	struct opt_group g[2];
	struct runner rc = { 0 };
	struct scratch *s = NULL;
	char **ops = NULL;
	int n, err = 0, status, wrc;

	common_init(&co);
	g[0] = (struct opt_group){ run_opt_table, &o };
	g[1] = (struct opt_group){ common_opt_table, &co };
	n = opt_parse(g, 2, argc, argv, &ops);
	if (n == -ECANCELED) {
		printf("usage: iobattery run [OPTION]...\n"
		       "Run the quick battery (dd write and read, cp, ...) in a scratch "
		       "directory.\n\n"
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
	if (o.size < (1u << 20)) {
		err_msg("run: bad --size: at least 1m (the dd and cp file; 512m by default)");
		return EXIT_USAGE;
	}
	if (common_validate(&co, &rc.eng))
		return EXIT_USAGE;
	err = scratch_create(o.dir, &s);
	if (err) {
		err_errno(err, "run: cannot make a scratch directory in: '%s'", o.dir);
		return EXIT_USAGE;
	}
	rc.progress = !co.quiet;
	rc.size_hint = o.size;
	rc.run = run_new("run");
	if (!rc.run || common_prepare_run(rc.run, &co, argc, argv, g, 2, scratch_dir(s))) {
		err_msg("run: out of memory");
		scratch_destroy(s);
		run_free(rc.run);
		return EXIT_FAILED;
	}
	if (sample_run_start(&co, scratch_dir(s), &rc) < 0)
		err = -EIO;
	for (rc.repeat = 0; rc.repeat < co.repeat && !err; rc.repeat++)
		err = run_steps(&rc, scratch_dir(s), co.quiet || co.watch);
	sample_run_stop(&rc);
	scratch_destroy(s);
	common_mark(rc.run, &co);
	if (!strcmp(co.format, "text") && !co.output_dir) {
		wrc = out_text_table(stdout, rc.run);
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
	if (err && err != -EINTR)
		err_errno(err, "run: a step failed");
	run_free(rc.run);
	return status;
}
