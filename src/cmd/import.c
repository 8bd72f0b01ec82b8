/* import.c - `iobattery import FILE...`: read what Bonnie++, PostMark, dd, psql and time
 * printed (src/import/) and keep each record in the results store, marked imported, so
 * that compare and report take old and new runs alike; with -o DIR also as result files
 * there (never in the current directory unasked). One line per run, then a summary. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/rfile.h"
#include "core/textsafe.h"
#include "fs/scratch.h"
#include "import/import.h"
#include "output/output.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"
#include "store/store.h"

struct import_opts {
	const char *output_dir;		/* NULL: no result files */
	const char *label;
	int no_store;
	int no_files;
	int verbose;			/* a line per run and per skipped line */
};

/* What became of the runs, for the summary line. */
struct import_tally {
	unsigned stored, stored_before, files, files_before;
	long long id_lo, id_hi;		/* the store ids the runs have */
};

static const struct opt import_opt_table[] = {
	{ "output-dir", 'o', OPT_STR, offsetof(struct import_opts, output_dir), "DIR",
	  "also write each run as DIR/iobattery-import-ID.json (default: the store only)" },
	{ "label", 0, OPT_STR, offsetof(struct import_opts, label), "TEXT",
	  "a label stored with every imported run" },
	{ "no-store", 0, OPT_FLAG, offsetof(struct import_opts, no_store), NULL,
	  "do not save the runs in the results store" },
	{ "no-files", 0, OPT_FLAG, offsetof(struct import_opts, no_files), NULL,
	  "write no result files, even with -o (the default without -o)" },
	{ "verbose", 'v', OPT_FLAG, offsetof(struct import_opts, verbose), NULL,
	  "a line per run imported and per line skipped (default: one summary line)" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void import_usage(FILE *f, const struct opt_group *g)
{
	fprintf(f, "usage: iobattery import [OPTION]... FILE...\n"
		   "Read Bonnie++ CSV lines (1.03, 1.9x, 2.0x), PostMark reports, dd's closing\n"
		   "lines, psql's command tags and time output (also inside quoted mail) into\n"
		   "runs marked imported, and save them in the results store ($IOBATTERY_DB,\n"
		   "else ~/.local/share/iobattery/results.db); with -o DIR also as result files\n"
		   "there. A time record after a dd or a psql belongs to that run, and a run\n"
		   "takes its label from the paste's latest heading (a Subject: line, a line\n"
		   "naming a system or file system) unless --label is given. Lines that cannot\n"
		   "be read are counted and skipped. A result file of ours (JSON) is saved in\n"
		   "the store as it is. One summary line; --verbose adds a line per run and\n"
		   "per skipped line.\n\noptions:\n");
	opt_help(f, g, 1);
}

/* Write text to DIR/iobattery-import-ID.json, never over an existing file.
 * 0, -EEXIST (already there: the same record, as ids are content hashes) or -errno. */
static int write_new(const char *path, const char *text)
{
	size_t len = strlen(text), off = 0;
	ssize_t n;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	while (off < len) {
		n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		unlink(path);
	return rc;
}

/* The id as a file name: letters, digits, '.', '_' and '-' kept, every other byte '_',
 * a leading '.' too, so that no id ("x/../../escaped", "..", "") leaves DIR or names a
 * hidden file. Returns buf. */
static char *id_file_name(char *buf, size_t len, const char *id)
{
	size_t i, n = 0;

	for (i = 0; id && id[i] && n + 1 < len && n < 128; i++) {
		unsigned char c = (unsigned char)id[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '-' || (c == '.' && n);

		buf[n++] = ok ? (char)c : '_';
	}
	if (n == 0 && len > 7)
		n = (size_t)snprintf(buf, len, "no-id");
	buf[n] = '\0';
	return buf;
}

static void describe(char *buf, size_t len, const struct run *r)
{
	const char *from = kv_get(&r->options, RK_IMPORT_IMPORTED_FROM);

	if (!(r->flags & RUN_IMPORTED)) {
		snprintf(buf, len, "result of %s run %s", r->workload ? r->workload : "a",
			 r->id ? r->id : "?");
		return;
	}
	snprintf(buf, len, "%s%s%s%s from %s", r->env.tool_version ? r->env.tool_version :
		 r->workload, r->env.host ? " '" : "", r->env.host ? r->env.host : "",
		 r->env.host ? "'" : "", from ? from : "?");
}

/* Keep one run: its file (with -o) and its store entry. Returns 0 or 1 (failed). */
static int keep(const struct import_opts *o, struct store *st, struct run *r,
		struct import_tally *t)
{
	char path[PATH_MAX], what[512], err[512], where[PATH_MAX + 64] = "", name[160];
	char *json;
	int64_t id;
	int rc, failed = 0;

	if (o->label && str_set(&r->label, o->label) < 0)
		return 1;
	describe(what, sizeof(what), r);
	if (o->output_dir && !o->no_files) {
		json = result_json_dump(r);
		snprintf(path, sizeof(path), "%s/iobattery-import-%s.json", o->output_dir,
			 id_file_name(name, sizeof(name), r->id));
		rc = json ? write_new(path, json) : -ENOMEM;
		free(json);
		if (rc == 0 || rc == -EEXIST) {
			snprintf(where, sizeof(where), " -> %s%s", path,
				 rc == -EEXIST ? " (already there)" : "");
			t->files += rc == 0;
			t->files_before += rc == -EEXIST;
		} else {
			err_errno(rc, "import: cannot write: '%s'", path);
			failed = 1;
		}
	}
	if (st) {
		rc = store_put(st, r, &id, err, sizeof(err));
		if (rc == 0 || rc == -EEXIST) {
			snprintf(where + strlen(where), sizeof(where) - strlen(where),
				 ", store id %lld%s", (long long)id,
				 rc == -EEXIST ? " (already stored)" : "");
			t->stored += rc == 0;
			t->stored_before += rc == -EEXIST;
			if (!t->id_lo || id < t->id_lo)
				t->id_lo = id;
			if (id > t->id_hi)
				t->id_hi = id;
		} else {
			err_msg("import: cannot save in the store: '%s': %s", r->id, err);
			failed = 1;
		}
	}
	/* after a failure the message said what was not kept: no "imported:" line */
	if (!failed && o->verbose) {
		/* the tool version and host came from the file: escaped for the terminal */
		char *safe = textsafe_term(what);

		printf("imported: %s%s\n", safe ? safe : "?", where);
		free(safe);
	}
	return failed;
}

/* "import: 21 runs read from 10 files (4 lines skipped): 20 saved in the store, 1
 * already there; 21 result files written in DIR" */
static void summary(const struct import_opts *o, const struct import_set *set, int nfiles,
		    size_t kept, const struct import_tally *t)
{
	printf("import: %zu run%s read from %d file%s", set->n, set->n == 1 ? "" : "s", nfiles,
	       nfiles == 1 ? "" : "s");
	if (set->skipped)
		printf(" (%u line%s skipped)", set->skipped, set->skipped == 1 ? "" : "s");
	if (kept < set->n)
		printf(", %zu kept", kept);
	if (!o->no_store)
		printf(": %u saved in the store, %u already there", t->stored, t->stored_before);
	if (!o->no_store && t->id_hi)
		printf(t->id_lo == t->id_hi ? " (store id %lld)" : " (store ids %lld-%lld)",
		       t->id_lo, t->id_hi);
	else
		printf(": not saved in the store (--no-store)");
	if (o->output_dir && !o->no_files)
		printf("; %u result file%s written in %s, %u already there", t->files,
		       t->files == 1 ? "" : "s", o->output_dir, t->files_before);
	else if (o->no_store)
		printf("; no result files (give -o DIR): nothing was kept");
	printf("\n");
}

static struct store *open_store(void)
{
	char path[PATH_MAX], err[512];
	struct store *st;

	if (store_default_path(path, sizeof(path)) < 0) {
		err_msg("import: no results store: set IOBATTERY_DB or HOME, or use --no-store");
		return NULL;
	}
	st = store_open(path, 1, err, sizeof(err));
	if (!st)
		err_msg("import: cannot open the results store: '%s': %s", path, err);
	return st;
}

/* Does the file start with '{' (one of our result files rather than a legacy output)?
 * Only a regular file is looked into (a FIFO would block); anything else is left to
 * import_file, which refuses it with the reason. */
static int is_json(const char *path)
{
	char buf[256];
	ssize_t n;
	int fd = rfile_open(path, 0), i = 0;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (i < n && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t' || buf[i] == '\r'))
		i++;
	return i < n && buf[i] == '{';
}


/* One of our result files: kept as it is (not marked imported: we measured it). */
static int add_result_file(struct import_set *set, const char *path)
{
	struct run *run = results_load(path, 0);

	if (!run)
		return -EINVAL;
	return import_set_add(set, run);
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o = { NULL, NULL, 0, 0, 0 };
	struct import_tally tally = { 0 };
	struct opt_group g = { import_opt_table, &o };
	struct import_set set = { 0 };
	struct store *st = NULL;
	char **ops = NULL;
	int n, i, status = EXIT_OK;
	size_t k;

	n = opt_parse(&g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		import_usage(stdout, &g);
		free(ops);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (n == 0) {
		err_msg("import: missing operand: give the files to read");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK && o.output_dir && !o.no_files &&
	    access(o.output_dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "import: cannot write in directory: '%s'", o.output_dir);
		status = EXIT_USAGE;
	}
	set.verbose = o.verbose;
	/* read everything first: a file that cannot be read means nothing is written */
	for (i = 0; i < n && status == EXIT_OK; i++) {
		int rc = is_json(ops[i]) ? add_result_file(&set, ops[i]) :
			 import_file(&set, ops[i], stderr);

		if (rc == -ENOMEM) {
			err_msg("import: out of memory");
			status = EXIT_FAILED;
		} else if (rc < 0) {
			status = EXIT_USAGE;
		}
	}
	if (status == EXIT_OK && set.n == 0) {
		err_msg("import: nothing to import: no Bonnie++ CSV line, PostMark report, dd or "
			"time output found");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK && !o.no_store && !(st = open_store()))
		status = EXIT_USAGE;
	for (k = 0; k < set.n && status == EXIT_OK; k++) {
		/* between runs only: a run is stored whole or not at all */
		if (sig_stop_requested()) {
			err_msg("import: interrupted: %zu of %zu runs kept", k, set.n);
			status = EXIT_SIGNAL;
		} else if (keep(&o, st, set.runs[k], &tally)) {
			status = EXIT_FAILED;
		}
	}
	if (set.n && (status == EXIT_OK || k > 0))
		summary(&o, &set, n, k, &tally);
	store_close(st);
	import_set_free(&set);
	free(ops);
	if (fflush(stdout) != 0 && status == EXIT_OK)
		status = EXIT_FAILED;
	return status;
}
