/* compare.c - `iobattery compare A B [C ...]`: line up the same figures of result files
 * (or store ids or labels), print each difference with its 95% confidence interval,
 * Welch's test where both sides have repeats, a winner per figure and a summary line;
 * refuse, with the reason, figures measured differently. --fail-if-slower PCT turns a
 * regression into exit status 1; --format json|csv writes the same for machines,
 * --baseline names A apart, --group-by label merges the stored runs of a label into one
 * side. The sides: compare_sides.c; the text: compare_text.c; JSON, CSV: compare_data.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/compare_int.h"
#include "core/err.h"
#include "core/opt.h"
#include "output/termsafe.h"
#include "output/verdict_out.h"
#include "stats/compare.h"
#include "stats/result.h"

struct compare_opts {
	double fail_if_slower;		/* percent; < 0 = off */
	int no_store;			/* do not look up ids or labels in the store */
	const char *format;		/* text, json, csv */
	const char *baseline;		/* A, before the operands; NULL: the first operand */
	const char *group_by;		/* "label" or NULL */
};

static const struct opt compare_opt_table[] = {
	{ "fail-if-slower", 0, OPT_DOUBLE, offsetof(struct compare_opts, fail_if_slower), "PCT",
	  "exit 1 when a figure of B (or C ...) is worse than A's by more than PCT percent "
	  "(and, with repeats, significantly)" },
	{ "no-store", 0, OPT_FLAG, offsetof(struct compare_opts, no_store), NULL,
	  "take only result files, never store ids or labels" },
	{ "format", 0, OPT_STR, offsetof(struct compare_opts, format), "FMT",
	  "text (default), json or csv: every line with both sides, delta, CI, p, verdict "
	  "and refusal reason" },
	{ "baseline", 0, OPT_STR, offsetof(struct compare_opts, baseline), "RESULT",
	  "the run the others are compared with (A); the operands become B, C ..." },
	{ "group-by", 0, OPT_STR, offsetof(struct compare_opts, group_by), "label",
	  "a label names all its stored runs; runs of one label are one side, their rows "
	  "taken as repeats" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void compare_usage(FILE *f, const struct opt_group *g)
{
	fprintf(f, "usage: iobattery compare [OPTION]... A B [C ...]\n"
		   "       iobattery compare --baseline A [OPTION]... B [C ...]\n"
		   "Compare the figures of B (and C ...) with those of A. Each of A, B, C is a\n"
		   "result file (--format json), a store id or a label (its latest run; with\n"
		   "--group-by label all its runs, as repeats of one side).\n"
		   "Each difference is in percent, positive when the later run is better, with\n"
		   "a 95%% confidence interval on the ratio of means (Fieller); with repeats on\n"
		   "both sides Welch's t-test says whether it is significant (p < 0.05).\n"
		   "Figures measured differently (per-character method, buffered vs O_DIRECT,\n"
		   "cache-inflated vs not, sizes, block sizes) are refused with the reason.\n"
		   "With three runs or more the text begins with a column per run.\n\n"
		   "options:\n");
	opt_help(f, g, 1);
}

/* Check the options; 0 or -EINVAL after a message. */
static int check_opts(const struct compare_opts *o, int n)
{
	if (strcmp(o->format, "text") && strcmp(o->format, "json") && strcmp(o->format, "csv")) {
		err_msg("compare: bad --format: '%s': text, json or csv", o->format);
		return -EINVAL;
	}
	if (o->group_by && strcmp(o->group_by, "label")) {
		err_msg("compare: bad --group-by: '%s': only 'label' groups runs", o->group_by);
		return -EINVAL;
	}
	if (o->group_by && o->no_store) {
		err_msg("compare: --group-by label reads the store: it cannot go with --no-store");
		return -EINVAL;
	}
	n += o->baseline != NULL;
	if (n < 2 || n > 26) {
		err_msg("compare: %s: give A and B (and up to 24 more) result files, ids or labels",
			n < 2 ? "need at least two runs" : "too many runs");
		return -EINVAL;
	}
	return 0;
}

/* Was --fail-if-slower typed (its default, -1, means off)? */
static int limit_given(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strncmp(argv[i], "--fail-if-slower", 16))
			return 1;
	}
	return 0;
}

/* The text goes to a terminal: labels, hosts, ids and params of the files escaped (a
 * merged side borrows its members' rows: escaping twice changes nothing). 0, -ENOMEM. */
