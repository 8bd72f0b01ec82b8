/* compare_text.c - the text of `iobattery compare`: who is who, for three runs or more a
 * table with a column per run (each figure's mean, and its delta against A), then each
 * run against A line by line (both sides, delta, 95% CI, verdict or the reason it is
 * refused) and a summary line. Numbers through output/numfmt.h. See compare_int.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd/compare_int.h"
#include "output/numfmt.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char *nz(const char *s)
{
	return s ? s : "";
}

void compare_figure_name(char *buf, size_t len, const struct row_group *g)
{
	const struct row *w = g->first;
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);

	snprintf(buf, len, "%s %s%s%s", nz(w->workload), nz(w->phase), d ? " " : "",
		 d ? d : "");
}

const char *compare_verdict(const struct cmp_line *l)
{
	if (!l->a)
		return "only_b";
	if (!l->b)
		return "only_a";
	if (l->refusal)
		return "refused";
	if (isnan(l->delta_pct))
		return "no_ratio";
	return l->winner == CMP_B ? "b_better" : l->winner == CMP_A ? "a_better" : "equal";
}

int compare_is_regression(const struct cmp_line *l, double limit)
{
	return limit >= 0 && l->a && l->b && !l->refusal && !isnan(l->delta_pct) &&
	       l->delta_pct < -limit && (!l->tested || l->significant);
}

/* A side whose figure is the page cache's or too short to time says so after it:
 * " [cache]", " [short]", " [cache, short]" (the legend under the table). */
static void side_marks(char *buf, size_t len, unsigned flags)
{
	size_t n = strlen(buf);
	int c = (flags & ROW_CACHE_INFLATED) != 0, sh = (flags & ROW_SHORT) != 0;

	if (c || sh)
		snprintf(buf + n, len > n ? len - n : 0, " [%s%s%s]", c ? "cache" : "",
			 c && sh ? ", " : "", sh ? "short" : "");
}

/* Does any side of r's lines carry a mark? */
static int any_marks(const struct cmp_result *r)
{
	for (size_t k = 0; k < r->n; k++) {
		const struct cmp_line *l = &r->l[k];
		unsigned fl = (l->a ? l->a->flags : 0) | (l->b ? l->b->flags : 0);

		if (fl & (ROW_CACHE_INFLATED | ROW_SHORT))
			return 1;
	}
	return 0;
}

/* "14.1 MB/s (n=3, CV 1.2%)" or "14.1 MB/s" (single run), then its marks. */
static void side_str(char *buf, size_t len, const struct row_group *g)
{
	const struct fig_stats *v = &g->value;
	char m[NUMFMT_LEN];

	numfmt(m, sizeof(m), v->mean, g->unit);
	if (v->n >= 2)
		snprintf(buf, len, "%s (n=%u, CV %.1f%%%s)", m, v->n, v->cv * 100,
			 g->flags & ROW_INCONSISTENT ? ", inconsistent" : "");
	else if (v->n == 1)
		snprintf(buf, len, "%s", m);
	else
		snprintf(buf, len, "not measured");
	side_marks(buf, len, g->flags);
}

static void verdict_str(char *buf, size_t len, const struct cmp_line *l, char bname)
{
	char who[2] = { l->winner == CMP_B ? bname : 'A', 0 }, p[NUMFMT_LEN];

	if (l->winner == CMP_TIE) {
		snprintf(buf, len, "equal");
		return;
	}
	numfmt_p(p, sizeof(p), l->w.p);
	if (!l->tested)
		snprintf(buf, len, "%s better (single runs: not tested)", who);
	else
		snprintf(buf, len, "%s better, %ssignificant (p%s%s)", who,
			 l->significant ? "" : "not ", p[0] == '<' ? "" : "=", p);
}

