/* main.c - the subcommand table and dispatch; nothing else. The commands are the quick
 * battery (run), every workload of the workload table, and the commands over results.
 * With no command it prints the usage and exits 2: a benchmark that writes gigabytes
 * must be asked for by name. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cmd/cmd.h"
#include "comm/comm.h"
#include "core/err.h"
#include "core/features.h"
#include "fs/scratch.h"
#include "workload/workload.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* The quick job, listed first. */
static const struct subcommand run_cmd = {
	"run", cmd_run, "the quick battery on a scratch directory (about 2 minutes)"
};

/* The commands over results, listed after the workloads. */
static const struct subcommand commands[] = {
	{ "compare", cmd_compare, "compare runs figure by figure, with confidence intervals" },
	{ "import", cmd_import, "read old bonnie++, postmark, dd and time outputs into runs" },
	{ "report", cmd_report, "write one self-contained HTML report of result files or ids" },
	{ "results", cmd_results, "list, show, export or delete runs in the results store" },
	{ "verify", cmd_verify, "check files written with --verify, block by block" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct workload *const *w;
	const struct subcommand *c;

	fprintf(f, "usage: iobattery COMMAND [ARGS...]\n"
		   "       iobattery COMMAND --help\n\ncommands:\n");
	fprintf(f, "  %-10s %s\n", run_cmd.name, run_cmd.summary);
	for (w = workload_table; *w; w++)
		fprintf(f, "  %-10s %s\n", (*w)->name, (*w)->summary);
	for (c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nStart with 'iobattery run' (the quick battery in a scratch directory of\n"
		   "the current directory). See iobattery(1).\n");
}

/* The command named by argv[1]. */
static int dispatch(int argc, char **argv)
{
	const struct subcommand *c;
	const struct workload *w;

	if (!strcmp(argv[1], run_cmd.name))
		return run_cmd.fn(argc - 1, argv + 1);
	w = workload_find(argv[1]);
	if (w)
		return workload_cmd(w, argc - 1, argv + 1);
	if (comm_multi()) {
		err_msg("not a measurement: '%s': run it without mpirun", argv[1]);
		return EXIT_USAGE;
	}
	for (c = commands; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			return c->fn(argc - 1, argv + 1);
	err_msg("unknown command: '%s': see 'iobattery --help'", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int rc;

	/* under mpirun: join the other ranks (or refuse to run as unrelated copies), every
	 * command alike, so that each rank's command is compared before any runs */
	rc = comm_init(&argc, &argv);
	if (rc)
		return rc;
	if (argc < 2) {
		usage(stderr);
		return comm_finish(EXIT_USAGE);
	}
	if ((!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "help"))) {
		usage(stdout);
		return comm_finish(0);
	}
	if (!strcmp(argv[1], "--version"))
		return comm_finish(features_print(stdout) < 0 || fflush(stdout) != 0 ?
				   EXIT_FAILED : 0);
	rc = sig_install();
	if (rc < 0) {
		err_errno(rc, "cannot install signal handlers");
		return comm_finish(EXIT_FAILED);
	}
	return comm_finish(dispatch(argc, argv));
}
