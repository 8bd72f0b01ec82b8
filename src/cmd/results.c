/* results.c - `iobattery results list|show|export|delete`: the results store from the
 * command line. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/err.h"
#include "core/opt.h"
#include "output/output.h"
#include "output/termsafe.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"

struct results_opts {
	const char *label;
	const char *host;
	const char *format;
	const char *units;
};

static const struct opt results_opt_table[] = {
	{ "label", 0, OPT_STR, offsetof(struct results_opts, label), "L",
	  "list: only runs with this label" },
	{ "host", 0, OPT_STR, offsetof(struct results_opts, host), "H",
	  "list: only runs of this host" },
	{ "format", 0, OPT_STR, offsetof(struct results_opts, format), "F",
	  "export: json (default; the result file as written) or csv" },
	{ "units", 0, OPT_STR, offsetof(struct results_opts, units), "decimal|binary",
	  "show: byte rates in the tables in MB/s (default) or MiB/s" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void results_usage(FILE *f, const struct opt_group *g)
{
	fprintf(f, "usage: iobattery results list [--label L] [--host H]\n"
		   "       iobattery results show ID [--units decimal|binary]\n"
		   "       iobattery results export ID [--format json|csv]\n"
		   "       iobattery results delete ID\n"
		   "The store is $IOBATTERY_DB, else ~/.local/share/iobattery/results.db.\n"
		   "ID is the number 'results list' shows; show and export also take a label\n"
		   "(its latest run) or a run id.\n\noptions:\n");
	opt_help(f, g, 1);
}

static struct store *open_existing(char *path, size_t len)
{
	char err[512];
	struct store *st;

	if (store_default_path(path, len) < 0) {
		err_msg("results: no results store: set IOBATTERY_DB or HOME");
		return NULL;
	}
	if (access(path, F_OK) < 0) {
		err_msg("results: no results store: '%s': nothing has been saved yet", path);
		return NULL;
	}
	st = store_open(path, 0, err, sizeof(err));
	if (!st)
		err_msg("results: cannot open the results store: '%s': %s", path, err);
	return st;
}

/* A store id from ID, or from a label or run id. 0 with a message when none. */
static int64_t resolve_id(struct store *st, const char *word)
{
	char *end;
	long long v;
	int64_t id;

	errno = 0;
	v = strtoll(word, &end, 10);
	if (!errno && *word && !*end && v > 0)
		return v;
	id = store_find(st, word);
	if (id <= 0)
		err_msg("results: no such run: '%s': not an id, label or run id in the store",
			word);
	return id > 0 ? id : 0;
}

static int is_battery(const struct run *run)
{
	return run->workload && (!strcmp(run->workload, "battery") ||
				 !strcmp(run->workload, "run"));
}

static int do_export(struct store *st, int64_t id, const char *format, int show)
{
	char err[512];
	struct run *run;
	char *json;
	int rc = EXIT_OK;

	run = store_get(st, id, err, sizeof(err));
	if (!run) {
		err_msg("results: cannot read run %lld: %s", (long long)id, err);
		return EXIT_USAGE;
	}
	if (show && is_battery(run)) {
		/* the battery's own text, as the run printed it (its repeats included) */
		if (out_write(&out_text, stdout, run) < 0)
			rc = EXIT_FAILED;
	} else if (show) {
		printf("store id %lld\n", (long long)id);
		/* the repeats block names figures by params: escape them, as the text does */
		if (termsafe_run(run) < 0 || out_write(&out_text, stdout, run) < 0 ||
		    out_text_repeats(stdout, run) < 0)
			rc = EXIT_FAILED;
	} else if (!strcmp(format, "json")) {
		/* as the json formatter writes a result file: the text and a newline */
		json = result_json_dump(run);
		if (!json || fputs(json, stdout) < 0 ||
		    (json[0] && json[strlen(json) - 1] != '\n' && putchar('\n') == EOF))
			rc = EXIT_FAILED;
		free(json);
	} else if (out_write(&out_csv, stdout, run) < 0) {
		rc = EXIT_FAILED;
	}
	run_free(run);
	return rc;
}

static int dispatch(struct store *st, const char *verb, char **ops, int n,
		    const struct results_opts *o)
{
	char err[512];
	int64_t id;
	int rc;

	if (!strcmp(verb, "list")) {
		char path[4096] = "";

		if (store_list(st, stdout, o->label, o->host) >= 0)
			return EXIT_OK;
		(void)store_default_path(path, sizeof(path));
		err_msg("results: cannot list the results store: '%s': it could not be read "
			"(damaged?)", path);
		return EXIT_FAILED;
	}
	if (n != 2) {
		err_msg("results: %s: needs exactly one ID", verb);
		return EXIT_USAGE;
	}
	id = resolve_id(st, ops[1]);
	if (!id)
		return EXIT_USAGE;
	if (!strcmp(verb, "show"))
		return do_export(st, id, "json", 1);
	if (!strcmp(verb, "export"))
		return do_export(st, id, o->format, 0);
	rc = store_delete(st, id, err, sizeof(err));
	if (rc < 0) {
		err_msg("results: cannot delete run %lld: %s", (long long)id, err);
		/* no such run is a wrong operand; a store that refused is a failure */
		return rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	printf("deleted run %lld\n", (long long)id);
	return EXIT_OK;
}

int cmd_results(int argc, char **argv)
{
	struct results_opts o = { NULL, NULL, "json", NULL };
	struct opt_group g = { results_opt_table, &o };
	char **ops = NULL, path[PATH_MAX];
	struct store *st;
	int n, rc;

	n = opt_parse(&g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		results_usage(stdout, &g);
		free(ops);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (n < 1 || (strcmp(ops[0], "list") && strcmp(ops[0], "show") &&
		      strcmp(ops[0], "export") && strcmp(ops[0], "delete"))) {
		err_msg("results: %s: use list, show, export or delete", n < 1 ?
			"missing command" : "unknown command");
		free(ops);
		return EXIT_USAGE;
	}
	if (strcmp(o.format, "json") && strcmp(o.format, "csv")) {
		err_msg("results: unknown export format: '%s': use json or csv", o.format);
		free(ops);
		return EXIT_USAGE;
	}
	if (common_units(o.units) < 0) {
		free(ops);
		return EXIT_USAGE;
	}
	if (!strcmp(ops[0], "list") && n != 1) {
		err_msg("results: list: takes no operand (use --label or --host)");
		free(ops);
		return EXIT_USAGE;
	}
	st = open_existing(path, sizeof(path));
	rc = st ? dispatch(st, ops[0], ops, n, &o) : EXIT_USAGE;
	store_close(st);
	free(ops);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_FAILED;
	return rc;
}