static void print_line(FILE *f, const struct cmp_line *l, char bname)
{
	char name[320], sa[128], sb[128], ci[64], verdict[128];

	if (!l->a || !l->b) {
		compare_figure_name(name, sizeof(name), l->a ? l->a : l->b);
		fprintf(f, "  %-30s only in %c\n", name, l->a ? 'A' : bname);
		return;
	}
	compare_figure_name(name, sizeof(name), l->a);
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

static void print_side(FILE *f, const struct cmp_side *s)
{
	const struct run *r = s->run;
	size_t k;

	fprintf(f, "%c = %s%s%s%s: %s, tool %s, on %s, %s%s (%s)", s->name, nz(r->id),
		r->label ? " '" : "", nz(r->label), r->label ? "'" : "", nz(r->workload),
		nz(r->env.tool_version), r->env.host ? r->env.host : "unknown host",
		r->env.date ? r->env.date : "undated",
		r->flags & RUN_IMPORTED ? ", imported" : "", s->spec);
	if (s->nmembers > 1) {
		fprintf(f, ", %zu runs taken as repeats:", s->nmembers);
		for (k = 0; k < s->nmembers; k++)
			fprintf(f, " %s", nz(s->members[k]->id));
	}
	fputc('\n', f);
}

static void print_pair(FILE *f, const struct cmp_all *c, size_t i)
{
	const struct cmp_result *r = &c->pair[i];
	char b = c->side[i].name;
	size_t k;

	fprintf(f, "\n%c against A: delta = %c relative to A, positive = %c better\n", b, b, b);
	fprintf(f, "  %-30s %-28s %-28s %8s %-20s %s\n", "figure", "A", (char[]){ b, 0 },
		"delta", "95% CI", "verdict");
	for (k = 0; k < r->n; k++)
		print_line(f, &r->l[k], b);
	if (any_marks(r))
		fprintf(f, "  [cache]: read largely from the page cache, not the device; [short]: "
			   "ran under 0.5 s:\n  such a side measures RAM or the timer, and its "
			   "verdict says nothing of the disk\n");
	fprintf(f, "summary: %c is better in %u of %u figures, significantly in %u; "
		   "A is better in %u, significantly in %u; %u refused, %u unmatched\n",
		b, r->b_better, r->compared, r->b_better_sig, r->a_better, r->a_better_sig,
		r->refused, r->unmatched);
}

/* Side i's cell for A's group g: its mean and delta, or why there is none. */
static void column_cell(char *buf, size_t len, const struct cmp_all *c, size_t i,
			const struct row_group *g)
{
	const struct cmp_result *r = &c->pair[i];
	const struct cmp_line *l = NULL;
	char m[NUMFMT_LEN];
	size_t k;

	for (k = 0; k < r->n && r->l[k].a != g; k++)
		;
	if (k < r->n)
		l = &r->l[k];
	if (!l || !l->b) {
		snprintf(buf, len, "-");
		return;
	}
	if (!l->b->value.n) {
		snprintf(buf, len, "not measured");
		return;
	}
	numfmt(m, sizeof(m), l->b->value.mean, l->b->unit);
	if (l->refusal)
		snprintf(buf, len, "%s (refused)", m);
	else if (isnan(l->delta_pct))
		snprintf(buf, len, "%s", m);
	else
		snprintf(buf, len, "%s (%+.1f%%%s)", m, l->delta_pct,
			 l->tested && l->significant ? "*" : "");
}

/* Three runs or more: a column per run, A's figures as rows. */
static void print_columns(FILE *f, const struct cmp_all *c)
{
	const struct run_groups *ga = &c->groups[0];
	char name[320], cell[160];
	size_t i, k;

	fprintf(f, "\nside by side: each run's figure, in brackets its delta against A "
		   "(* significant)\n  %-30s", "figure");
	for (i = 0; i < c->n; i++)
		fprintf(f, i + 1 < c->n ? " %-24c" : " %c", c->side[i].name);
	fputc('\n', f);
	for (k = 0; k < ga->n; k++) {
		compare_figure_name(name, sizeof(name), &ga->g[k]);
		fprintf(f, "  %-30s", name);
		for (i = 0; i < c->n; i++) {
			if (i == 0 && ga->g[k].value.n)
				numfmt(cell, sizeof(cell), ga->g[k].value.mean, ga->g[k].unit);
			else if (i == 0)
				snprintf(cell, sizeof(cell), "not measured");
			else
				column_cell(cell, sizeof(cell), c, i, &ga->g[k]);
			fprintf(f, i + 1 < c->n ? " %-24s" : " %s", cell);
		}
		fputc('\n', f);
	}
}

int compare_write_text(FILE *f, const struct cmp_all *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		print_side(f, &c->side[i]);
	if (c->n > 2)
		print_columns(f, c);
	for (i = 1; i < c->n; i++)
		print_pair(f, c, i);
	return ferror(f) ? -EIO : 0;
}
