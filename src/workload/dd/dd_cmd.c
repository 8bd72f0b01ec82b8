/* dd_cmd.c - `iobattery dd`: dd's operands, validated before any I/O; the descriptor of the
 * dd workload (workload/dd/dd.c) for the driver (cmd/workload_cmd.c). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "comm/comm.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "stats/result.h"
#include "workload/dd/dd.h"
#include "runner/runner.h"
#include "workload/workload.h"

#define DD_MAX_BS (1ull << 30)

struct dd_opts {
	const char *data;	/* zero | random */
	int overwrite;
	int drop_cache;
	int no_space_check;
	uint64_t seed;
};

/* The config the driver allocates. */
struct dd_cmd {
	struct dd_opts o;
	struct dd_job j;
	char target[PATH_MAX];
	char in_rank[PATH_MAX], out_rank[PATH_MAX];	/* NAME.RANK under mpirun */
};

static const struct opt dd_opt_table[] = {
	{ "data", 0, OPT_STR, offsetof(struct dd_cmd, o.data), "zero|random",
	  "bytes written for generated input (default zero for if=/dev/zero)" },
	{ "overwrite", 0, OPT_FLAG, offsetof(struct dd_cmd, o.overwrite), NULL,
	  "allow of= to name an existing file iobattery did not create" },
	{ "drop-cache", 0, OPT_FLAG, offsetof(struct dd_cmd, o.drop_cache), NULL,
	  "drop the input file's pages from the page cache before reading" },
	{ "no-space-check", 0, OPT_FLAG, offsetof(struct dd_cmd, o.no_space_check), NULL,
	  "skip the free-space check before writing" },
	{ "seed", 0, OPT_U64, offsetof(struct dd_cmd, o.seed), "N",
	  "seed for --data random (default 1)" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static const char dd_help[] =
	"Write or read a file as dd(1) does, timing every call.\n\n"
	"operands (dd's):\n"
	"  if=FILE      read FILE (if=/dev/zero: generated zeros, not read)\n"
	"  of=FILE      write FILE (new, or made by iobattery; of=/dev/null: read test)\n"
	"  bs=N         read and write N bytes at a time (sets ibs and obs)\n"
	"  ibs=N obs=N  input and output block sizes (default 512)\n"
	"  count=N      copy N input blocks (required for generated input)\n"
	"  seek=N skip=N  skip N output / input blocks\n"
	"  conv=LIST    fdatasync, fsync (timed, as dd), notrunc\n"
	"  oflag=LIST   direct, dsync, sync;  iflag=LIST: direct\n"
	"N takes dd's suffixes: c=1 w=2 b=512 kB=1000 K=1024 MB M GB G TB T, and AxB.\n\n"
	"options:\n";

/* Parse "a,b,c" against names[] into bits. Returns 0 or -EINVAL (message printed). */
static int parse_flags(const char *key, const char *val, const char *const *names,
		       const unsigned *bits, unsigned *out)
{
	const char *p = val;

	while (*p) {
		size_t len = strcspn(p, ",");
		int i, found = 0;

		for (i = 0; names[i]; i++)
			if (strlen(names[i]) == len && !strncmp(names[i], p, len)) {
				*out |= bits[i];
				found = 1;
			}
		if (!found) {
			err_msg("dd: invalid %s flag: '%.*s'", key, (int)len, p);
			return -EINVAL;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int parse_number(const char *key, const char *val, uint64_t *out, int nonzero)
{
	int rc = units_parse_dd(val, out);

	if (rc || (nonzero && *out == 0)) {
		err_msg("dd: invalid number: '%s=%s'%s", key, val,
			rc == -ERANGE ? ": too large" :
			nonzero && !rc ? ": must be at least 1" : "");
		return -EINVAL;
	}
	return 0;
}

static int parse_operand(struct dd_job *j, const char *arg)
{
	static const char *const conv_n[] = { "fdatasync", "fsync", "notrunc", NULL };
	static const unsigned conv_b[] = { DD_CONV_FDATASYNC, DD_CONV_FSYNC, DD_CONV_NOTRUNC };
	static const char *const oflag_n[] = { "direct", "dsync", "sync", NULL };
	static const unsigned oflag_b[] = { DD_FLAG_DIRECT, DD_FLAG_DSYNC, DD_FLAG_SYNC };
	static const char *const iflag_n[] = { "direct", NULL };
	static const unsigned iflag_b[] = { DD_FLAG_DIRECT };
	const char *eq = strchr(arg, '=');
	char key[16];
	size_t klen;
	uint64_t v;

	if (!eq || (klen = (size_t)(eq - arg)) == 0 || klen >= sizeof(key)) {
		err_msg("dd: unrecognized operand: '%s'", arg);
		return -EINVAL;
	}
	memcpy(key, arg, klen);
	key[klen] = 0;
	eq++;
	if (!strcmp(key, "if") || !strcmp(key, "of")) {
		if (!*eq) {
			err_msg("dd: empty file name: '%s'", arg);
			return -EINVAL;
		}
		*(key[0] == 'i' ? &j->in : &j->out) = eq;
		return 0;
	}
	if (!strcmp(key, "bs") || !strcmp(key, "ibs") || !strcmp(key, "obs")) {
		if (parse_number(key, eq, &v, 1))
			return -EINVAL;
		if (v > DD_MAX_BS) {
			err_msg("dd: block size too large: '%s': at most 1 GiB", arg);
			return -EINVAL;
		}
		if (key[0] != 'o')
			j->ibs = v;
		if (key[0] != 'i')
			j->obs = v;
		return 0;
	}
	if (!strcmp(key, "count"))
		return parse_number(key, eq, &j->count, 0);
	if (!strcmp(key, "seek"))
		return parse_number(key, eq, &j->seek, 0);
	if (!strcmp(key, "skip"))
		return parse_number(key, eq, &j->skip, 0);
	if (!strcmp(key, "conv"))
		return parse_flags(key, eq, conv_n, conv_b, &j->conv);
	if (!strcmp(key, "oflag"))
		return parse_flags(key, eq, oflag_n, oflag_b, &j->oflag);
	if (!strcmp(key, "iflag"))
		return parse_flags(key, eq, iflag_n, iflag_b, &j->iflag);
	err_msg("dd: unrecognized operand: '%s'", arg);
	return -EINVAL;
}

/* Decide what the input is. 0 or -EINVAL. */
static int check_input(struct dd_job *j, const struct dd_opts *o)
{
	struct stat st;

	if (!j->in)
		j->in = "/dev/stdin";
	if (!strcmp(j->in, "/dev/zero") || !strcmp(j->in, "/dev/urandom") ||
	    !strcmp(j->in, "/dev/random")) {
		j->src = j->in[5] == 'z' ? DD_SRC_ZERO : DD_SRC_RANDOM;
		j->in = NULL;
	}
	if (o->data) {
		if (strcmp(o->data, "zero") && strcmp(o->data, "random")) {
			err_msg("dd: bad --data: '%s': use zero or random", o->data);
			return -EINVAL;
		}
		if (j->src == DD_SRC_FILE) {
			err_msg("dd: --data needs generated input (if=/dev/zero)");
			return -EINVAL;
		}
		j->src = o->data[0] == 'z' ? DD_SRC_ZERO : DD_SRC_RANDOM;
	}
	if (j->src != DD_SRC_FILE) {
		if (j->count == UINT64_MAX) {
			err_msg("dd: count= is required with generated input (if=/dev/zero)");
			return -EINVAL;
		}
		return 0;
	}
	if (stat(j->in, &st) < 0 || access(j->in, R_OK) < 0) {
		err_errno(-errno, "dd: cannot read input: '%s'", j->in);
		return -EINVAL;
	}
	if (S_ISDIR(st.st_mode)) {
		err_msg("dd: input is a directory: '%s'", j->in);
		return -EINVAL;
	}
	/* a socket cannot be read as dd reads; a FIFO is read as dd reads it (a pipe from
	 * another program), but its open waits for a writer: say so, so that the wait is
	 * never silent (a stop signal ends it, exit 130) */
	if (S_ISSOCK(st.st_mode)) {
		err_msg("dd: input is a socket: '%s': not read", j->in);
		return -EINVAL;
	}
	if (S_ISFIFO(st.st_mode))
		err_msg("dd: input is a FIFO: '%s': waiting for a writer (Ctrl-C stops)", j->in);
	return 0;
}

/* Decide what the output is and whether we may write it. 0 or -EINVAL. */
static int check_output(struct dd_job *j, const struct dd_opts *o)
{
	char dirbuf[PATH_MAX];
	struct stat st;
	const char *dir;
	uint64_t need, avail;

	if (!j->out) {
		err_msg("dd: of= is required (iobattery does not write to standard output)");
		return -EINVAL;
	}
	if (!strcmp(j->out, "/dev/null")) {
		if (j->src != DD_SRC_FILE) {
			err_msg("dd: nothing to measure: generated input and of=/dev/null");
			return -EINVAL;
		}
		j->dst = DD_DST_NULL;
		return 0;
	}
	snprintf(dirbuf, sizeof(dirbuf), "%s", j->out);
	dir = dirname(dirbuf);
	if (access(dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "dd: cannot write in directory: '%s'", dir);
		return -EINVAL;
	}
	if (lstat(j->out, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			err_msg("dd: refusing to follow a symbolic link: '%s'", j->out);
			return -EINVAL;
		}
		if (S_ISDIR(st.st_mode)) {
			err_msg("dd: output is a directory: '%s'", j->out);
			return -EINVAL;
		}
		if (!S_ISREG(st.st_mode)) {
			err_msg("dd: refusing to write a device or special file: '%s'", j->out);
			return -EINVAL;
		}
		if (is_marked(j->out) != 1 && !o->overwrite) {
			err_msg("dd: refusing to overwrite a file iobattery did not create: '%s': "
				"use --overwrite%s", j->out, mark_hint());
			return -EINVAL;
		}
		j->out_exists = 1;
	} else if (errno != ENOENT) {
		err_errno(-errno, "dd: cannot use output: '%s'", j->out);
		return -EINVAL;
	}
	if (o->no_space_check || j->count == UINT64_MAX)
		return 0;
	need = j->count * j->ibs;
	if (space_check(dir, need, &avail) == -ENOSPC) {
		char a[32], b[32];

		err_msg("dd: not enough free space: '%s': need %s, %s free", dir,
			units_fmt_bytes(a, sizeof(a), (double)need),
			units_fmt_bytes(b, sizeof(b), (double)avail));
		return -EINVAL;
	}
	return 0;
}

/* skip= and seek= are counted in blocks: the byte offsets they give, and the end of the
 * output (seek plus what is written), must be file offsets (under 2^63), or the offset
 * would wrap and write somewhere else. GNU dd refuses such operands too. 0 or -EINVAL. */
static int check_offsets(const struct dd_job *j)
{
	uint64_t off, len = 0, end;

	if (units_mul_off(j->skip, j->ibs, &off) < 0) {
		err_msg("dd: offset too large: 'skip=%" PRIu64 "': times ibs=%" PRIu64
			" it passes the largest file offset", j->skip, j->ibs);
		return -EINVAL;
	}
	if (units_mul_off(j->seek, j->obs, &off) < 0 ||
	    (j->count != UINT64_MAX && (units_mul_off(j->count, j->ibs, &len) < 0 ||
					units_add_u64(off, len, &end) < 0 ||
					end > (uint64_t)INT64_MAX))) {
		err_msg("dd: offset too large: 'seek=%" PRIu64 "': times obs=%" PRIu64
			" it passes the largest file offset", j->seek, j->obs);
		return -EINVAL;
	}
	return 0;
}

static void dd_init(void *cfg)
{
	struct dd_cmd *d = cfg;

	d->j.ibs = d->j.obs = 512;
	d->j.count = UINT64_MAX;
	d->j.keep_output = 1;
	d->o.seed = 1;
}

static int dd_operands(struct workload_ctx *x, char **ops, int n)
{
	struct dd_cmd *d = x->cfg;
	struct dd_job *j = &d->j;
	int i;

	for (i = 0; i < n; i++)
		if (parse_operand(j, ops[i]) < 0)
			return -EINVAL;
	if (j->count != UINT64_MAX && j->count > UINT64_MAX / j->ibs / 2) {
		err_msg("dd: count=%" PRIu64 " times ibs=%" PRIu64 " is too large", j->count,
			j->ibs);
		return -EINVAL;
	}
	if (check_offsets(j) < 0)
		return -EINVAL;
	j->seed = d->o.seed;
	j->drop_cache = d->o.drop_cache;
	return 0;
}

/* Several ranks: each its own file NAME.RANK, or with --shared-file one file and the
 * segment [rank x count x ibs, +count x ibs) of it; each rank its own random bytes. */
static int rank_paths(struct dd_cmd *d, const struct common_opts *co)
{
	struct dd_job *j = &d->j;
	unsigned r = comm_rank();
	struct stat st;
	int n;

	int file_in = j->in && strncmp(j->in, "/dev/", 5);
	int file_out = j->out && strcmp(j->out, "/dev/null");

	if (!comm_multi())
		return 0;
	j->seed += r;
	if (co->shared_file) {
		j->shared = file_out;
		if (j->count == UINT64_MAX && file_in && stat(j->in, &st) == 0)
			j->count = (uint64_t)st.st_size / j->ibs / comm_size();
		if (j->count == UINT64_MAX) {
			err_msg("dd: --shared-file needs count= (the size of each rank's segment)");
			return -EINVAL;
		}
		j->seg_off = (uint64_t)r * j->count * j->ibs;
		return 0;
	}
	if (file_in) {
		n = snprintf(d->in_rank, sizeof(d->in_rank), "%s.%u", j->in, r);
		if (n < 0 || (size_t)n >= sizeof(d->in_rank))
			return -ENAMETOOLONG;
		j->in = d->in_rank;
	}
	if (file_out) {
		n = snprintf(d->out_rank, sizeof(d->out_rank), "%s.%u", j->out, r);
		if (n < 0 || (size_t)n >= sizeof(d->out_rank))
			return -ENAMETOOLONG;
		j->out = d->out_rank;
	}
	return 0;
}

/* --verify writes blocks that say what they are: generated data, a file from its start. */
static int check_verify(const struct dd_job *j, const struct vhook_cfg *v)
{
	if (!vhook_cfg_on(v))
		return 0;
	if (j->src == DD_SRC_FILE || j->dst != DD_DST_FILE) {
		err_msg("dd: --verify writes verified blocks: it needs generated input "
			"(if=/dev/zero) and an output file");
		return -EINVAL;
	}
	if (j->seek || (j->conv & DD_CONV_NOTRUNC)) {
		err_msg("dd: --verify checks the whole output file: no seek= or conv=notrunc");
		return -EINVAL;
	}
	if (j->obs < VBLOCK_MIN_LEN) {
		err_msg("dd: --verify needs blocks of at least %u bytes: 'obs=%llu'",
			VBLOCK_MIN_LEN, (unsigned long long)j->obs);
		return -EINVAL;
	}
	return 0;
}

/* --verify reads the whole output file back: with --shared-file each rank would find the
 * others' segments as another run's blocks. */
static int check_verify_ranks(const struct dd_job *j, const struct vhook_cfg *v)
{
	if (vhook_cfg_on(v) && j->shared) {
		err_msg("dd: --verify does not check a --shared-file: each rank would read the "
			"other ranks' segments as foreign blocks (use a file per rank)");
		return -EINVAL;
	}
	return 0;
}

static int dd_validate(struct workload_ctx *x)
{
	struct dd_cmd *d = x->cfg;
	struct dd_job *j = &d->j;

	if (rank_paths(d, x->co) < 0 || check_input(j, &d->o) || check_output(j, &d->o) ||
	    check_verify(j, &x->verify) || check_verify_ranks(j, &x->verify))
		return -EINVAL;
	/* The environment is that of the output's directory (the file may not exist yet), or
	 * of the input for a read test. */
	snprintf(d->target, sizeof(d->target), "%s",
		 j->dst == DD_DST_FILE ? j->out : j->in ? j->in : ".");
	x->target = j->dst == DD_DST_FILE ? dirname(d->target) : d->target;
	return 0;
}

/* The next repeat writes over the file this one made (and may remove it). */
static int dd_next_repeat(struct workload_ctx *x, struct runner *rc)
{
	struct dd_job *j = &((struct dd_cmd *)x->cfg)->j;

	(void)rc;
	if (j->dst == DD_DST_FILE && !j->out_exists)
		j->out_exists = j->out_ours = 1;
	return 0;
}

static int dd_wl_run(struct workload_ctx *x, struct runner *rc)
{
	return dd_run(rc, &((struct dd_cmd *)x->cfg)->j);
}

static void dd_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	const struct dd_job *j = &((struct dd_cmd *)x->cfg)->j;
	const struct row *row;

	(void)status;
	if (!err || err == -EINTR || !run->nrows)
		return;
	row = run->rows[run->nrows - 1];
	err_msg("dd: %s failed: '%s': %s%s", row->phase, j->dst == DD_DST_FILE ? j->out : j->in,
		row->error ? row->error : strerror(-err),
		j->dst == DD_DST_FILE && (!j->out_exists || j->out_ours) ?
		"; the output file was removed" : "");
}

const struct workload workload_dd = {
	.name = "dd",
	.summary = "dd-style streaming write or read, with dd's operands",
	.synopsis = "[OPERAND]... [OPTION]...",
	.help = dd_help,
	.opts = dd_opt_table,
	.cfg_size = sizeof(struct dd_cmd),
	.ranks = WL_RANKS_SHARED_FILE | WL_RANKS_STONEWALL | WL_RANKS_WEAROUT,
	.flags = WORKLOAD_F_VERIFY,
	.init = dd_init,
	.operands = dd_operands,
	.validate = dd_validate,
	.next_repeat = dd_next_repeat,
	.run = dd_wl_run,
	.report = dd_report,
};
