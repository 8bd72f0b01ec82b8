/* workload_cmd.c - the one command-line driver of every workload in the table
 * (workload/workload.h): options, --help, validation, then each measurement with its run,
 * repeats, output, store and exit status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "cmd/ranks_cmd.h"
#include "cmd/sample_opts.h"
#include "comm/comm.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "runner/runner.h"
#include "workload/workload.h"

static void usage(const struct workload_ctx *x)
{
	const struct workload *w = x->w;

	printf("usage: iobattery %s %s\n%s", w->name, w->synopsis, w->help);
	if (!w->parse)
		opt_help(stdout, x->g, x->ng);
	ranks_cmd_help(stdout, w);
}

/* The exit status a measurement ends with, before writing: the rows' (130 interrupted,
 * 1 a row failed), else 130 or 1 when the run itself returned an error. */
static int measured_status(const struct run *run, int err, int teardown_err)
{
	int status = common_exit_status(run);

	if (err < 0 && status == EXIT_OK)
		status = err == -EINTR ? EXIT_SIGNAL : EXIT_FAILED;
	if (teardown_err < 0 && status == EXIT_OK)
		status = EXIT_FAILED;
	return status;
}

/* The repeats: rc->repeat counts them; stops at the first error. */
static int repeats(struct workload_ctx *x, struct runner *rc)
{
	const struct workload *w = x->w;
	int err = 0;

	for (rc->repeat = 0; rc->repeat < x->co->repeat && !err; rc->repeat++) {
		if (rc->repeat && w->next_repeat)
			err = w->next_repeat(x, rc);
		if (!err)
			err = w->run(x, rc);
	}
	return err;
}

int workload_cmd_measure(struct workload_ctx *x)
{
	const struct workload *w = x->w;
	struct runner rc;
	int err, terr, status, wrc, writer;

	memset(&rc, 0, sizeof(rc));
	rc.eng = x->eng;
	rc.progress = !x->co->quiet;
	rc.verify = vhook_cfg_on(&x->verify) ? &x->verify : NULL;
	rc.run = run_new(w->name);
	if (!rc.run || common_prepare_run(rc.run, x->co, x->argc, x->argv, x->g, x->ng,
					  x->target ? x->target : ".") < 0 ||
	    (w->record && w->record(x, rc.run) < 0) || ranks_cmd_prepare(&rc, x->co) < 0) {
		err_errno(-ENOMEM, "%s: cannot start the run", w->name);
		run_free(rc.run);
		return EXIT_FAILED;
	}
	status = w->setup ? w->setup(x, &rc) : 0;
	if (!status && sample_run_start(x->co, x->target ? x->target : ".", &rc) < 0)
		status = EXIT_FAILED;
	status = ranks_cmd_agree(status, EXIT_FAILED);	/* several ranks: all set up? */
	if (status) {
		sample_run_stop(&rc);	/* another rank failed after ours started */
		if (w->teardown)
			w->teardown(x, rc.run);
		run_free(rc.run);
		return sig_stop_requested() ? EXIT_SIGNAL : status;
	}
	err = repeats(x, &rc);
	sample_run_stop(&rc);
	terr = w->teardown ? w->teardown(x, rc.run) : 0;
	writer = ranks_cmd_finish(&rc);		/* several ranks: merged on rank 0 */
	ranks_cmd_sweep(x->target);	/* a rank that died left its scratch directory */
	if (writer && comm_multi() && w->merged)
		w->merged(x, rc.run);
	if (err == -EINTR || sig_stop_requested())
		rc.run->flags |= RUN_INCOMPLETE;
	status = ranks_cmd_status(measured_status(rc.run, err, terr));
	rc.run->status = status;
	if (w->report)
		w->report(x, rc.run, err, status);
	/* a run without a row measured nothing: nothing to write or keep */
	if (writer && rc.run->nrows) {
		common_mark(rc.run, x->co, x);
		wrc = w->emit ? w->emit(x, rc.run) : common_write(rc.run, x->co, 0);
		if (wrc < 0 && status == EXIT_OK)
			status = EXIT_FAILED;
		common_store(rc.run, x->co);
	}
	run_free(rc.run);
	return ranks_cmd_status(sig_stop_requested() ? EXIT_SIGNAL : status);
}

