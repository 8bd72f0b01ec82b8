/* common.c - options and output shared by every measuring subcommand. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/sample_opts.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "engine/engine.h"
#include "output/output.h"
#include "stats/compare.h"
#include "stats/result.h"
#include "stats/result_sys.h"
#include "store/store.h"

void common_init(struct common_opts *co)
{
	memset(co, 0, sizeof(*co));
	co->format = "text";
	co->engine = "psync";
	co->repeat = 1;
	co->interval = "1s";
	co->sample_interval = "100ms";
}

/* Call fn for each name in the comma list; stop at the first nonzero return. */
static int each_format(const char *list, int (*fn)(const char *name, void *arg), void *arg)
{
	char buf[64];
	const char *p = list, *comma;
	int rc;

	for (;;) {
		size_t len;

		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || len >= sizeof(buf)) {
			err_msg("bad --format list: '%s'", list);
			return -EINVAL;
		}
		memcpy(buf, p, len);
		buf[len] = 0;
		rc = fn(buf, arg);
		if (rc)
			return rc;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int check_format(const char *name, void *arg)
{
	(void)arg;
	if (!out_find(name)) {
		err_msg("unknown output format: '%s': use text, json, csv, fio-json or fio-json+",
			name);
		return -EINVAL;
	}
	return 0;
}

int common_units(const char *units)
{
	if (!units || !strcmp(units, "decimal")) {
		out_text_set_units(0);
		return 0;
	}
	if (!strcmp(units, "binary")) {
		out_text_set_units(1);
		return 0;
	}
	err_msg("bad value for --units: '%s': use decimal (MB/s) or binary (MiB/s)", units);
	return -EINVAL;
}

int common_validate(const struct common_opts *co, const struct engine **eng)
{
	const struct engine *e;
	struct stat st;
	char err[PATH_MAX + 128];
	int rc;

	rc = each_format(co->format, check_format, NULL);
	if (rc)
		return rc;
	rc = common_units(co->units);
	if (rc)
		return rc;
	if (co->output_dir) {
		if (stat(co->output_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			err_msg("output directory does not exist: '%s'", co->output_dir);
			return -EINVAL;
		}
		if (access(co->output_dir, W_OK | X_OK) < 0) {
			err_errno(-errno, "output directory not writable: '%s'", co->output_dir);
			return -EINVAL;
		}
	}
	if (co->repeat < 1) {
		err_msg("bad value for --repeat: '0': must be at least 1");
		return -EINVAL;
	}
	if (!co->no_store && store_check_place(err, sizeof(err)) < 0) {
		err_msg("results store: %s: use --no-store to skip it", err);
		return -EINVAL;
	}
	if (sample_opts_check(co) < 0)
		return -EINVAL;
	e = engine_find(co->engine);
	if (!e) {
		const char *why = engine_absent(co->engine);
		char names[128];

		if (why)
			err_msg("engine not available: '%s': %s", co->engine, why);
		else
			err_msg("unknown engine: '%s': use one of %s", co->engine,
				engine_names(names, sizeof(names)));
		return -EINVAL;
	}
	if (e->probe && (rc = e->probe()) < 0) {
		const char *hint = engine_hint(e, NULL, rc);

		if (hint)
			err_msg("engine cannot run here: '%s': %s: %s", e->name, strerror(-rc),
				hint);
		else
			err_errno(rc, "engine cannot run here: '%s'", e->name);
		return -EINVAL;
	}
	if (eng)
		*eng = e;
	return 0;
}

int common_prepare_run(struct run *run, const struct common_opts *co, int argc, char **argv,
		       const struct opt_group *g, int ng, const char *target)
{
	char **full = calloc((size_t)argc + 2, sizeof(*full));
	char name[] = "iobattery";
	int i, rc;

	if (!full)
		return -ENOMEM;
	/* argv here is the subcommand's: put the program name back for the record. */
	full[0] = name;
	for (i = 0; i < argc; i++)
		full[i + 1] = argv[i];
	rc = run_set_cmdline(run, argc + 1, full);
	free(full);
	if (rc || str_set(&run->label, co->label) || opt_record(g, ng, &run->options) ||
	    sysinfo_fill(&run->env, target))
		return -ENOMEM;
	return 0;
}

struct emit_ctx {
	const struct common_opts *co;
	struct run *run;
	unsigned flags;
};

/* Write one format to DIR/iobattery-results.EXT through a temporary file and rename, so a
 * reader never sees half a file. */
static int emit_file(const struct out_fmt *f, const struct emit_ctx *c)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *fp;
	int rc, fd;

	snprintf(path, sizeof(path), "%s/iobattery-results.%s", c->co->output_dir, f->ext);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!fp) {
		rc = -errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		err_errno(rc, "cannot write results: '%s'", tmp);
		return rc;
	}
	rc = out_write(f, fp, c->run);
	/* on stable storage before the rename makes it the result file */
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (fclose(fp) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc) {
		unlink(tmp);
		err_errno(rc, "cannot write results: '%s'", path);
	}
	return rc;
}

