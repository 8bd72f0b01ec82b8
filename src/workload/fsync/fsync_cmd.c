/* fsync_cmd.c - `iobattery fsync`: pg_test_fsync's options (-f, -s) and ours, validated
 * before any I/O; the listener of the power-cut procedure (--listen); the descriptor of
 * the fsync workload (workload/fsync/) for the driver (cmd/workload_cmd.c). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "verify/vnet.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "workload/fsync/fsync.h"
#include "workload/workload.h"

#define FSYNC_FILE_NAME "pg_test_fsync.out"

static const struct opt fsync_opt_table[] = {
	{ "filename", 'f', OPT_STR, offsetof(struct fsync_cfg, filename), "FILE",
	  "the test file: a new file, or a directory for the scratch directory (default: "
	  FSYNC_FILE_NAME " in a scratch directory here)" },
	{ "secs-per-test", 's', OPT_UINT, offsetof(struct fsync_cfg, secs), "N",
	  "seconds per test (default 5)" },
	{ "block", 0, OPT_SIZE, offsetof(struct fsync_cfg, block), "SIZE",
	  "bytes per write, a multiple of 4k up to 1m (default 8k, PostgreSQL's WAL page)" },
	{ "rpm", 0, OPT_UINT, offsetof(struct fsync_cfg, rpm), "N",
	  "the disk's rotation speed when sysfs does not tell it (for flush_implausible)" },
	{ "method", 0, OPT_STR, offsetof(struct fsync_cfg, method_name), "NAME",
	  "the crash test's sync (--verify): open_datasync, fdatasync (default), fsync, "
	  "open_sync" },
	{ "blocks", 0, OPT_U64, offsetof(struct fsync_cfg, blocks), "N",
	  "the crash test's region: N blocks rewritten in turn (default 1024)" },
	{ "no-space-check", 0, OPT_FLAG, offsetof(struct fsync_cfg, no_space_check), NULL,
	  "skip the free-space check before laying out the file" },
	{ "listen", 0, OPT_STR, offsetof(struct fsync_cfg, listen), "ADDR:PORT",
	  "be the other machine of the power-cut test: record what a --report-to writer "
	  "acknowledges in --verify-journal FILE" },
	{ "listen-max", 0, OPT_SIZE, offsetof(struct fsync_cfg, listen_max), "SIZE",
	  "the listener's journal at most this large (default 1g): the writer is told to "
	  "stop beyond it" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static const char fsync_help[] =
	"Which sync method makes a commit durable fastest here: pg_test_fsync's tests and\n"
	"layout (open_datasync, fdatasync, fsync, fsync_writethrough, open_sync, with one\n"
	"and two writes per sync; open_sync write sizes; fsync on another descriptor;\n"
	"writes without a sync), then each method's latency percentiles, CPU per op and\n"
	"device flushes, the device's write-cache facts with a flush_implausible check,\n"
	"and the fastest durable method as PostgreSQL's wal_sync_method and SQLite's\n"
	"synchronous level. With --verify (--verify-journal FILE, --report-to ADDR:PORT):\n"
	"the crash test of the power-cut procedure instead (docs/methodology.md).\n\n"
	"options:\n";

static void fsync_init(void *cfg)
{
	struct fsync_cfg *c = cfg;

	c->secs = FSYNC_DEFAULT_SECS;
	c->block = FSYNC_DEFAULT_BLOCK;
	c->blocks = 1024;
	c->method = FSYNC_M_FDATASYNC;
	c->cleanup = -1;
}

/* Where the file goes: a directory (a scratch directory is made in it), a new file, or a
 * file an earlier run made. 0 or -EINVAL. */
