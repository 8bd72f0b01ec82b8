/* report.c - `iobattery report -o report.html RESULTS...`: one self-contained HTML file
 * (output/html.c) for result files, store ids or labels. Written to a temporary file
 * beside the output and renamed, so that a failure leaves nothing half-written. */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/err.h"
#include "core/opt.h"
#include "output/html.h"
#include "output/verdict_out.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"

#define REPORT_MARK "<!DOCTYPE html>\n<!-- iobattery report -->"

struct report_opts {
	const char *output;
	const char *title;
	int no_store;
	int force;
	const char *baseline;
	int open;
};

static const struct opt report_opt_table[] = {
	{ "output", 'o', OPT_STR, offsetof(struct report_opts, output), "FILE",
	  "the HTML file to write (default iobattery-report.html)" },
	{ "title", 0, OPT_STR, offsetof(struct report_opts, title), "TEXT",
	  "the report's title" },
	{ "no-store", 0, OPT_FLAG, offsetof(struct report_opts, no_store), NULL,
	  "take only result files, never store ids or labels" },
	{ "force", 0, OPT_FLAG, offsetof(struct report_opts, force), NULL,
	  "overwrite FILE even when it is not a report iobattery wrote" },
	{ "baseline", 0, OPT_STR, offsetof(struct report_opts, baseline), "NAME",
	  "battery runs: the configuration (ext4) or run the others are compared with" },
	{ "open", 0, OPT_FLAG, offsetof(struct report_opts, open), NULL,
	  "open the report in the desktop's browser (xdg-open) where there is a display" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void report_usage(FILE *f, const struct opt_group *g)
{
	fprintf(f, "usage: iobattery report [-o FILE] [OPTION]... RESULT...\n"
		   "Write one self-contained HTML file (inline CSS and SVG, nothing fetched)\n"
		   "for the runs given as result files, store ids or labels: the grouped\n"
		   "table, bar charts with 95%% confidence intervals, latency percentiles,\n"
		   "flags, the comparison with the first run, and each run's environment.\n"
		   "It opens with the answer for a database server: per aspect (commits,\n"
		   "random reads, the SQL script, bulk load, scans, small files) which\n"
		   "configuration leads, by how much and whether significantly, or the\n"
		   "command that would decide; then a summary of what can be trusted.\n"
		   "Given several runs it prints that answer here too.\n\n"
		   "options:\n");
	opt_help(f, g, 1);
}

/* May we write path? A missing file or one of our reports, or --force. */
static int may_write(const char *path, int force)
{
	char head[sizeof(REPORT_MARK)];
	struct stat st;
	FILE *f;
	size_t n;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode)) {
		err_msg("report: not a regular file: '%s'", path);
		return -EINVAL;
	}
	if (force)
		return 0;
	f = fopen(path, "r");
	n = f ? fread(head, 1, sizeof(head) - 1, f) : 0;
	if (f)
		fclose(f);
	head[n] = '\0';
	if (strcmp(head, REPORT_MARK)) {
		err_msg("report: refusing to overwrite a file that is not an iobattery report: "
			"'%s': use --force", path);
		return -EEXIST;
	}
	return 0;
}

static int write_report(const char *path, struct run **runs, char **names, size_t n,
			const char *title, const char *baseline)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return rc;
	}
	errno = 0;
	rc = html_report_baseline(f, runs, (const char *const *)names, n, title, baseline);
	/* a failed write shows as -EIO (the stream's error flag); why it failed (ENOSPC on a
	 * full file system) is the errno of the write, when the stream's buffer was the one
	 * that failed, or of the flush, when it is the last piece */
	if (rc == -EIO && ferror(f) && errno && errno != EIO)
		rc = -errno;
	if (fflush(f) != 0 && (rc == 0 || rc == -EIO))
		rc = errno ? -errno : -EIO;
	/* on stable storage before it replaces the old report */
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (rc == 0 && fchmod(fd, 0644) < 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0)
		unlink(tmp);
	return rc;
}

extern char **environ;

/* Start xdg-open on the report where there is a display (X11 or Wayland), without waiting
 * for the browser; else say where the report is. 0, or -errno when it cannot start. */
static int open_report(const char *path)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
	char full[PATH_MAX], prog[] = "xdg-open";
	char *args[3] = { prog, full, NULL };
	pid_t pid;
	int rc;

	if (!(x && *x) && !(w && *w)) {
		printf("report: no display (DISPLAY and WAYLAND_DISPLAY are not set): open '%s' "
		       "in a browser\n", path);
		return 0;
	}
	if (path[0] == '/')
		snprintf(full, sizeof(full), "%s", path);
	else if (!getcwd(full, sizeof(full)) ||
		 strlen(full) + strlen(path) + 2 > sizeof(full)) {
		err_errno(-ENAMETOOLONG, "report: cannot open: '%s'", path);
		return -ENAMETOOLONG;
	} else
		snprintf(full + strlen(full), sizeof(full) - strlen(full), "/%s", path);
	fflush(stdout);
	rc = posix_spawnp(&pid, prog, NULL, NULL, args, environ);
	if (rc) {
		err_errno(-rc, "report: cannot start the browser: '%s'", prog);
		return -rc;
	}
	printf("report: opening with %s\n", prog);
	return 0;
}

/* A run for the report. Its latency histograms are merged only across repeats (a figure
 * of one repeat shows the percentiles the run stored, which came from the same
 * histogram): a run without repeats is read without them, which halves what a large
 * result (iozone's grid) takes in memory; one with repeats is read again whole. */
static struct run *report_load(const char *spec, int use_store)
{
	struct run *run = results_load_flags(spec, use_store, RESULT_LOAD_NO_HIST);
	size_t i;

	for (i = 0; run && i < run->nrows; i++) {
		if (run->rows[i]->repeat > 0) {
			run_free(run);
			return results_load(spec, use_store);
		}
	}
	return run;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { "iobattery-report.html", NULL, 0, 0, NULL, 0 };
	struct opt_group g = { report_opt_table, &o };
	struct run **runs = NULL;
	char **ops = NULL;
	int n, i, rc, status = EXIT_OK;

	n = opt_parse(&g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		report_usage(stdout, &g);
		free(ops);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (n == 0) {
		err_msg("report: missing operand: give result files, store ids or labels");
		free(ops);
		return EXIT_USAGE;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	if (!runs) {
		free(ops);
		return EXIT_FAILED;
	}
	for (i = 0; i < n && status == EXIT_OK; i++)
		if (!(runs[i] = report_load(ops[i], !o.no_store)))
			status = EXIT_USAGE;
	if (status == EXIT_OK && may_write(o.output, o.force) < 0)
		status = EXIT_USAGE;
	if (status == EXIT_OK && n >= 2)	/* several runs: the answer on the terminal too */
		out_text_verdict(stdout, runs, (const char *const *)ops, (size_t)n);
	if (status == EXIT_OK) {
		rc = write_report(o.output, runs, ops, (size_t)n, o.title, o.baseline);
		if (rc == -ENOENT && o.baseline) {
			err_msg("report: --baseline names no configuration or run: '%s'",
				o.baseline);
			status = EXIT_USAGE;
		} else if (rc < 0) {
			err_errno(rc, "report: cannot write: '%s'", o.output);
			status = rc == -ENOENT || rc == -EACCES ? EXIT_USAGE : EXIT_FAILED;
		} else {
			printf("report: %s\n", o.output);
			if (o.open && open_report(o.output) < 0)
				status = EXIT_FAILED;
		}
	}
	for (i = 0; i < n; i++)
		run_free(runs[i]);
	free(runs);
	free(ops);
	return status;
}
