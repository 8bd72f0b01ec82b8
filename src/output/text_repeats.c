/* text_repeats.c - the repeats block of the text output: per figure (rows of one run that
 * share workload, phase and params), the mean, standard deviation, coefficient of
 * variation and 95% confidence interval (Student's t) over the repeats; "inconsistent"
 * when the CV passes 10%, and "single run" where there is only one. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/numfmt.h"
#include "output/output.h"
#include "stats/compare.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* "dd write" or "dd write bs=1M" (the row's detail param when it has one). */
static void figure_name(char *buf, size_t len, const struct row *w)
{
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);

	snprintf(buf, len, "%s %s%s%s", nz(w->workload), nz(w->phase), d ? " " : "",
		 d ? d : "");
}

/* Numbers in the figure's own unit (the unit column says it), three significant
 * figures, never an exponent (output/numfmt.h). */
static void repeats_line(FILE *f, const struct row_group *g)
{
	const struct fig_stats *v = &g->value;
	char name[96], mean[NUMFMT_LEN], sd[NUMFMT_LEN], lo[NUMFMT_LEN], hi[NUMFMT_LEN];

	figure_name(name, sizeof(name), g->first);
	if (v->n == 0) {
		fprintf(f, "  %-34s %s\n", name, g->flags & ROW_FAILED ? "failed" :
			"not measured");
		return;
	}
	numfmt_num(mean, sizeof(mean), v->mean);
	if (v->n == 1) {
		fprintf(f, "  %-34s %12s %-8s single run: no spread, no interval\n", name, mean,
			nz(g->unit));
		return;
	}
	fprintf(f, "  %-34s %12s %-8s %10s %6.1f%%  [%s, %s]  %u%s\n", name, mean, nz(g->unit),
		numfmt_num(sd, sizeof(sd), v->sd), v->cv * 100, numfmt_num(lo, sizeof(lo), v->lo),
		numfmt_num(hi, sizeof(hi), v->hi), v->n,
		v->cv > COMPARE_CV_LIMIT ? "  inconsistent" : "");
}

int out_text_repeats(FILE *f, const struct run *run)
{
	struct run_groups gs;
	size_t i;
	int n;

	n = compare_group_run(run, &gs);
	if (n < 0)
		return n;
	for (i = 0; i < gs.n && gs.g[i].value.n < 2; i++)
		;
	if (i == gs.n) {
		/* nothing repeated: one line says what the figures lack */
		if (gs.n)
			fprintf(f, "\nsingle run: no spread, no confidence interval "
				   "(--repeat N gives them)\n");
		compare_groups_free(&gs);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "\nrepeats: mean, standard deviation, CV and 95%% confidence interval "
		   "(Student's t) per figure\n");
	fprintf(f, "  %-34s %12s %-8s %10s %7s  %-s\n", "figure", "mean", "unit", "sd", "CV",
		"95% CI  n");
	for (i = 0; i < gs.n; i++)
		repeats_line(f, &gs.g[i]);
	compare_groups_free(&gs);
	return ferror(f) ? -EIO : 0;
}
