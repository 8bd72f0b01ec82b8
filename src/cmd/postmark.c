/* postmark.c - "iobattery postmark [SCRIPT]": PostMark's command language at a "pm>"
 * prompt (stdin a terminal), from stdin (piped) or from a script file. Each "run" measures
 * one PostMark run (workload/postmark.c) and writes it through the common formatters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/err.h"
#include "core/scratch.h"
#include "engine/engine.h"
#include "output/output.h"
#include "stats/result.h"
#include "workload/postmark/postmark.h"
#include "runner/runner.h"

#define PM_MAX_DEPTH 8		/* nested "load" */

struct session {
	struct pm_config cfg;
	struct common_opts co;
	const struct engine *eng;
	struct opt_group *g;
	int argc;
	char **argv;
	unsigned runs;
	int status;		/* worst exit status so far */
	int stop;		/* quit, or a fatal status */
};

static void usage(FILE *f, struct opt_group *g)
{
	fprintf(f, "usage: iobattery postmark [OPTIONS] [SCRIPT]\n\n"
		   "PostMark's small-file transaction benchmark with PostMark's commands:\n"
		   "typed at a pm> prompt, piped on stdin, or read from SCRIPT. 'help' at the\n"
		   "prompt lists them (set size, set number, set transactions, set location,\n"
		   "set seed, set subdirectories, set read, set write, set buffering,\n"
		   "set bias read, set bias create, set report, set fsync, set direct, show,\n"
		   "run, load, quit). The same seed and settings give the same operation\n"
		   "counts as PostMark 1.51. Files are made in a scratch directory inside each\n"
		   "location and removed at the end, on error and on SIGINT.\n\noptions:\n");
	opt_help(f, g, 1);
}

static const struct row *find_row(const struct run *run, const char *phase)
{
	size_t i;

	for (i = run->nrows; i > 0; i--)	/* the last one: the run that stopped */
		if (!strcmp(run->rows[i - 1]->phase, phase))
			return run->rows[i - 1];
	return NULL;
}

static int report_to_file(const struct run *run, const char *path)
{
	const struct out_fmt *fmt = out_find("text");
	FILE *f = fopen(path, "a");
	int r;

	if (!f) {
		err_errno(-errno, "cannot open report file: '%s'", path);
		return -EIO;
	}
	r = fmt ? out_write(fmt, f, run) : -ENOSYS;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r < 0)
		err_errno(r, "cannot write report file: '%s'", path);
	return r;
}

static int do_run(struct session *s, const char *report_file)
{
	const char *target = s->cfg.nlocs ? s->cfg.locs[0].path : ".";
	int to_stdout = !s->co.quiet && (s->co.output_dir || !strcmp(s->co.format, "text"));
	struct runner rc;
	struct run *run;
	const struct row *total;
	unsigned rep;
	int e, st;

	run = run_new("postmark");
	if (!run) {
		err_msg("cannot start a run: out of memory");
		return EXIT_FAILED;
	}
	if (common_prepare_run(run, &s->co, s->argc, s->argv, s->g, 1, target) < 0 ||
	    pm_config_record(&s->cfg, &run->options) < 0) {
		err_msg("cannot start a run: out of memory");
		run_free(run);
		return EXIT_FAILED;
	}
	memset(&rc, 0, sizeof(rc));
	rc.run = run;
	rc.eng = s->eng;
	rc.progress = 0;		/* PostMark's own dots instead */
	s->runs++;
	/* --repeat N: N PostMark runs in one result, rows told apart by repeat */
	for (rep = 0, e = 0; rep < (s->co.repeat ? s->co.repeat : 1) && e == 0; rep++) {
		rc.repeat = rep;
		e = postmark_run(&rc, &s->cfg, to_stdout ? stdout : NULL);
	}
	if (e == -EINTR)
		run->flags |= RUN_INCOMPLETE;
	total = find_row(run, "total");
	if (e < 0 && e != -EINTR) {
		if (total && total->error)
			err_msg("postmark run failed: %s", total->error);
		else
			err_errno(e, "postmark run failed");
	}
	if (report_file)
		report_to_file(run, report_file);
	st = common_emit(run, &s->co) < 0 ? EXIT_FAILED : 0;
	if (common_exit_status(run) > st)
		st = common_exit_status(run);
	if (e == -EINTR)
		st = EXIT_SIGNAL;
	else if (e < 0 && st == 0)
		st = EXIT_FAILED;
	run_free(run);
	return st;
}

