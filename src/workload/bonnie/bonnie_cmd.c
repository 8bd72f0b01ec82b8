/* bonnie_cmd.c - `iobattery bonnie`: Bonnie++'s option letters (and a few long options),
 * validated before anything is created, then the battery in a scratch directory, the
 * table, and the Bonnie++ 2.00a CSV line: the descriptor of the bonnie workload
 * (workload/bonnie/) for the driver (cmd/workload_cmd.c). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "comm/comm.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "core/units.h"
#include "output/bonnie_csv.h"
#include "output/output.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/bonnie/bonnie.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "workload/workload.h"

/* The config the driver allocates. */
struct bonnie_cmd {
	struct bonnie_cfg c;
	struct scratch *sc;
	int shared;			/* --shared-dir: rank 0's scratch directory */
	char host[256];
};

/* Defaults that depend on the machine; checks that need the file system. 0 or -EINVAL. */
static int bonnie_settle(struct bonnie_cfg *c)
{
	struct stat st;
	uint64_t need, avail;
	int rc;

	if (!c->ram_set)
		c->ram_mb = sysinfo_ram() >> 20;
	/* -r 0 turns Bonnie++'s checks off; the default size still follows the real RAM */
	if (!c->size_set)
		c->size_mb = 2 * (c->ram_mb ? c->ram_mb : sysinfo_ram() >> 20);
	if (!c->seed_set)
		c->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	if (c->direct && c->chunk < 4096) {
		err_msg("bonnie: chunk too small for -D: '%u': O_DIRECT needs 4096 or more",
			c->chunk);
		return -EINVAL;
	}
	if (stat(c->dir, &st) < 0) {
		err_errno(-errno, "bonnie: cannot use directory: '%s'", c->dir);
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_msg("bonnie: not a directory: '%s'", c->dir);
		return -EINVAL;
	}
	if (access(c->dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "bonnie: cannot write in directory: '%s'", c->dir);
		return -EINVAL;
	}
	need = bonnie_space_needed(c);
	rc = c->no_space_check ? 0 : space_check(c->dir, need, &avail);
	if (rc == -ENOSPC) {
		char a[32], b[32];

		err_msg("bonnie: the data set does not fit: '%s': needs %s, %s free", c->dir,
			units_fmt_bytes(a, sizeof(a), (double)need),
			units_fmt_bytes(b, sizeof(b), (double)avail));
		return -EINVAL;
	}
	return 0;
}

static void cache_notice(const struct bonnie_cfg *c)
{
	if (!c->size_mb || c->direct || c->drop_cache || !c->ram_mb || c->quiet ||
	    c->size_mb >= 2 * c->ram_mb)
		return;
	err_msg("bonnie: note: data set %" PRIu64 " MiB is under twice the RAM (%" PRIu64
		" MiB): read figures carry their page-cache residency and a cache flag "
		"(use -D or --drop-cache to measure the disk)", c->size_mb, c->ram_mb);
}

