/* ranks_cmd.c - the workload driver's part of a multi-rank run: options, agreement at
 * the driver's steps, the merge and who writes. See ranks_cmd.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/common.h"
#include "cmd/ranks_cmd.h"
#include "comm/comm.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/workload.h"

static const struct {
	const char *name;
	unsigned cap;
	const char *help;
} ranks_opts[] = {
	{ "stonewall", WL_RANKS_STONEWALL,
	  "  --stonewall S    stop every rank's phase after S seconds (IOR's -D)\n" },
	{ "wearout", WL_RANKS_WEAROUT,
	  "  --wearout        after the wall, every rank does as much as the busiest\n" },
	{ "shared-file", WL_RANKS_SHARED_FILE,
	  "  --shared-file    one file for all ranks, a segment each (default: a file each)\n" },
	{ "shared-dir", WL_RANKS_SHARED_DIR,
	  "  --shared-dir     one directory for all ranks' files (default: one each)\n" },
};
#define NOPTS (sizeof(ranks_opts) / sizeof(ranks_opts[0]))

void ranks_cmd_help(FILE *f, const struct workload *w)
{
	size_t i;

	if (!w->ranks)
		return;
	fprintf(f, "\nunder mpirun (several ranks, one result from rank 0):\n");
	for (i = 0; i < NOPTS; i++)
		if (w->ranks & ranks_opts[i].cap)
			fputs(ranks_opts[i].help, f);
}

/* Which of ours a is (-1: none); *val: its "=VALUE" part or NULL. */
static int which(const char *a, const char **val)
{
	size_t i, n;

	*val = NULL;
	if (strncmp(a, "--", 2))
		return -1;
	for (i = 0; i < NOPTS; i++) {
		n = strlen(ranks_opts[i].name);
		if (strncmp(a + 2, ranks_opts[i].name, n))
			continue;
		if (a[2 + n] == '=') {
			*val = a + 3 + n;
			return (int)i;
		}
		if (!a[2 + n])
			return (int)i;
	}
	return -1;
}

static int set_opt(const struct workload *w, struct common_opts *co, int k, const char *val)
{
	char *end;
	double s;

	if (!(w->ranks & ranks_opts[k].cap)) {
		err_msg("%s: --%s is not supported by %s", w->name, ranks_opts[k].name, w->name);
		return EXIT_USAGE;
	}
	if (k != 0) {
		if (val) {
			err_msg("%s: --%s takes no value", w->name, ranks_opts[k].name);
			return EXIT_USAGE;
		}
		*(k == 1 ? &co->wearout : k == 2 ? &co->shared_file : &co->shared_dir) = 1;
		return 0;
	}
	s = val ? strtod(val, &end) : 0;
	if (!val || end == val || *end || !isfinite(s) || s <= 0 || s > 1e7) {
		err_msg("%s: bad value for --stonewall: '%s': seconds above 0", w->name,
			val ? val : "");
		return EXIT_USAGE;
	}
	co->stonewall = s;
	return 0;
}

int ranks_cmd_args(const struct workload *w, int *argc, char **argv, struct common_opts *co)
{
	int i, o = 1, k, rc;
	const char *val;

	for (i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[o++] = argv[i++];
			break;
		}
		k = which(argv[i], &val);
		if (k < 0) {
			argv[o++] = argv[i];
			continue;
		}
		if (k == 0 && !val) {
			if (i + 1 >= *argc) {
				err_msg("%s: --stonewall needs a value in seconds", w->name);
				return EXIT_USAGE;
			}
			val = argv[++i];
		}
		if ((rc = set_opt(w, co, k, val)) != 0)
			return rc;
	}
	*argc = o;
	argv[o] = NULL;
	if (co->wearout && !co->stonewall) {
		err_msg("%s: --wearout needs --stonewall", w->name);
		return EXIT_USAGE;
	}
	return 0;
}

void ranks_cmd_sweep(const char *target)
{
	struct stat st;

	if (!comm_multi() || comm_rank() != 0 || !comm_failed(NULL) || !target ||
	    stat(target, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	(void)scratch_sweep(target);
}

int ranks_cmd_agree(int status, int fail_status)
{
	struct comm_fault f;

	if (!comm_multi())
		return status;
	if (comm_gate(status > 0 ? -EINVAL : 0, NULL, &f, NULL, NULL) == 0 || status > 0)
		return status;
	if (comm_rank() == 0 && f.err != -EINTR)
		err_msg("rank %u on %s could not start: see its message", f.rank, f.host);
	return fail_status;
}

int ranks_cmd_prepare(struct runner *rc, const struct common_opts *co)
{
	struct kvlist *o = &rc->run->options;
	int e = 0;

	rc->stonewall_ns = (uint64_t)(co->stonewall * 1e9);
	rc->wearout = co->wearout;
	rc->shared_file = co->shared_file;
	rc->shared_dir = co->shared_dir;
	if (co->stonewall)
		e |= kv_set(o, RK_OPT_STONEWALL, "%g", co->stonewall);
	if (co->wearout)
		e |= kv_set(o, RK_OPT_WEAROUT, "1");
	if (co->shared_file)
		e |= kv_set(o, RK_OPT_SHARED_FILE, "1");
	if (co->shared_dir)
		e |= kv_set(o, RK_OPT_SHARED_DIR, "1");
	return e ? -ENOMEM : 0;
}

/* Rank 0: say which ranks measured on another kind of file system. */
static void fs_notes(const struct run *run)
{
	size_t i;

	for (i = 1; i < run->nranks; i++)
		if (run->ranks[i].fs_differs)
			err_msg("note: rank %zu on %s measured on %s, rank 0 on %s: the aggregate "
				"mixes file systems", i, run->ranks[i].env.host ?
				run->ranks[i].env.host : "?", run->ranks[i].env.fs_type,
				run->ranks[0].env.fs_type);
}

/* Rank 0: a run stopped by a fault says so. */
static void fault_note(struct run *run)
{
	struct comm_fault f;

	if (!comm_failed(&f) || !f.err)
		return;
	run->flags |= RUN_INCOMPLETE;
	if (run->error)
		return;
	if (f.err == -EINTR)
		run->error = str_printf("interrupted while the ranks waited for each other");
	else if (f.err == -EPIPE)
		run->error = str_printf("the ranks lost each other (a rank died?): the rows "
					"are rank 0's alone");
	else
		run->error = str_printf("rank %u on %s failed: %s; every rank stopped", f.rank,
					f.host, f.what[0] ? f.what : strerror(-f.err));
}

int ranks_cmd_finish(struct runner *rc)
{
	int e;

	if (!comm_multi())
		return 1;
	e = comm_gate_final();
	if (e == 0)
		e = ranks_merge(rc);
	ranks_book_free(rc);
	if (comm_rank() != 0)
		return 0;
	if (e < 0) {
		size_t i;

		/* not merged: the figures are rank 0's own */
		for (i = 0; i < rc->run->nrows; i++)
			rc->run->rows[i]->flags |= ROW_INCOMPLETE;
		if (!comm_failed(NULL))
			err_errno(e, "cannot merge the ranks' figures: the result holds rank 0's");
	}
	fs_notes(rc->run);
	fault_note(rc->run);
	return 1;
}

int ranks_cmd_status(int status)
{
	struct comm_fault f;

	if (comm_multi() && comm_failed(&f) && f.err && f.err != -EINTR &&
	    !sig_stop_signalled() && status == EXIT_SIGNAL)
		return EXIT_FAILED;
	return status;
}
