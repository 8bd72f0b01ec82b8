/* postmark_cmd.c - "iobattery postmark [SCRIPT]": PostMark's command language at a "pm>"
 * prompt (stdin a terminal), from stdin (piped) or from a script file. Each "run" is one
 * measurement of the postmark workload (workload/postmark/) through the driver
 * (cmd/workload_cmd.c), which this file's descriptor describes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "core/err.h"
#include "core/rfile.h"
#include "fs/scratch.h"
#include "engine/engine.h"
#include "output/output.h"
#include "stats/result.h"
#include "workload/postmark/postmark.h"
#include "runner/runner.h"
#include "workload/workload.h"

#define PM_MAX_DEPTH 8		/* nested "load" */

/* The config the driver allocates: the settings and the session. */
struct session {
	struct pm_config cfg;
	struct workload_ctx *x;
	const char *report_file;	/* the current run's "run FILE", or NULL */
	int status;		/* worst exit status so far */
	int stop;		/* quit, or a fatal status */
};

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

static int pm_record(struct workload_ctx *x, struct run *run)
{
	return pm_config_record(&((struct session *)x->cfg)->cfg, &run->options);
}

static int pm_setup(struct workload_ctx *x, struct runner *rc)
{
	(void)x;
	rc->progress = 0;		/* PostMark's own dots instead */
	return 0;
}

/* --repeat N: N PostMark runs in one result, rows told apart by repeat */
static int pm_run(struct workload_ctx *x, struct runner *rc)
{
	const struct common_opts *co = x->co;
	int to_stdout = !co->quiet && (co->output_dir || !strcmp(co->format, "text"));

	return postmark_run(rc, &((struct session *)x->cfg)->cfg, to_stdout ? stdout : NULL);
}

static void pm_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	const struct row *total = find_row(run, "total");

	(void)x;
	(void)status;
	if (err >= 0 || err == -EINTR)
		return;
	if (total && total->error)
		err_msg("postmark run failed: %s", total->error);
	else
		err_errno(err, "postmark run failed");
}

static int pm_emit(struct workload_ctx *x, struct run *run)
{
	const struct session *s = x->cfg;

	if (s->report_file)
		report_to_file(run, s->report_file);
	return x->drv->write(run, x->co, 0);
}

static int do_run(struct session *s, const char *report_file)
{
	s->report_file = report_file;
	s->x->target = s->cfg.nlocs ? s->cfg.locs[0].path : ".";
	return s->x->drv->measure(s->x);
}
static int run_stream(struct session *s, FILE *in, const char *name, int interactive,
		      int depth);

/* A script file: a regular file only (a directory is no script, a FIFO would block the
 * open). NULL after the message. */
static FILE *open_script(const char *path)
{
	int fd = rfile_open(path, RFILE_PIPES);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (fd < 0)
		err_msg("cannot open script: '%s': %s", path, rfile_strerror(fd));
	else if (!f) {
		err_errno(-errno, "cannot open script: '%s'", path);
		close(fd);
	}
	return f;
}

static int do_load(struct session *s, const char *path, int depth)
{
	FILE *f;
	int r;

	if (depth >= PM_MAX_DEPTH) {
		err_msg("load: too deeply nested: '%s'", path);
		return EXIT_USAGE;
	}
	f = open_script(path);
	if (!f)
		return EXIT_USAGE;
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
	ssize_t len;
	int st;

	while (!s->stop) {
		if (interactive) {
			fputs("pm>", stdout);
			fflush(stdout);
		}
		errno = 0;
		len = getline(&line, &cap, in);
		if (len < 0) {
			/* the end, or a read error: that one must not pass for the end */
			if (ferror(in)) {
				err_errno(errno ? -errno : -EIO, "postmark: cannot read: '%s' "
					  "after line %u", name, lineno);
				s->status = EXIT_FAILED;
			}
			break;
		}
		lineno++;
		if (strlen(line) != (size_t)len) {
			err_msg("postmark: %s:%u: a NUL byte in the line", name, lineno);
			st = EXIT_USAGE;
		} else {
			st = do_line(s, line, name, lineno, interactive, depth);
		}
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

static void pm_init(void *cfg)
{
	pm_config_init(&((struct session *)cfg)->cfg);
}

static void pm_done(void *cfg)
{
	pm_config_free(&((struct session *)cfg)->cfg);
}

static int pm_operands(struct workload_ctx *x, char **ops, int n)
{
	(void)x;
	if (n > 1) {
		err_msg("postmark: too many operands: '%s': give at most one script", ops[1]);
		return -EINVAL;
	}
	return 0;
}

static int pm_validate(struct workload_ctx *x)
{
	if (x->eng->flags & ENGINE_F_ASYNC) {
		err_msg("postmark: engine not supported: '%s': it needs a synchronous engine",
			x->eng->name);
		return -EINVAL;
	}
	return 0;
}

static int pm_session(struct workload_ctx *x, char **ops, int n)
{
	struct session *s = x->cfg;
	FILE *in = stdin;
	int interactive, st;

	s->x = x;
	if (n == 1) {
		in = open_script(ops[0]);
		if (!in)
			return EXIT_USAGE;
	}
	interactive = n == 0 && isatty(STDIN_FILENO);
	if (interactive)
		printf("iobattery postmark: PostMark's commands ('help' lists them)\n");
	st = run_stream(s, in, n == 1 ? ops[0] : "stdin", interactive, 0);
	if (in != stdin)
		fclose(in);
	return st;
}

const struct workload workload_postmark = {
	.name = "postmark",
	.summary = "PostMark small-file transactions, with its commands",
	.synopsis = "[OPTIONS] [SCRIPT]",
	.help = "\n"
		"PostMark's small-file transaction benchmark with PostMark's commands:\n"
		"typed at a pm> prompt, piped on stdin, or read from SCRIPT. 'help' at the\n"
		"prompt lists them (set size, set number, set transactions, set location,\n"
		"set seed, set subdirectories, set read, set write, set buffering,\n"
		"set bias read, set bias create, set report, set fsync, set direct, show,\n"
		"run, load, quit). The same seed and settings give the same operation\n"
		"counts as PostMark 1.51. Files are made in a scratch directory inside each\n"
		"location and removed at the end, on error and on SIGINT.\n\noptions:\n",
	.cfg_size = sizeof(struct session),
	.ranks = WL_RANKS_SHARED_DIR,
	.flags = WORKLOAD_F_VERIFY,
	.init = pm_init,
	.operands = pm_operands,
	.validate = pm_validate,
	.session = pm_session,
	.record = pm_record,
	.setup = pm_setup,
	.run = pm_run,
	.report = pm_report,
	.emit = pm_emit,
	.done = pm_done,
};