static int escape_sides(struct cmp_all *c)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->side[i].nmembers; k++)
			if (termsafe_run(c->side[i].members[k]) < 0)
				return -ENOMEM;
		if (c->side[i].run && termsafe_run(c->side[i].run) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* With --fail-if-slower, a side that had nothing compared with A cannot pass the gate.
 * Returns the number of such sides (after a message each). */
static unsigned gate_empty(const struct cmp_all *c)
{
	unsigned bad = 0;

	for (size_t i = 1; c->limit >= 0 && i < c->n; i++)
		if (c->pair[i].compared == 0) {
			err_msg("compare: nothing compared: '%s': no figure of A measured alike "
				"(--fail-if-slower cannot pass)", c->side[i].spec);
			bad++;
		}
	return bad;
}

/* Group each side's rows and compare each with A; count the regressions. 0, -ENOMEM. */
static int compare_all(struct cmp_all *c)
{
	size_t i, k;

	c->groups = calloc(c->n, sizeof(*c->groups));
	c->pair = calloc(c->n, sizeof(*c->pair));
	if (!c->groups || !c->pair)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		if (compare_group_run(c->side[i].run, &c->groups[i]) < 0)
			return -ENOMEM;
	for (i = 1; i < c->n; i++) {
		if (compare_groups(&c->groups[0], &c->groups[i], &c->pair[i]) < 0)
			return -ENOMEM;
		for (k = 0; k < c->pair[i].n; k++)
			c->regressions += compare_is_regression(&c->pair[i].l[k], c->limit);
	}
	return 0;
}

static void compare_all_free(struct cmp_all *c)
{
	size_t i;

	for (i = 0; c->groups && i < c->n; i++)
		compare_groups_free(&c->groups[i]);
	for (i = 1; c->pair && i < c->n; i++)
		compare_result_free(&c->pair[i]);
	free(c->groups);
	free(c->pair);
	compare_sides_free(c->side, c->n);
}

/* The operands with the baseline first. NULL on ENOMEM. */
static char **with_baseline(const char *baseline, char **ops, int n)
{
	char **v = calloc((size_t)n + 2, sizeof(*v));
	int i, k = 0;

	if (!v)
		return NULL;
	if (baseline)
		v[k++] = (char *)baseline;
	for (i = 0; i < n; i++)
		v[k++] = ops[i];
	return v;
}

/* The verdict for a database server over the sides, before the figures (the text only). */
static void verdict_first(const struct cmp_all *c)
{
	struct run **runs = calloc(c->n + 1, sizeof(*runs));
	const char **names = calloc(c->n + 1, sizeof(*names));
	size_t i;

	for (i = 0; runs && names && i < c->n; i++) {
		runs[i] = c->side[i].run;
		names[i] = c->side[i].spec;
	}
	if (runs && names)
		out_text_verdict(stdout, runs, names, c->n);
	free(runs);
	free(names);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { -1, 0, "text", NULL, NULL };
	struct opt_group g = { compare_opt_table, &o };
	struct cmp_all c = { 0 };
	char **ops = NULL, **specs = NULL;
	int n, rc, status = EXIT_OK;

	n = opt_parse(&g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		compare_usage(stdout, &g);
		free(ops);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (check_opts(&o, n) < 0) {
		free(ops);
		return EXIT_USAGE;
	}
	if (limit_given(argc, argv) && !(o.fail_if_slower >= 0 && isfinite(o.fail_if_slower))) {
		err_msg("compare: bad value for --fail-if-slower: '%g': a percentage, 0 or more",
			o.fail_if_slower);
		free(ops);
		return EXIT_USAGE;
	}
	specs = with_baseline(o.baseline, ops, n);
	rc = specs ? compare_load_sides(specs, (size_t)n + (o.baseline != NULL), !o.no_store,
					o.group_by != NULL, &c.side) : -ENOMEM;
	if (rc == -ENOMEM) {
		err_msg("compare: out of memory");
		status = EXIT_FAILED;
	} else if (rc < 0) {
		status = EXIT_USAGE;
	} else if (rc < 2 || rc > 26) {
		err_msg("compare: %d side%s after grouping by label: need 2 to 26", rc,
			rc == 1 ? "" : "s");
		status = EXIT_USAGE;
	}
	c.n = rc > 0 ? (size_t)rc : 0;
	c.limit = o.fail_if_slower;
	if (status == EXIT_OK && ((!strcmp(o.format, "text") && escape_sides(&c) < 0) ||
				  compare_all(&c) < 0)) {
		err_msg("compare: out of memory");
		status = EXIT_FAILED;
	}
	if (status == EXIT_OK) {
		if (!strcmp(o.format, "text"))
			verdict_first(&c);
		rc = !strcmp(o.format, "json") ? compare_write_json(stdout, &c) :
		     !strcmp(o.format, "csv") ? compare_write_csv(stdout, &c) :
		     compare_write_text(stdout, &c);
		if (rc < 0)
			status = EXIT_FAILED;
	}
	if (status == EXIT_OK && gate_empty(&c)) {
		fflush(stdout);
		status = EXIT_FAILED;
	}
	if (status == EXIT_OK && c.regressions) {
		fflush(stdout);
		err_msg("compare: %u figure%s worse than A by more than %g%%", c.regressions,
			c.regressions == 1 ? "" : "s", o.fail_if_slower);
		status = EXIT_FAILED;
	}
	compare_all_free(&c);
	free(specs);
	free(ops);
	if (fflush(stdout) != 0 && status == EXIT_OK)
		status = EXIT_FAILED;
	return status;
}
