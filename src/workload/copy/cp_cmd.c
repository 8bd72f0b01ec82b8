/* cp_cmd.c - `iobattery cp SRC DST`: the seeds' `time cp tstfile tstfile2`; the descriptor of
 * the copy workload (workload/copy/copy.c) for the driver (cmd/workload_cmd.c). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/comm.h"
#include "core/err.h"
#include "core/features.h"
#include "verify/vblock.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "engine/engine.h"
#include "stats/result.h"
#include "workload/copy/copy.h"
#include "runner/runner.h"
#include "workload/workload.h"

struct cp_opts {
	const char *method;
	uint64_t buffer;
	int overwrite;
	int no_space_check;
};

/* The config the driver allocates. */
struct cp_cmd {
	struct cp_opts o;
	struct copy_job j;
	char dstbuf[PATH_MAX];
	char target[PATH_MAX];
	char src_rank[PATH_MAX], dst_rank[PATH_MAX];	/* SRC.RANK, DST.RANK under mpirun */
};

static const struct opt cp_opt_table[] = {
	{ "method", 0, OPT_STR, offsetof(struct cp_cmd, o.method), "M",
	  "auto (copy_file_range, else rw; as cp), rw, copy_file_range, sendfile" },
	{ "buffer", 0, OPT_SIZE, offsetof(struct cp_cmd, o.buffer), "SIZE",
	  "bytes per call: the rw buffer (default 128k, as cp)" },
	{ "overwrite", 0, OPT_FLAG, offsetof(struct cp_cmd, o.overwrite), NULL,
	  "allow DST to be an existing file iobattery did not create" },
	{ "no-space-check", 0, OPT_FLAG, offsetof(struct cp_cmd, o.no_space_check), NULL,
	  "skip the free-space check before copying" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

/* Resolve DST (a directory means DST/basename(SRC)) and check we may write it. */
static int check_dst(struct copy_job *j, const struct cp_opts *o, char *dstbuf, size_t len,
		     const struct stat *src)
{
	uint64_t need = (uint64_t)src->st_size;
	char tmp[PATH_MAX], base[PATH_MAX];
	struct stat st;
	const char *dir;
	uint64_t avail;

	if (stat(j->dst, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(base, sizeof(base), "%s", j->src);
		snprintf(dstbuf, len, "%s/%s", j->dst, basename(base));
		j->dst = dstbuf;
	}
	/* before any refusal of the destination: "cp f f" is told what it is */
	if (stat(j->dst, &st) == 0 && st.st_dev == src->st_dev && st.st_ino == src->st_ino) {
		err_msg("cp: source and destination are the same file: '%s'", j->src);
		return -EINVAL;
	}
	snprintf(tmp, sizeof(tmp), "%s", j->dst);
	dir = dirname(tmp);
	if (access(dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "cp: cannot write in directory: '%s'", dir);
		return -EINVAL;
	}
	if (lstat(j->dst, &st) == 0) {
		if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
			err_msg("cp: refusing to write a link or special file: '%s'", j->dst);
			return -EINVAL;
		}
		if (is_marked(j->dst) != 1 && !o->overwrite) {
			err_msg("cp: refusing to overwrite a file iobattery did not create: '%s': "
				"use --overwrite%s", j->dst, mark_hint());
			return -EINVAL;
		}
		j->dst_exists = 1;
	}
	if (!o->no_space_check && space_check(dir, need, &avail) == -ENOSPC) {
		char a[32], b[32];

		err_msg("cp: not enough free space: '%s': need %s, %s free", dir,
			units_fmt_bytes(a, sizeof(a), (double)need),
			units_fmt_bytes(b, sizeof(b), (double)avail));
		return -EINVAL;
	}
	return 0;
}

static int check_args(struct copy_job *j, const struct cp_opts *o, char **ops, int n,
		      char *dstbuf, size_t len)
{
	struct stat st;

	if (n != 2) {
		err_msg("cp: %s: usage: iobattery cp SRC DST", n < 2 ? "missing operand" :
			"too many operands");
		return -EINVAL;
	}
	j->src = ops[0];
	j->dst = ops[1];
	if (o->method && copy_method_parse(o->method, &j->method) < 0) {
		err_msg("cp: unknown method: '%s': use auto, rw, copy_file_range or sendfile",
			o->method);
		return -EINVAL;
	}
	if (o->method && features_have(o->method) == 0) {
		err_msg("cp: method not in this build: '%s': see iobattery --version; auto "
			"and rw work everywhere", o->method);
		return -EINVAL;
	}
	if (o->buffer == 0 || o->buffer > (1ull << 30)) {
		err_msg("cp: bad --buffer: must be between 1 byte and 1 GiB");
		return -EINVAL;
	}
	j->buffer = o->buffer;
	if (stat(j->src, &st) < 0 || access(j->src, R_OK) < 0) {
		err_errno(-errno, "cp: cannot read source: '%s'", j->src);
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		err_msg("cp: source is not a regular file: '%s'", j->src);
		return -EINVAL;
	}
	if (check_dst(j, o, dstbuf, len, &st))
		return -EINVAL;
	return 0;
}

static void cp_init(void *cfg)
{
	struct cp_cmd *c = cfg;

	c->o.buffer = 128 * 1024;
	c->j.method = COPY_AUTO;
	c->j.keep_output = 1;
}

/* Several ranks (mpirun): each copies its own SRC.RANK to DST.RANK, as dd's of=NAME.RANK.
 * ops[0] and ops[1] then point at c's buffers. 0 or -EINVAL after a message. */
static int rank_names(struct cp_cmd *c, char **ops, int n)
{
	int a, b;

	if (!comm_multi() || n != 2)
		return 0;
	a = snprintf(c->src_rank, sizeof(c->src_rank), "%s.%u", ops[0], comm_rank());
	b = snprintf(c->dst_rank, sizeof(c->dst_rank), "%s.%u", ops[1], comm_rank());
	if (a < 0 || b < 0 || (size_t)a >= sizeof(c->src_rank) ||
	    (size_t)b >= sizeof(c->dst_rank)) {
		err_msg("cp: path too long: '%s'", ops[0]);
		return -EINVAL;
	}
	ops[0] = c->src_rank;
	ops[1] = c->dst_rank;
	return 0;
}

static int cp_operands(struct workload_ctx *x, char **ops, int n)
{
	struct cp_cmd *c = x->cfg;

	if (rank_names(c, ops, n) < 0)
		return -EINVAL;
	return check_args(&c->j, &c->o, ops, n, c->dstbuf, sizeof(c->dstbuf));
}

/* cp --verify checks the copy block by block: the source must be a verified file (its
 * first block header valid). 1 when it is, else 0 after saying why. */
static int verified_source(const char *src)
{
	unsigned char b[VBLOCK_HDR_LEN];
	struct vblock_header h;
	ssize_t n = -1;
	int fd = open(src, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = pread(fd, b, sizeof(b), 0);
		if (close(fd) != 0)
			n = -1;
	}
	if (n == (ssize_t)sizeof(b) && vblock_header_parse(b, sizeof(b), &h) == 0)
		return 1;
	err_msg("cp: --verify checks a copy of a file written with --verify (e.g. by "
		"'iobattery dd --verify'): '%s' is not one", src);
	return 0;
}

static int cp_validate(struct workload_ctx *x)
{
	struct cp_cmd *c = x->cfg;

	if (x->eng->flags & ENGINE_F_NOIO) {
		err_msg("cp: the '%s' engine does no I/O and cannot copy", x->eng->name);
		return -EINVAL;
	}
	if (x->verify.on && !verified_source(c->j.src))
		return -EINVAL;
	snprintf(c->target, sizeof(c->target), "%s", c->j.dst);
	x->target = dirname(c->target);
	return 0;
}

/* A repeat copies over the file the previous one made. */
static int cp_next_repeat(struct workload_ctx *x, struct runner *rc)
{
	struct copy_job *j = &((struct cp_cmd *)x->cfg)->j;

	(void)rc;
	if (!j->dst_exists)
		j->dst_exists = j->dst_ours = 1;
	return 0;
}

static int cp_wl_run(struct workload_ctx *x, struct runner *rc)
{
	return copy_run(rc, &((struct cp_cmd *)x->cfg)->j);
}

static void cp_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	const struct copy_job *j = &((struct cp_cmd *)x->cfg)->j;
	const struct row *row;

	(void)status;
	if (!err || err == -EINTR || !run->nrows)
		return;
	row = run->rows[run->nrows - 1];
	err_msg("cp: copy failed: '%s': %s", j->dst, row->error ? row->error : strerror(-err));
}

const struct workload workload_cp = {
	.name = "cp",
	.summary = "copy a file as cp does, timing the copy",
	.synopsis = "[OPTION]... SRC DST",
	.help = "Copy SRC to DST as cp(1) does (DST may be a directory), timing the copy.\n\n"
		"options:\n",
	.opts = cp_opt_table,
	.cfg_size = sizeof(struct cp_cmd),
	.flags = WORKLOAD_F_VERIFY,
	.init = cp_init,
	.operands = cp_operands,
	.validate = cp_validate,
	.next_repeat = cp_next_repeat,
	.run = cp_wl_run,
	.report = cp_report,
};
