/* html_battery.c - the report's comparison of battery configurations (the file systems of
 * a battery run, or several battery runs): the one-screen summary, then seed 004's
 * grouped table per workload (configurations as rows, figures as columns), each cell
 * shaded by its relative position in its column as bon_csv2html shades, with its rank and
 * its delta against the baseline with a 95% confidence interval, and per figure a note of
 * what was measured. The numbers come from stats/battery_table.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/html_battery.h"
#include "stats/battery_table.h"
#include "stats/result.h"

static const char battery_css[] =
	"table.battery td.c{text-align:right;white-space:nowrap}"
	"table.battery td.c small{display:block;color:#333}"
	"table.battery th.conf{text-align:left}p.summary{font-size:15px}"
	"ul.what{font-size:12px;color:#333}";

/* A figure's value with three significant digits and no exponent. */
static void num(FILE *f, double v)
{
	double a = fabs(v);

	fprintf(f, "%.*f", a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3, v);
}

static void cell(FILE *f, const struct battery_table *t, size_t c, size_t g)
{
	const struct bt_cell *x = bt_at(t, c, g);

	if (!x->have) {
		fputs("<td class=\"c nm\">-</td>", f);
		return;
	}
	/* bon_csv2html's idea: shade by where the value sits between the column's worst
	 * and best; one hue, pale to deep, so that no colour vision is needed */
	if (t->fig[g].lead_sig)
		fprintf(f, "<td class=\"c\" style=\"background:hsl(205,70%%,%.0f%%)\" "
			   "title=\"rank %u of %u\">", 96.0 - 26.0 * x->shade, x->rank,
			t->fig[g].nhave);
	else
		fprintf(f, "<td class=\"c\" title=\"rank %u of %u; no significant difference: not "
			   "shaded\">", x->rank, t->fig[g].nhave);
	num(f, x->s.mean);
	if (x->s.n > 1) {
		fputs(" &plusmn; ", f);
		num(f, x->s.half);
	}
	if (c == t->baseline)
		fputs("<small>baseline</small>", f);
	else if (x->compared && x->have_ci)
		fprintf(f, "<small class=\"%s\">%+.1f%% [%+.1f, %+.1f]%s</small>",
			x->delta_pct >= 0 ? "better" : "worse", x->delta_pct, x->lo_pct,
			x->hi_pct, x->significant ? " *" : "");
	else if (x->compared)
		fprintf(f, "<small class=\"%s\">%+.1f%%</small>",
			x->delta_pct >= 0 ? "better" : "worse", x->delta_pct);
	fputs("</td>", f);
}

/* Figures per table: a configuration column and this many fit a 1400-pixel page. */
#define BT_COLS 8

/* One table of the workload's figures idx[0..k-1]. */
static void chunk(FILE *f, const struct battery_table *t, const char *wl, const size_t *idx,
		  size_t k, size_t part, size_t parts)
{
	size_t i, c;

	fputs("<div class=\"scroll\"><table class=\"battery grouped\"><thead><tr>"
	      "<th rowspan=\"2\">configuration</th>", f);
	fprintf(f, "<th colspan=\"%zu\">", k);
	html_esc(f, wl);
	if (parts > 1)
		fprintf(f, " (%zu of %zu)", part + 1, parts);
	fputs("</th></tr><tr>", f);
	for (i = 0; i < k; i++) {
		const struct bt_fig *x = &t->fig[idx[i]];

		fputs("<th title=\"", f);
		html_esc(f, x->what);
		fputs("\">", f);
		html_esc(f, x->name + strlen(wl) + 1);
		fputs("<br><small>", f);
		html_esc(f, x->unit ? x->unit : "");
		fputs(x->higher_better ? ", higher is better" : ", lower is better", f);
		fputs("</small></th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (c = 0; c < t->nconf; c++) {
		fputs("<tr data-conf=\"", f);
		html_esc(f, t->conf[c].name);
		fputs("\"><th class=\"conf\">", f);
		html_esc(f, t->conf[c].name);
		fputs("</th>", f);
		for (i = 0; i < k; i++)
			cell(f, t, c, idx[i]);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The grouped table of one workload's figures that two configurations or more have, in
 * tables of BT_COLS figures so that none is wider than the page. */
static void group(FILE *f, const struct battery_table *t, const char *wl)
{
	size_t *idx = malloc((t->nfig + 1) * sizeof(*idx));
	size_t g, n = 0, i, parts;

	if (!idx)
		return;
	for (g = 0; g < t->nfig; g++)
		if (t->fig[g].nhave >= 2 && !strcmp(t->fig[g].first->workload, wl))
			idx[n++] = g;
	parts = (n + BT_COLS - 1) / BT_COLS;
	for (i = 0; i < n; i += BT_COLS)
		chunk(f, t, wl, idx + i, n - i < BT_COLS ? n - i : BT_COLS, i / BT_COLS, parts);
	free(idx);
}

static void what_list(FILE *f, const struct battery_table *t)
{
	size_t g;

	fputs("<ul class=\"what\">", f);
	for (g = 0; g < t->nfig; g++) {
		if (t->fig[g].nhave < 2)
			continue;
		fputs("<li><b>", f);
		html_esc(f, t->fig[g].name);
		fputs("</b>: ", f);
		html_esc(f, t->fig[g].what);
		if (t->fig[g].lead_sig)
			fputs(" (the leader is significantly ahead)", f);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

int html_battery_section(FILE *f, struct run *const *runs, const char *const *names,
			 size_t n, const char *baseline)
{
	static const char *const wls[] = { "dd", "cp", "bonnie", "iozone", "postmark", "db",
					   "fsync", "job", "sustained", NULL };
	struct battery_table t;
	char buf[2048];
	size_t i;
	int rc;

	if (!battery_table_useful(runs, n) && !baseline)
		return 0;
	rc = battery_table_build(runs, names, n, baseline, &t);
	if (rc < 0)
		return rc;
	fprintf(f, "<style>%s</style>\n<h2 id=\"battery\">Comparison of configurations</h2>\n",
		battery_css);
	fputs("<p class=\"summary\"><b>", f);
	html_esc(f, battery_table_leads(&t, buf, sizeof(buf)));
	fputs("</b>.", f);
	if (battery_table_latency(&t, buf, sizeof(buf))[0]) {
		fputs(" ", f);
		html_esc(f, buf);
		fputs(".", f);
	}
	fputs(" Baseline: ", f);
	html_esc(f, t.conf[t.baseline].name);
	fputs(".</p>\n", f);
	if (t.loop)
		fputs("<p>The file systems were each made on a loop device over a file on the same "
		      "storage: this compares the file systems' behaviour on this device, not "
		      "devices.</p>\n", f);
	fputs("<p>Each cell: the mean over the repeats (&plusmn; the 95% confidence "
	      "half-width when there are repeats), shaded from the column's worst (pale) to its "
	      "best (deep blue) only where the leader is significantly ahead; below it the "
	      "difference from the baseline in percent, its 95% "
	      "confidence interval, and * when Welch's test finds it significant.</p>\n", f);
	for (i = 0; wls[i]; i++)
		group(f, &t, wls[i]);
	fputs("<details><summary>What each figure measured</summary>\n", f);
	what_list(f, &t);
	fputs("</details>\n", f);
	battery_table_free(&t);
	return ferror(f) ? -EIO : 0;
}