/* The CSV lines, one per repeat, on f. */
static int print_csv(FILE *f, const struct run *run, unsigned repeats)
{
	struct bonnie_line l;
	char buf[2048];
	unsigned r;

	for (r = 0; r < repeats; r++) {
		if (!bonnie_line_from_run(&l, run, r))
			continue;
		if (bonnie_csv_format(&l, buf, sizeof(buf)) > 0)
			fputs(buf, f);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}


static const char bonnie_synopsis[] =
	"[-d dir] [-s size(MiB)[:chunk[:seeks[:seekers]]]]\n"
	"         [-n number(*1024)[:max[:min[:dirs[:chunk]]]]] [-m name] [-r ram(MiB)]\n"
	"         [-x runs] [-c copies] [-u user] [-g group] [-q] [-f[size]] [-b] [-D]\n"
	"         [-z seed] [--char-method syscall|putc] [--min-time S] [--drop-cache]\n"
	"         [--format LIST] [--output-dir DIR] [--quiet] [--label TEXT]\n"
	"         [--engine NAME] [--repeat N] [--no-store] [--interval D] [--no-sample]\n"
	"         [--sample-interval D] [--watch] [--series FILE]";

static const char bonnie_help[] =
	"Run the Bonnie++ 2.00a test set on a directory: per-char, block and rewrite output,\n"
	"per-char and block input, random seeks, then small-file create/stat/delete in\n"
	"sequential and random order.\n"
	"\n"
	"Bonnie++'s options:\n"
	"  -d DIR     directory to test in (default .); a scratch directory is made inside\n"
	"  -s SPEC    data set size in MiB (g: GiB; default twice RAM, 0 skips the I/O tests);\n"
	"             chunk in bytes (k: KiB, power of two 256..1M, default 8192); seeks\n"
	"             (default 8192); concurrent seekers (default 5)\n"
	"  -n SPEC    files in units of 1024 (default 16, 0 skips the file tests); max and min\n"
	"             size in bytes (max -1: hard links, -2: symlinks); subdirectories; chunk\n"
	"  -m NAME    machine name for the table and the CSV line (default: host name)\n"
	"  -r MiB     RAM size for the default data set (default: detected)\n"
	"  -x N       run N times: one CSV line each; N >= 3 adds mean and 95% CI\n"
	"  -c N       run N copies at once; each row is the aggregate, with per-copy metrics\n"
	"  -q         CSV line(s) on standard output, the table on standard error\n"
	"  -f         skip the per-char tests;  -fN: per-char tests on N MiB (default 3)\n"
	"  -b         fsync after every write (and the directory after create/delete)\n"
	"  -D         O_DIRECT for the block phases\n"
	"  -z SEED    seed of the random numbers (seeks, names, sizes)\n"
	"  -u -g      accepted; iobattery never changes user or group\n"
	"  -p -y -Z   accepted; copies (-c) are synchronised by iobattery itself\n"
	"\n"
	"iobattery's options:\n"
	"  --char-method M  syscall (default, one read/write per byte as 2.00a) or putc\n"
	"                   (stdio putc/getc as 1.03); never mixed\n"
	"  --min-time S     grow the file count until each file phase lasts S seconds\n"
	"  --drop-cache     drop the data set from the page cache before each read phase\n"
	"  --format LIST    text (default), json, csv;  --output-dir DIR: write files there\n"
	"  --quiet          no progress line;  --label TEXT: stored with the result\n"
	"  --no-space-check skip the free-space check before writing\n"
	"  --engine NAME    psync (default), io_uring, libaio, mmap, null;  --repeat N: -x N\n"
	"  --no-store       do not save the run in the results store\n"
	"  --verify         write self-checking blocks in the block phases and read every one\n"
	"                   back after the seeks (a phase of its own)\n"
	"  --verify-after-drop  the same, dropping the files from the page cache first\n"
	"  --verify-journal FILE  record each block a sync made durable (a new file)\n"
	"  --report-to ADDR:PORT  send those records to 'iobattery fsync --listen'\n"
	"  --interval D     time series interval (default 1s);  --sample-interval D: wait\n"
	"                   states every D (100ms);  --no-sample: neither, nor device figures\n"
	"  --watch          live view of the running phase;  --series FILE: with --format\n"
	"                   csv, the series as a long table\n";

static void bonnie_wl_init(void *cfg)
{
	bonnie_cfg_init(&((struct bonnie_cmd *)cfg)->c);
}

/* Bonnie++'s letters and our long options, the common ones among them; -x is --repeat. */
static int bonnie_wl_parse(struct workload_ctx *x, int argc, char **argv, char ***ops)
{
	struct bonnie_cfg *c = &((struct bonnie_cmd *)x->cfg)->c;
	struct common_opts *co = x->co;
	char err[256], **av = calloc((size_t)argc + 1, sizeof(*av));
	int rc;

	*ops = NULL;
	if (!av)
		return -ENOMEM;
	/* the common sampling options first, from a copy (argv stays the command line) */
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	rc = common_take_sample_opts(co, &argc, av, err, sizeof(err));
	if (rc == 0)
		rc = bonnie_parse_args(c, argc, av, err, sizeof(err));
	free(av);
	if (rc < 0) {
		err_msg("bonnie: %s", err);
		return -EINVAL;
	}
	if (c->help)
		return -ECANCELED;
	COMMON_TAKE_LONG_OPTS(co, x, c);
	return 0;
}

/* bonnie_check with its message. 0 or -EINVAL. */
static int check(const struct bonnie_cfg *c)
{
	char err[256];

	if (bonnie_check(c, err, sizeof(err)) < 0) {
		err_msg("bonnie: %s", err);
		return -EINVAL;
	}
	return 0;
}

static int bonnie_wl_validate(struct workload_ctx *x)
{
	struct bonnie_cmd *b = x->cfg;
	struct bonnie_cfg *c = &b->c;

	if (comm_multi() && c->min_time > 0) {
		/* each rank would grow its own file count: their phases would not match */
		err_msg("bonnie: --min-time does not run under mpirun: give -n instead");
		return -EINVAL;
	}
	/* again after the machine's defaults (size from the RAM) are in */
	if (check(c) < 0 || bonnie_settle(c) < 0 || check(c) < 0)
		return -EINVAL;
	if (x->verify.on && c->chunk < VBLOCK_MIN_LEN) {
		err_msg("bonnie: --verify needs chunks of at least %u bytes: '%u'", VBLOCK_MIN_LEN,
			(unsigned)c->chunk);
		return -EINVAL;
	}
	cache_notice(c);
	if (!c->machine) {
		if (gethostname(b->host, sizeof(b->host)) < 0)
			snprintf(b->host, sizeof(b->host), "localhost");
		b->host[sizeof(b->host) - 1] = '\0';
		c->machine = b->host;
	}
	x->target = c->dir;
	return 0;
}

static int bonnie_wl_record(struct workload_ctx *x, struct run *run)
{
	const struct bonnie_cfg *c = &((struct bonnie_cmd *)x->cfg)->c;

	if (bonnie_record_options(run, c) < 0 ||
	    kv_set(&run->options, RK_BONNIE_QUIET, "%d", c->quiet))
		return -ENOMEM;
	return 0;
}

static int bonnie_wl_setup(struct workload_ctx *x, struct runner *rc)
{
	struct bonnie_cmd *b = x->cfg;
	int e;

	if (b->c.quiet)
		rc->progress = 0;
	b->shared = rc->shared_dir;
	e = ranks_scratch_create(b->c.dir, rc->shared_dir, &b->sc);	/* --shared-dir */
	if (e < 0) {
		err_errno(e, "bonnie: cannot create a scratch directory in: '%s'", b->c.dir);
		return EXIT_FAILED;
	}
	return 0;
}

static int bonnie_wl_run(struct workload_ctx *x, struct runner *rc)
{
	struct bonnie_cmd *b = x->cfg;

	return bonnie_run(rc, &b->c, scratch_dir(b->sc));
}

static int bonnie_wl_teardown(struct workload_ctx *x, struct run *run)
{
	struct bonnie_cmd *b = x->cfg;

	(void)run;
	ranks_scratch_destroy(b->sc, b->shared);
	b->sc = NULL;
	return 0;
}

static void report_failure(const struct run *run, const struct bonnie_cfg *c, int err)
{
	size_t i;

	if (!err || err == -EINTR)
		return;
	for (i = run->nrows; i-- > 0;) {
		const struct row *w = run->rows[i];

		if (w->flags & ROW_FAILED) {
			/* how far the phase got: bytes for the I/O block, files for the other */
			int files = bonnie_test_is_file(bonnie_test_of(w->phase)) && !w->bytes;

			err_msg("bonnie: %s failed: '%s': %s after %" PRIu64 " %s", w->phase,
				c->dir,
				w->error ? w->error : strerror(-err), files ? w->ops : w->bytes,
				files ? "files done" : "bytes written");
			return;
		}
	}
	err_errno(err, "bonnie: failed: '%s'", c->dir);
}

static void bonnie_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	const struct bonnie_cfg *c = &((struct bonnie_cmd *)x->cfg)->c;

	report_failure(run, c, err);
	if (status == EXIT_SIGNAL)
		err_msg("bonnie: interrupted: '%s': files removed, partial results marked "
			"incomplete", c->dir);
}