static int check_target(struct fsync_cfg *c)
{
	char buf[PATH_MAX];
	struct stat st;
	const char *f = c->filename ? c->filename : ".";

	if (strlen(f) >= sizeof(c->path) - sizeof(FSYNC_FILE_NAME) - 20) {
		err_msg("fsync: file name too long: '%s'", f);
		return -EINVAL;
	}
	if (lstat(f, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(c->dir, sizeof(c->dir), "%s", f);
	} else if (lstat(f, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			err_msg("fsync: refusing to write a link, device or special file: '%s'", f);
			return -EINVAL;
		}
		if (is_marked(f) != 1) {
			err_msg("fsync: refusing to overwrite a file iobattery did not "
				"create: '%s'", f);
			return -EINVAL;
		}
		snprintf(c->path, sizeof(c->path), "%s", f);
	} else if (errno == ENOENT) {
		snprintf(c->path, sizeof(c->path), "%s", f);
		c->new_file = 1;
	} else {
		err_errno(-errno, "fsync: cannot use: '%s'", f);
		return -EINVAL;
	}
	if (!c->dir[0]) {
		snprintf(buf, sizeof(buf), "%s", c->path);
		snprintf(c->dir, sizeof(c->dir), "%s", dirname(buf));
	}
	if (access(c->dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "fsync: cannot write in directory: '%s'", c->dir);
		return -EINVAL;
	}
	return 0;
}

static int fsync_validate(struct workload_ctx *x)
{
	struct fsync_cfg *c = x->cfg;
	uint64_t need, avail;
	int m;

	if (c->secs == 0) {
		err_msg("fsync: bad value for --secs-per-test: '0': must be at least 1");
		return -EINVAL;
	}
	if (c->block == 0 || c->block % 4096 || c->block > FSYNC_MAX_BLOCK) {
		err_msg("fsync: bad value for --block: '%" PRIu64 "': a multiple of 4k from 4k "
			"to 1m", c->block);
		return -EINVAL;
	}
	if (c->method_name) {
		if ((m = fsync_method_parse(c->method_name)) < 0) {
			err_msg("fsync: unknown --method: '%s': open_datasync, fdatasync, fsync or "
				"open_sync", c->method_name);
			return -EINVAL;
		}
		c->method = (enum fsync_method)m;
	}
	if (c->blocks == 0 || c->blocks > (1ull << 30) / c->block * 64) {
		err_msg("fsync: bad value for --blocks: '%" PRIu64 "'", c->blocks);
		return -EINVAL;
	}
	if (c->listen) {
		if (vnet_addr_check(c->listen, 1) < 0) {
			err_msg("fsync: bad --listen address: '%s': use HOST:PORT or [IPv6]:PORT",
				c->listen);
			return -EINVAL;
		}
		if (!x->verify.journal || x->verify.report_to) {
			err_msg("fsync: --listen records into --verify-journal FILE (and sends "
				"nothing: no --report-to)");
			return -EINVAL;
		}
		return 0;
	}
	c->crash = x->verify.on;
	if (check_target(c) < 0)
		return -EINVAL;
	need = c->crash ? c->blocks * c->block : FSYNC_PREFILL;
	if (!c->no_space_check && space_check(c->dir, need, &avail) == -ENOSPC) {
		char a[32], b[32];

		err_msg("fsync: not enough free space: '%s': need %s, %s free", c->dir,
			units_fmt_bytes(a, sizeof(a), (double)need),
			units_fmt_bytes(b, sizeof(b), (double)avail));
		return -EINVAL;
	}
	x->target = c->dir;
	return 0;
}

static int fsync_setup(struct workload_ctx *x, struct runner *rc)
{
	struct fsync_cfg *c = x->cfg;
	int e;

	rc->progress = 0;
	if (c->path[0]) {
		/* a second signal removes a file we make; a crash test's is kept */
		if (c->new_file && !c->crash)
			c->cleanup = cleanup_register(c->path, 0);
		return 0;
	}
	e = scratch_create(c->dir, &c->scratch);
	if (e == 0)
		e = scratch_path(c->scratch, FSYNC_FILE_NAME, c->path, sizeof(c->path));
	if (e < 0) {
		err_errno(e, "fsync: cannot create a scratch directory in: '%s'", c->dir);
		return EXIT_FAILED;
	}
	return 0;
}

static int fsync_wl_run(struct workload_ctx *x, struct runner *rc)
{
	return fsync_run(rc, x->cfg);
}

/* The test file goes, unless the crash test wrote it where the user asked (it is checked
 * after the power cut). */
static int fsync_teardown(struct workload_ctx *x, struct run *run)
{
	struct fsync_cfg *c = x->cfg;
	int rc = 0, ours = c->scratch != NULL;	/* the file goes with its scratch dir */

	(void)run;
	if (c->cleanup >= 0)
		cleanup_unregister(c->cleanup);
	c->cleanup = -1;
	if (c->scratch) {
		rc = scratch_destroy(c->scratch);
		c->scratch = NULL;
	} else if (c->new_file && !c->crash && c->path[0] && unlink(c->path) < 0 &&
		   errno != ENOENT) {
		rc = -errno;
		err_errno(rc, "fsync: cannot remove the test file: '%s'", c->path);
	}
	/* only a file that is there: not one in our scratch directory, nor one never made */
	if (c->crash && !ours && c->path[0] && (x->verify.journal || x->verify.report_to) &&
	    access(c->path, F_OK) == 0)
		fprintf(stderr, "iobattery: fsync: kept '%s': after a power cut, check it "
			"with 'iobattery verify --journal %s %s'\n", c->path,
			x->verify.journal ? x->verify.journal : "JOURNAL", c->path);
	return rc;
}

static void fsync_merged(struct workload_ctx *x, struct run *run)
{
	(void)x;
	fsync_durability_merged(run);
}

static void fsync_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	size_t i;

	(void)x;
	(void)status;
	if (!err || err == -EINTR)
		return;
	for (i = 0; i < run->nrows; i++) {
		const struct row *r = run->rows[i];

		if ((r->flags & ROW_FAILED) && r->error && strcmp(r->phase, "verify"))
			err_msg("fsync: %s failed: %s", r->phase, r->error);
	}
}

