/* sustained_cmd.c - `iobattery sustained [-d DIR]`: the descriptor of the sustained write
 * (sustained.h) for the driver (cmd/workload_cmd.c): options, their checks, the scratch
 * directory it writes in. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/units.h"
#include "engine/engine.h"
#include "fs/scratch.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "workload/sustained/sustained.h"
#include "workload/workload.h"

#define SUS_DEFAULT_SIZE	(64ull << 30)	/* at most this, or what is free */

struct sustained_cmd {
	struct sustained_cfg c;
	const char *dir;
	int no_space_check;
	struct scratch *sc;
};

static const struct opt sustained_opt_table[] = {
	{ "directory", 'd', OPT_STR, offsetof(struct sustained_cmd, dir), "DIR",
	  "write in a scratch directory made in DIR (default .)" },
	{ "size", 's', OPT_SIZE, offsetof(struct sustained_cmd, c.size), "SIZE",
	  "write at most SIZE (default 64g, or 90% of the free space when less)" },
	{ "time", 't', OPT_DOUBLE, offsetof(struct sustained_cmd, c.time_s), "SECONDS",
	  "write for at most SECONDS (default 600)" },
	{ "bs", 'b', OPT_SIZE, offsetof(struct sustained_cmd, c.bs), "SIZE",
	  "bytes per write, a multiple of 4k (default 1m)" },
	{ "step", 0, OPT_DOUBLE, offsetof(struct sustained_cmd, c.step_s), "SECONDS",
	  "the interval the rate is taken over to find the knee (default 1)" },
	{ "drop", 0, OPT_DOUBLE, offsetof(struct sustained_cmd, c.drop_pct), "PCT",
	  "a knee: the rate fell by PCT percent of the burst rate or more (default 30)" },
	{ "hold", 0, OPT_UINT, offsetof(struct sustained_cmd, c.hold), "N",
	  "and stayed down for N intervals (default 5)" },
	{ "no-stop", 0, OPT_FLAG, offsetof(struct sustained_cmd, c.no_stop), NULL,
	  "write to the size or time limit even after the knee" },
	{ "buffered", 0, OPT_FLAG, offsetof(struct sustained_cmd, c.buffered), NULL,
	  "write through the page cache (default O_DIRECT where the file system has it)" },
	{ "no-space-check", 0, OPT_FLAG, offsetof(struct sustained_cmd, no_space_check), NULL,
	  "skip the free-space check" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void sustained_init(void *cfg)
{
	struct sustained_cmd *s = cfg;

	s->dir = ".";
	s->c.time_s = 600;
	s->c.bs = 1u << 20;
	s->c.step_s = 1;
	s->c.drop_pct = 30;
	s->c.hold = 5;
}

static int check_numbers(const struct sustained_cfg *c)
{
	if (c->bs == 0 || c->bs % 4096 || c->bs > (64u << 20)) {
		err_msg("sustained: bad value for --bs: must be a multiple of 4k up to 64m");
		return -EINVAL;
	}
	if (!(c->time_s > 0 && c->time_s <= 7 * 86400)) {
		err_msg("sustained: bad value for --time: from above 0 to a week of seconds");
		return -EINVAL;
	}
	if (!(c->step_s >= 0.01 && c->step_s <= c->time_s)) {
		err_msg("sustained: bad value for --step: from 0.01 to the --time seconds");
		return -EINVAL;
	}
	if (!(c->drop_pct > 0 && c->drop_pct < 100)) {
		err_msg("sustained: bad value for --drop: a percentage above 0 and below 100");
		return -EINVAL;
	}
	if (c->hold < 1 || c->hold > 10000) {
		err_msg("sustained: bad value for --hold: from 1 to 10000 intervals");
		return -EINVAL;
	}
	return 0;
}

static int sustained_validate(struct workload_ctx *x)
{
	struct sustained_cmd *s = x->cfg;
	uint64_t avail = 0;
	struct stat st;
	char a[32], b[32];

	if (check_numbers(&s->c) < 0)
		return -EINVAL;
	if (x->eng->flags & ENGINE_F_NOIO) {
		err_msg("sustained: the '%s' engine does no I/O and cannot find a cliff",
			x->eng->name);
		return -EINVAL;
	}
	if (stat(s->dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(s->dir, W_OK | X_OK) < 0) {
		err_msg("sustained: not a directory it may write in: '%s'", s->dir);
		return -EINVAL;
	}
	x->target = s->dir;
	if (!s->c.size) {
		(void)space_check(s->dir, 0, &avail);
		s->c.size = avail && avail / 10 * 9 < SUS_DEFAULT_SIZE ? avail / 10 * 9 :
			    SUS_DEFAULT_SIZE;
		s->c.size -= s->c.size % s->c.bs;
		if (!s->c.size) {
			err_msg("sustained: no free space to write in: '%s'", s->dir);
			return -EINVAL;
		}
	} else if (!s->no_space_check && space_check(s->dir, s->c.size, &avail) == -ENOSPC) {
		err_msg("sustained: not enough free space: '%s': need %s, %s free", s->dir,
			units_fmt_bytes(a, sizeof(a), (double)s->c.size),
			units_fmt_bytes(b, sizeof(b), (double)avail));
		return -EINVAL;
	}
	return 0;
}

static int sustained_setup(struct workload_ctx *x, struct runner *rc)
{
	struct sustained_cmd *s = x->cfg;
	int e = scratch_create(s->dir, &s->sc);

	(void)rc;
	if (e < 0) {
		err_errno(e, "sustained: cannot create a scratch directory in: '%s'", s->dir);
		return EXIT_FAILED;
	}
	return 0;
}

static int sustained_wl_run(struct workload_ctx *x, struct runner *rc)
{
	struct sustained_cmd *s = x->cfg;

	return sustained_run(rc, &s->c, scratch_dir(s->sc));
}

static int sustained_teardown(struct workload_ctx *x, struct run *run)
{
	struct sustained_cmd *s = x->cfg;
	int e = s->sc ? scratch_destroy(s->sc) : 0;

	(void)run;
	s->sc = NULL;
	return e;
}

static void sustained_report(struct workload_ctx *x, const struct run *run, int err,
			     int status)
{
	const struct row *row;

	(void)x;
	(void)status;
	if (!err || err == -EINTR || !run->nrows)
		return;
	row = run->rows[run->nrows - 1];
	err_msg("sustained: write failed: %s", row->error ? row->error : strerror(-err));
}

const struct workload workload_sustained = {
	.name = "sustained",
	.summary = "write one large file until the rate falls and stays down (the cliff)",
	.synopsis = "[-d DIR] [--size SIZE] [--time SECONDS] [OPTION]...",
	.help = "Write one large file sequentially (O_DIRECT where possible) until the rate\n"
		"has fallen and stayed down (the knee: docs/methodology.md) or a limit; report\n"
		"the burst rate, the bytes written before the cliff, the sustained rate after\n"
		"it, and the device temperature where the kernel exposes it (hwmon), flagging\n"
		"throttling when the rate fell after it passed the warning threshold.\n\n"
		"options:\n",
	.opts = sustained_opt_table,
	.cfg_size = sizeof(struct sustained_cmd),
	.init = sustained_init,
	.validate = sustained_validate,
	.setup = sustained_setup,
	.run = sustained_wl_run,
	.teardown = sustained_teardown,
	.report = sustained_report,
};