/* The text is Bonnie++'s table, which shows its repeats itself. With -q, as Bonnie++: the
 * CSV alone on stdout and the table on stderr; files with --output-dir. */
static int bonnie_emit(struct workload_ctx *x, struct run *run)
{
	const struct bonnie_cfg *c = &((struct bonnie_cmd *)x->cfg)->c;
	struct common_opts files = *x->co;
	int rc = 0;

	if (!c->quiet)
		return x->drv->write(run, x->co, COMMON_OWN_REPEATS);
	if (!c->format || strstr(c->format, "text"))
		rc = out_write(&out_text, stderr, run);
	if (print_csv(stdout, run, c->repeats) < 0 && !rc)
		rc = -EIO;
	if (c->output_dir) {
		files.quiet = 1;
		if (x->drv->write(run, &files, COMMON_OWN_REPEATS) < 0 && !rc)
			rc = -EIO;
	} else if (x->drv->write_series(run, x->co) < 0 && !rc) {
		rc = -EIO;
	}
	return rc;
}

const struct workload workload_bonnie = {
	.name = "bonnie",
	.summary = "the Bonnie++ test set, with Bonnie++'s options and CSV line",
	.synopsis = bonnie_synopsis,
	.help = bonnie_help,
	.cfg_size = sizeof(struct bonnie_cmd),
	.ranks = WL_RANKS_SHARED_DIR,
	.init = bonnie_wl_init,
	.flags = WORKLOAD_F_VERIFY,
	.parse = bonnie_wl_parse,
	.validate = bonnie_wl_validate,
	.record = bonnie_wl_record,
	.setup = bonnie_wl_setup,
	.run = bonnie_wl_run,
	.teardown = bonnie_wl_teardown,
	.report = bonnie_report,
	.emit = bonnie_emit,
};