static int emit_one(const char *name, void *arg)
{
	const struct emit_ctx *c = arg;
	const struct out_fmt *f = out_find(name);
	int rc;

	if (c->co->output_dir) {
		rc = emit_file(f, c);
		if (rc || f != &out_text || c->co->quiet)
			return rc;
	}
	rc = out_write(f, stdout, c->run);
	/* only with repeats: a single run's text stays what the original tool printed
	 * (PostMark's terse line, dd's closing lines) */
	if (!rc && f == &out_text && c->co->repeat > 1 && !(c->flags & COMMON_OWN_REPEATS))
		rc = out_text_repeats(stdout, c->run);
	if (rc)
		err_errno(rc, "cannot write results to standard output");
	return rc;
}

void common_mark(struct run *run, const struct common_opts *co, struct workload_ctx *x)
{
	if (sig_stop_requested())
		run->flags |= RUN_INCOMPLETE;
	/* the one place where the inconsistency rule (stats/compare.h) is applied */
	if (co->repeat > 1)
		compare_flag_inconsistent(run);
	/* and the flags from what the system did (stats/result_sys.h) */
	result_sys_flag_run(run);
	/* and the ceilings, after those flags (which decide whether the link applies) */
	ceilings_apply_run(run, x);
}

int common_write(struct run *run, const struct common_opts *co, unsigned flags)
{
	struct emit_ctx c = { co, run, flags };
	int rc = each_format(co->format, emit_one, &c);

	if (sample_write_series(run, co) < 0 && !rc)
		rc = -EIO;
	return rc;
}

/* A store that cannot be written is reported but does not fail the measurement (the
 * figures are already out). */
void common_store(const struct run *run, const struct common_opts *co)
{
	char err[512];
	int rc;

	if (co->no_store)
		return;
	rc = store_save_run(run, err, sizeof(err));
	if (rc < 0 && rc != -EEXIST)
		err_msg("cannot save in the results store: %s (use --no-store to skip it)", err);
}

int common_emit(struct run *run, const struct common_opts *co)
{
	int rc;

	common_mark(run, co, NULL);
	rc = common_write(run, co, 0);
	common_store(run, co);
	return rc;
}

int common_exit_status(const struct run *run)
{
	size_t i;
	int failed = 0;

	if (run->flags & RUN_INCOMPLETE || sig_stop_requested())
		return EXIT_SIGNAL;
	for (i = 0; i < run->nrows; i++) {
		if (run->rows[i]->flags & ROW_INCOMPLETE)
			return EXIT_SIGNAL;
		if (run->rows[i]->flags & ROW_FAILED)
			failed = 1;
	}
	return failed ? EXIT_FAILED : EXIT_OK;
}
