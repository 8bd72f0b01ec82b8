/* compare.c - `iobattery compare A B [C ...]`: line up the same figures of result files
 * (or store ids or labels), print each difference with its 95% confidence interval,
 * Welch's test where both sides have repeats, a winner per figure and a summary line;
 * refuse, with the reason, figures measured differently. --fail-if-slower PCT turns a
 * regression into exit status 1. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "core/err.h"
#include "core/opt.h"
#include "output/termsafe.h"
#include "stats/compare.h"
#include "stats/result.h"
#include "stats/result_keys.h"

struct compare_opts {
	double fail_if_slower;		/* percent; < 0 = off */
	int no_store;			/* do not look up ids or labels in the store */
};

static const struct opt compare_opt_table[] = {
	{ "fail-if-slower", 0, OPT_DOUBLE, offsetof(struct compare_opts, fail_if_slower), "PCT",
	  "exit 1 when a figure of B (or C ...) is worse than A's by more than PCT percent "
	  "(and, with repeats, significantly)" },
	{ "no-store", 0, OPT_FLAG, offsetof(struct compare_opts, no_store), NULL,
	  "take only result files, never store ids or labels" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static void compare_usage(FILE *f, const struct opt_group *g)
{
	fprintf(f, "usage: iobattery compare [OPTION]... A B [C ...]\n"
		   "Compare the figures of B (and C ...) with those of A. Each of A, B, C is a\n"
		   "result file (--format json), a store id or a label (its latest run).\n"
		   "Each difference is in percent, positive when the later run is better, with\n"
		   "a 95%% confidence interval on the ratio of means (Fieller); with repeats on\n"
		   "both sides Welch's t-test says whether it is significant (p < 0.05).\n"
		   "Figures measured differently (per-character method, buffered vs O_DIRECT,\n"
		   "cache-inflated vs not, sizes, block sizes) are refused with the reason.\n\n"
		   "options:\n");
	opt_help(f, g, 1);
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* "dd write bs=1M": the figure's name for humans (workload, phase, and dd's or cp's
 * detail when the row has one; the full params are in the result files). */
static void figure_name(char *buf, size_t len, const struct row_group *g)
{
	const struct row *w = g->first;
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);

	snprintf(buf, len, "%s %s%s%s", nz(w->workload), nz(w->phase), d ? " " : "",
		 d ? d : "");
}

/* "1.234e+04 K/sec +-1.2%" or "14394 K/sec" (single run). */
static void side_str(char *buf, size_t len, const struct row_group *g)
{
	const struct fig_stats *v = &g->value;

	if (v->n >= 2)
		snprintf(buf, len, "%.6g %s (n=%u, CV %.1f%%%s)", v->mean, nz(g->unit), v->n,
			 v->cv * 100, g->flags & ROW_INCONSISTENT ? ", inconsistent" : "");
	else if (v->n == 1)
		snprintf(buf, len, "%.6g %s", v->mean, nz(g->unit));
	else
		snprintf(buf, len, "not measured");
}

static void verdict_str(char *buf, size_t len, const struct cmp_line *l, char bname)
{
	const char *who = "A";
	char b[2] = { bname, 0 };

	if (l->winner == CMP_TIE) {
		snprintf(buf, len, "equal");
		return;
	}
	if (l->winner == CMP_B)
		who = b;
	if (!l->tested)
		snprintf(buf, len, "%s better (single runs: not tested)", who);
	else if (l->significant)
		snprintf(buf, len, "%s better, significant (p=%.2g)", who, l->w.p);
	else
		snprintf(buf, len, "%s better, not significant (p=%.2g)", who, l->w.p);
}

static void print_line(FILE *f, const struct cmp_line *l, char bname)
{
	char name[320], sa[96], sb[96], ci[64], verdict[96];

	if (!l->a || !l->b) {
		figure_name(name, sizeof(name), l->a ? l->a : l->b);
		fprintf(f, "  %-30s only in %s\n", name, l->a ? "A" : (char[]){ bname, 0 });
		return;
	}
	figure_name(name, sizeof(name), l->a);
	side_str(sa, sizeof(sa), l->a);
	side_str(sb, sizeof(sb), l->b);
	if (l->refusal) {
		fprintf(f, "  %-30s %-28s %-28s refused: %s\n", name, sa, sb, l->refusal);
		return;
	}
	if (isnan(l->delta_pct)) {
		fprintf(f, "  %-30s %-28s %-28s A is zero: no ratio\n", name, sa, sb);
		return;
	}
	if (l->have_ci)
		snprintf(ci, sizeof(ci), "[%+.1f%%, %+.1f%%]", l->lo_pct, l->hi_pct);
	else
		snprintf(ci, sizeof(ci), "(no interval)");
	verdict_str(verdict, sizeof(verdict), l, bname);
	fprintf(f, "  %-30s %-28s %-28s %+7.1f%% %-20s %s\n", name, sa, sb, l->delta_pct, ci,
		verdict);
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

static void print_run(FILE *f, char name, const struct run *r, const char *spec)
{
	fprintf(f, "%c = %s%s%s%s: %s, tool %s, on %s, %s%s (%s)\n", name, nz(r->id),
		r->label ? " '" : "", nz(r->label), r->label ? "'" : "", nz(r->workload),
		nz(r->env.tool_version), r->env.host ? r->env.host : "unknown host",
		r->env.date ? r->env.date : "undated",
		r->flags & RUN_IMPORTED ? ", imported" : "", spec);
}

/* Compare B with A, print, and count the regressions beyond limit (when >= 0). */
static int compare_pair(FILE *f, const struct run *a, const struct run *b, char bname,
			double limit, unsigned *regressions, unsigned *compared)
{
	struct run_groups ga, gb;
	struct cmp_result r;
	size_t i;
	int rc;

	if (compare_group_run(a, &ga) < 0)
		return -ENOMEM;
	if (compare_group_run(b, &gb) < 0) {
		compare_groups_free(&ga);
		return -ENOMEM;
	}
	rc = compare_groups(&ga, &gb, &r);
	if (rc == 0) {
		fprintf(f, "\n%c against A: delta = %c relative to A, positive = %c better\n",
			bname, bname, bname);
		fprintf(f, "  %-30s %-28s %-28s %8s %-20s %s\n", "figure", "A",
			(char[]){ bname, 0 },
			"delta", "95% CI", "verdict");
		for (i = 0; i < r.n; i++) {
			const struct cmp_line *l = &r.l[i];

			print_line(f, l, bname);
			if (limit >= 0 && l->a && l->b && !l->refusal && !isnan(l->delta_pct) &&
			    l->delta_pct < -limit && (!l->tested || l->significant))
				(*regressions)++;
		}
		fprintf(f, "summary: %c is better in %u of %u figures, significantly in %u; "
			   "A is better in %u, significantly in %u; %u refused, %u unmatched\n",
			bname, r.b_better, r.compared, r.b_better_sig, r.a_better, r.a_better_sig,
			r.refused, r.unmatched);
		*compared = r.compared;
		compare_result_free(&r);
	}
	compare_groups_free(&ga);
	compare_groups_free(&gb);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { -1, 0 };
	struct opt_group g = { compare_opt_table, &o };
	struct run **runs;
	char **ops = NULL;
	unsigned regressions = 0;
	int n, i, status = EXIT_OK;

	n = opt_parse(&g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		compare_usage(stdout, &g);
		free(ops);
		return EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (n < 2 || n > 26) {
		err_msg("compare: %s: give A and B (and up to 24 more) result files, ids or labels",
			n < 2 ? "need at least two runs" : "too many runs");
		free(ops);
		return EXIT_USAGE;
	}
	if (limit_given(argc, argv) && !(o.fail_if_slower >= 0 && isfinite(o.fail_if_slower))) {
		err_msg("compare: bad value for --fail-if-slower: '%g': a percentage, 0 or more",
			o.fail_if_slower);
		free(ops);
		return EXIT_USAGE;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	if (!runs) {
		free(ops);
		return EXIT_FAILED;
	}
	for (i = 0; i < n && status == EXIT_OK; i++)
		if (!(runs[i] = results_load(ops[i], !o.no_store)))
			status = EXIT_USAGE;
	/* labels, hosts, ids and params go to a terminal: no control character of a file */
	for (i = 0; i < n && status == EXIT_OK; i++)
		if (termsafe_run(runs[i]) < 0) {
			err_msg("compare: out of memory");
			status = EXIT_FAILED;
		}
	for (i = 0; i < n && status == EXIT_OK; i++)
		print_run(stdout, (char)('A' + i), runs[i], ops[i]);
	for (i = 1; i < n && status == EXIT_OK; i++) {
		unsigned compared = 0;

		if (compare_pair(stdout, runs[0], runs[i], (char)('A' + i), o.fail_if_slower,
				 &regressions, &compared) < 0) {
			err_msg("compare: out of memory");
			status = EXIT_FAILED;
		} else if (o.fail_if_slower >= 0 && compared == 0) {
			/* a gate that compared nothing must not pass */
			fflush(stdout);
			err_msg("compare: nothing compared: '%s': no figure of A measured alike "
				"(--fail-if-slower cannot pass)", ops[i]);
			status = EXIT_FAILED;
		}
	}
	if (status == EXIT_OK && regressions) {
		fflush(stdout);
		err_msg("compare: %u figure%s worse than A by more than %g%%", regressions,
			regressions == 1 ? "" : "s", o.fail_if_slower);
		status = EXIT_FAILED;
	}
	for (i = 0; i < n; i++)
		run_free(runs[i]);
	free(runs);
	free(ops);
	if (fflush(stdout) != 0 && status == EXIT_OK)
		status = EXIT_FAILED;
	return status;
}