static void stray_peer(void *arg, const char *peer, int err)
{
	(void)arg;
	err_msg("fsync: --listen: dropped a peer that is not an iobattery writer: '%s': %s; "
		"waiting for the writer", peer, err == -EPROTO ? "it does not speak the "
		"protocol" : err == -ETIMEDOUT ? "it said nothing for 10 s" : err == -EPIPE ?
		"it closed the connection" : strerror(-err));
}

/* The listener of the power-cut procedure: prints where it listens, serves one writer,
 * prints what it recorded. Returns the exit status. */
static int fsync_listen(const char *addr, const char *journal, uint64_t max)
{
	char bound[VNET_ADDR_MAX];
	struct vnet_served st;
	int fd, rc;

	rc = vnet_listen(addr, &fd, bound, sizeof(bound));
	if (rc < 0) {
		err_errno(rc, "fsync: cannot listen on: '%s'", addr);
		return EXIT_FAILED;
	}
	printf("iobattery fsync: listening on %s; acknowledged writes go to '%s'\n", bound,
	       journal);
	fflush(stdout);
	rc = vnet_serve(fd, journal, max, stray_peer, NULL, &st);
	close(fd);
	if (rc == -EINTR)
		return EXIT_SIGNAL;
	if (rc == -EFBIG && st.full) {
		err_msg("fsync: --listen: the journal reached its cap: '%s': %" PRIu64
			" acknowledged writes of run %016" PRIx64 " from %s recorded, the writer "
			"was told to stop (--listen-max SIZE)", journal, st.records, st.run_id,
			st.peer);
		return EXIT_FAILED;
	}
	if (rc < 0) {
		err_errno(rc, "fsync: listener failed: '%s'", journal);
		return EXIT_FAILED;
	}
	printf("iobattery fsync: %" PRIu64 " acknowledged writes of run %016" PRIx64
	       " from %s recorded in '%s'; %s\n", st.records, st.run_id, st.peer, journal,
	       st.said_bye ? "the writer finished" : "the writer went away (a power cut?)");
	return EXIT_OK;
}

static int fsync_session(struct workload_ctx *x, char **ops, int n)
{
	struct fsync_cfg *c = x->cfg;

	(void)ops;
	(void)n;
	if (c->listen)
		return fsync_listen(c->listen, x->verify.journal, c->listen_max);
	return x->drv->measure(x);
}

static void fsync_done(void *cfg)
{
	struct fsync_cfg *c = cfg;

	scratch_destroy(c->scratch);
	c->scratch = NULL;
}

const struct workload workload_fsync = {
	.name = "fsync",
	.summary = "pg_test_fsync's sync methods, percentiles and write-cache honesty",
	.synopsis = "[-f FILE] [-s SECS] [OPTION]...",
	.help = fsync_help,
	.opts = fsync_opt_table,
	.cfg_size = sizeof(struct fsync_cfg),
	.flags = WORKLOAD_F_VERIFY,
	.init = fsync_init,
	.validate = fsync_validate,
	.session = fsync_session,
	.setup = fsync_setup,
	.run = fsync_wl_run,
	.teardown = fsync_teardown,
	.merged = fsync_merged,
	.report = fsync_report,
	.done = fsync_done,
};
