/* cp.c - `iobattery cp SRC DST`: the seeds' `time cp tstfile tstfile2`. */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/err.h"
#include "core/scratch.h"
#include "core/units.h"
#include "engine/engine.h"
#include "stats/result.h"
#include "workload/copy.h"
#include "runner/runner.h"

struct cp_opts {
	const char *method;
	uint64_t buffer;
	int overwrite;
	int no_space_check;
};

static const struct opt cp_opt_table[] = {
	{ "method", 0, OPT_STR, offsetof(struct cp_opts, method), "M",
	  "auto (copy_file_range, else rw; as cp), rw, copy_file_range, sendfile" },
	{ "buffer", 0, OPT_SIZE, offsetof(struct cp_opts, buffer), "SIZE",
	  "bytes per call: the rw buffer (default 128k, as cp)" },
	{ "overwrite", 0, OPT_FLAG, offsetof(struct cp_opts, overwrite), NULL,
	  "allow DST to be an existing file iobattery did not create" },
	{ "no-space-check", 0, OPT_FLAG, offsetof(struct cp_opts, no_space_check), NULL,
	  "skip the free-space check before copying" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void cp_usage(FILE *f, const struct opt_group *g, int ng)
{
	fprintf(f, "usage: iobattery cp [OPTION]... SRC DST\n"
		   "Copy SRC to DST as cp(1) does (DST may be a directory), timing the copy.\n\n"
		   "options:\n");
	opt_help(f, g, ng);
}

/* Resolve DST (a directory means DST/basename(SRC)) and check we may write it. */
static int check_dst(struct copy_job *j, const struct cp_opts *o, char *dstbuf, size_t len,
		     uint64_t need)
{
	char tmp[PATH_MAX], base[PATH_MAX];
	struct stat st;
	const char *dir;
	uint64_t avail;

	if (stat(j->dst, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(base, sizeof(base), "%s", j->src);
		snprintf(dstbuf, len, "%s/%s", j->dst, basename(base));
		j->dst = dstbuf;
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
				"use --overwrite", j->dst);
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
	struct stat st, dst_st;

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
	if (check_dst(j, o, dstbuf, len, (uint64_t)st.st_size))
		return -EINVAL;
	if (stat(j->dst, &dst_st) == 0 && dst_st.st_dev == st.st_dev &&
	    dst_st.st_ino == st.st_ino) {
		err_msg("cp: source and destination are the same file: '%s'", j->src);
		return -EINVAL;
	}
	return 0;
}

int cmd_cp(int argc, char **argv)
{
	struct common_opts co;
	struct cp_opts o = { NULL, 128 * 1024, 0, 0 };
	struct copy_job j;
	struct opt_group g[2];
	const struct engine *eng;
	struct runner rc = { 0 };
	char **ops = NULL, dstbuf[PATH_MAX], target[PATH_MAX];
	int n, err, status;

	common_init(&co);
	memset(&j, 0, sizeof(j));
	j.method = COPY_AUTO;
	j.keep_output = 1;
	g[0] = (struct opt_group){ cp_opt_table, &o };
	g[1] = (struct opt_group){ common_opt_table, &co };
	n = opt_parse(g, 2, argc, argv, &ops);
	if (n == -ECANCELED) {
		cp_usage(stdout, g, 2);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	err = check_args(&j, &o, ops, n, dstbuf, sizeof(dstbuf));
	free(ops);
	if (err || common_validate(&co, &eng))
		return EXIT_USAGE;
	if (eng->flags & ENGINE_F_NOIO) {
		err_msg("cp: the '%s' engine does no I/O and cannot copy", eng->name);
		return EXIT_USAGE;
	}
	rc.eng = eng;
	rc.progress = !co.quiet;
	rc.run = run_new("cp");
	snprintf(target, sizeof(target), "%s", j.dst);
	if (!rc.run ||
	    common_prepare_run(rc.run, &co, argc, argv, g, 2, dirname(target))) {
		err_msg("cp: out of memory");
		run_free(rc.run);
		return EXIT_FAILED;
	}
	err = 0;
	for (rc.repeat = 0; rc.repeat < co.repeat && !err; rc.repeat++) {
		err = copy_run(&rc, &j);
		/* A repeat copies over the file the previous one made. */
		if (!j.dst_exists)
			j.dst_exists = j.dst_ours = 1;
	}
	common_emit(rc.run, &co);
	status = common_exit_status(rc.run);
	if (err && err != -EINTR && rc.run->nrows) {
		const struct row *row = rc.run->rows[rc.run->nrows - 1];

		err_msg("cp: copy failed: '%s': %s", j.dst,
			row->error ? row->error : strerror(-err));
	}
	run_free(rc.run);
	return status;
}