/* Options and operands into x; returns 0, or the exit status to leave with (-1: --help
 * printed, exit 0). */
static int parse(struct workload_ctx *x, char ***ops, int *nops)
{
	const struct workload *w = x->w;
	int n;

	if (w->parse) {
		n = w->parse(x, x->argc, x->argv, ops);
	} else {
		if (w->opts)
			x->g[x->ng++] = (struct opt_group){ w->opts, x->cfg };
		x->g[x->ng++] = (struct opt_group){ common_opt_table, x->co };
		if (w->flags & WORKLOAD_F_VERIFY)
			x->g[x->ng++] = (struct opt_group){ vhook_opt_table, &x->verify };
		n = opt_parse(x->g, x->ng, x->argc, x->argv, ops);
	}
	if (n == -ECANCELED) {
		usage(x);
		return -1;
	}
	if (n < 0)
		return EXIT_USAGE;
	*nops = n;
	if (w->operands ? w->operands(x, *ops, n) < 0 : n > 0) {
		if (!w->operands)
			err_msg("%s: unexpected operand: '%s'", w->name, (*ops)[0]);
		return EXIT_USAGE;
	}
	if (common_validate(x->co, &x->eng) < 0 ||
	    ((w->flags & WORKLOAD_F_VERIFY) &&
	     vhook_cfg_check(&x->verify, x->eng, x->co->repeat, w->name) < 0) ||
	    (w->validate && w->validate(x) < 0))
		return sig_stop_requested() ? EXIT_SIGNAL : EXIT_USAGE;
	return 0;
}

/* What the hooks of a workload may call back (workload.h: a workload never includes cmd/) */
static const struct workload_driver driver = {
	.measure = workload_cmd_measure,
	.write = common_write,
	.write_series = sample_write_series,
};

int workload_cmd(const struct workload *w, int argc, char **argv)
{
	struct common_opts co;
	struct workload_ctx x;
	char **ops = NULL, **pargv;
	int n = 0, status, pargc = argc;

	memset(&x, 0, sizeof(x));
	x.w = w;
	x.drv = &driver;
	x.co = &co;
	x.argc = argc;
	x.argv = argv;
	x.cfg = calloc(1, w->cfg_size ? w->cfg_size : 1);
	if (!x.cfg) {
		err_errno(-ENOMEM, "%s: cannot start", w->name);
		return EXIT_FAILED;
	}
	common_init(&co);
	if (w->init)
		w->init(x.cfg);
	/* the multi-rank options leave a copy of argv that the workload parses; the run
	 * records the command as typed */
	pargv = calloc((size_t)argc + 1, sizeof(*pargv));
	if (!pargv) {
		free(x.cfg);
		err_errno(-ENOMEM, "%s: cannot start", w->name);
		return EXIT_FAILED;
	}
	memcpy(pargv, argv, (size_t)argc * sizeof(*pargv));
	status = ranks_cmd_args(w, &pargc, pargv, &co);
	x.argc = pargc;
	x.argv = pargv;
	if (!status)
		status = parse(&x, &ops, &n);
	x.argc = argc;
	x.argv = argv;
	status = ranks_cmd_agree(status, EXIT_USAGE);	/* several ranks: all valid? */
	if (status < 0)
		status = EXIT_OK;
	else if (status == 0)
		status = w->session ? w->session(&x, ops, n) : workload_cmd_measure(&x);
	ranks_cmd_sweep(x.target);	/* also after a run that stopped before measuring */
	free(ops);
	free(pargv);
	if (w->done)
		w->done(x.cfg);
	free(x.cfg);
	return status;
}