static int run_stream(struct session *s, FILE *in, const char *name, int interactive,
		      int depth);

static int do_load(struct session *s, const char *path, int depth)
{
	FILE *f;
	int r;

	if (depth >= PM_MAX_DEPTH) {
		err_msg("load: too deeply nested: '%s'", path);
		return EXIT_USAGE;
	}
	f = fopen(path, "r");
	if (!f) {
		err_errno(-errno, "cannot open script: '%s'", path);
		return EXIT_USAGE;
	}
	r = run_stream(s, f, path, 0, depth + 1);
	fclose(f);
	return r;
}

/* One line; returns the exit status it calls for (0 to carry on). */
static int do_line(struct session *s, const char *line, const char *name, unsigned lineno,
		   int interactive, int depth)
{
	char err[512], *arg = NULL;
	int act, st = 0;

	act = pm_exec(&s->cfg, line, stdout, &arg, err, sizeof(err));
	if (act < 0) {
		if (interactive) {
			fprintf(stderr, IOB_NAME ": postmark: %s\n", err);
			return 0;
		}
		err_msg("postmark: %s:%u: %s", name, lineno, err);
		return EXIT_USAGE;
	}
	switch (act) {
	case PM_ACT_RUN:
		st = do_run(s, arg);
		break;
	case PM_ACT_LOAD:
		st = do_load(s, arg, depth);
		break;
	case PM_ACT_QUIT:
		s->stop = 1;
		break;
	default:
		break;
	}
	free(arg);
	fflush(stdout);
	return st;
}

static int run_stream(struct session *s, FILE *in, const char *name, int interactive,
		      int depth)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int st;

	while (!s->stop) {
		if (interactive) {
			fputs("pm>", stdout);
			fflush(stdout);
		}
		if (getline(&line, &cap, in) < 0)
			break;
		lineno++;
		st = do_line(s, line, name, lineno, interactive, depth);
		if (st > s->status)
			s->status = st;
		/* A script stops at its first bad line or failed run; the prompt goes on
		 * unless interrupted. */
		if (st == EXIT_SIGNAL || (st && !interactive))
			s->stop = 1;
		if (sig_stop_requested() && !interactive)
			s->stop = 1;
	}
	if (interactive && !s->stop)
		fputc('\n', stdout);
	free(line);
	return s->status;
}

int cmd_postmark(int argc, char **argv)
{
	struct session s;
	struct opt_group g[1];
	char **ops = NULL;
	FILE *in = stdin;
	int n, interactive, st;

	memset(&s, 0, sizeof(s));
	common_init(&s.co);
	g[0].opts = common_opt_table;
	g[0].base = &s.co;
	s.g = g;
	s.argc = argc;
	s.argv = argv;
	n = opt_parse(g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		usage(stdout, g);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (n > 1) {
		err_msg("postmark: too many operands: '%s': give at most one script", ops[1]);
		free(ops);
		return EXIT_USAGE;
	}
	if (common_validate(&s.co, &s.eng) < 0) {
		free(ops);
		return EXIT_USAGE;
	}
	if (s.eng && (s.eng->flags & ENGINE_F_ASYNC)) {
		err_msg("postmark: engine not supported: '%s': it needs a synchronous engine",
			s.eng->name);
		free(ops);
		return EXIT_USAGE;
	}
	if (!s.eng)
		s.eng = engine_find("psync");
	pm_config_init(&s.cfg);
	if (n == 1) {
		in = fopen(ops[0], "r");
		if (!in) {
			err_errno(-errno, "cannot open script: '%s'", ops[0]);
			free(ops);
			return EXIT_USAGE;
		}
	}
	interactive = n == 0 && isatty(STDIN_FILENO);
	if (interactive)
		printf("iobattery postmark: PostMark's commands ('help' lists them)\n");
	st = run_stream(&s, in, n == 1 ? ops[0] : "stdin", interactive, 0);
	if (in != stdin)
		fclose(in);
	pm_config_free(&s.cfg);
	free(ops);
	return st;
}
