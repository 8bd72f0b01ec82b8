/* text_bonnie.c - Bonnie++'s 80-column table in its two blocks, drawn once the last row
 * of a repeat has arrived, then what Bonnie++ lacks (latency percentiles, system CPU,
 * durable times, cache residency, flags), the Bonnie++ CSV line, and with three repeats
 * or more the mean and 95% confidence interval of every figure. Reads only the model. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/summary.h"
#include "output/bonnie_csv.h"

static int is_bonnie(const struct row *w)
{
	return w->workload && !strcmp(w->workload, "bonnie");
}

/* Is metric name of row w one of the per-copy rates (copyN_rate)? */
static int is_copy_rate(const struct row *w, const char *name)
{
	const struct result_key *k = result_key_find(w->workload, RK_METRIC, name);

	return k && !strcmp(k->name, RK_BONNIE_COPY_RATE);
}

/* Is w the last bonnie row of its repeat (the next row, a --verify row passed over, is not
 * one of the same repeat)? */
static int last_of_repeat(const struct run *run, const struct row *w, size_t *idx)
{
	size_t i, j;

	for (i = 0; i < run->nrows; i++)
		if (run->rows[i] == w)
			break;
	*idx = i;
	for (j = i + 1; j < run->nrows && is_bonnie(run->rows[j]) &&
	     run->rows[j]->phase && !strcmp(run->rows[j]->phase, "verify"); j++)
		;
	if (j >= run->nrows)
		return 1;
	return !is_bonnie(run->rows[j]) || run->rows[j]->repeat != w->repeat;
}

static unsigned max_repeat(const struct run *run)
{
	unsigned m = 0;
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (is_bonnie(run->rows[i]) && run->rows[i]->repeat > m)
			m = run->rows[i]->repeat;
	return m;
}

/* "NAME        SIZE" in 19 columns, as Bonnie++: the name cut to fit the label. */
static void name_label(char *buf, size_t len, const char *name, const char *label)
{
	size_t ll = strlen(label);

	if (ll >= 18)
		snprintf(buf, len, "%19s", label);
	else
		snprintf(buf, len, "%-*.*s %s", (int)(18 - ll), (int)(18 - ll), name, label);
}

static void fig_cols(FILE *f, const struct bonnie_line *l, int t)
{
	const struct bonnie_fig *g = &l->f[t];
	char r[32];

	if (!g->present) {
		fprintf(f, " %5s %3s", "", "");
		return;
	}
	if (t == BT_SEEKS)
		snprintf(r, sizeof(r), g->rate >= 1000.0 ? "%5.0f" : "%5.1f",
			 isfinite(g->rate) && g->rate < 1e18 ? g->rate : 0);
	else if (t >= BT_SEQ_CREATE)
		snprintf(r, sizeof(r), "%5lld", units_dtoll(g->rate, 0, LLONG_MAX));
	else
		bonnie_fmt_kps(r, sizeof(r), g->rate);
	fprintf(f, " %5s %3lld", r, units_dtoll(g->cpu_pct, 0, 999999));
}

static void lat_line(FILE *f, const struct bonnie_line *l, int from, int to)
{
	char b[32];
	int t;

	fputs("Latency          ", f);
	for (t = from; t <= to; t++)
		fprintf(f, " %9s", l->f[t].present ? bonnie_fmt_lat(b, sizeof(b),
								     l->f[t].max_lat_ns) : "");
	fputc('\n', f);
}

static void io_block(FILE *f, const struct bonnie_line *l)
{
	char lab[64], nl[64];
	int t;

	fputs("iobattery 2.00a     ------Sequential Output------ --Sequential Input- "
	      "--Random-\n", f);
	fputs("                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- "
	      "--Seeks--\n", f);
	fputs("Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
	      "/sec %CP\n", f);
	name_label(nl, sizeof(nl), l->name, bonnie_fmt_size_label(lab, sizeof(lab), l));
	fputs(nl, f);
	for (t = BT_PUTC; t <= BT_SEEKS; t++)
		fig_cols(f, l, t);
	fputc('\n', f);
	lat_line(f, l, BT_PUTC, BT_SEEKS);
}

static void file_block(FILE *f, const struct bonnie_line *l)
{
	char lab[64];
	int t;

	fputs("iobattery 2.00a     ------Sequential Create------ --------Random "
	      "Create--------\n", f);
	fprintf(f, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
		l->name);
	if (l->max_size > 0 && l->min_size > 0)
		fputs("files:max:min       ", f);
	else if (l->max_size)
		fputs("files:max           ", f);
	else
		fputs("              files ", f);
	fputs(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", f);
	fprintf(f, "%19s", bonnie_fmt_files_label(lab, sizeof(lab), l));
	for (t = BT_SEQ_CREATE; t < BT_COUNT; t++)
		fig_cols(f, l, t);
	fputc('\n', f);
	lat_line(f, l, BT_SEQ_CREATE, BT_RAN_DEL);
}

/* One line per phase with what the table cannot hold. */
static void extras(FILE *f, const struct run *run, unsigned repeat)
{
	char p50[16], p99[16], p999[16], mx[16], dur[16], cache[16], fl[128];
	size_t i;

	fprintf(f, "%-10s %12s %8s %5s %5s %9s %9s %9s %9s %9s %6s %s\n", "phase", "rate",
		"unit", "%cpu", "sys%", "p50", "p99", "p99.9", "max", "durable", "cache",
		"flags");
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const struct row_lat *l = &w->lat;

		if (!is_bonnie(w) || w->repeat != repeat)
			continue;
		units_fmt_ns(p50, sizeof(p50), l->valid ? (double)l->p50_ns : 0);
		units_fmt_ns(p99, sizeof(p99), l->valid ? (double)l->p99_ns : 0);
		units_fmt_ns(p999, sizeof(p999), l->valid ? (double)l->p999_ns : 0);
		units_fmt_ns(mx, sizeof(mx), l->valid ? (double)l->max_ns : 0);
		if (w->durable_ns)
			units_fmt_ns(dur, sizeof(dur), (double)w->durable_ns);
		else
			snprintf(dur, sizeof(dur), "-");
		if (w->cache_pct >= 0)
			snprintf(cache, sizeof(cache), "%.0f%%", w->cache_pct);
		else
			snprintf(cache, sizeof(cache), "-");
		fl[0] = '\0';
		for (unsigned b = 0; b < 32; b++) {
			const char *n = result_flag_name(1u << b);

			if ((w->flags & (1u << b)) && n) {
				if (fl[0])
					strncat(fl, ",", sizeof(fl) - strlen(fl) - 1);
				strncat(fl, n, sizeof(fl) - strlen(fl) - 1);
			}
		}
		fprintf(f, "%-10s %12.1f %8s %5.0f %5.0f %9s %9s %9s %9s %9s %6s %s\n",
			w->phase, w->rate, w->rate_unit ? w->rate_unit : "", w->cpu.proc_pct,
			w->cpu.sys_busy_pct, p50, p99, p999, mx, dur, cache, fl);
		if (w->error)
			fprintf(f, "  %s: %s\n", w->phase, w->error);
		for (size_t m = 0; m < w->nmetrics; m++)
			if (is_copy_rate(w, w->metrics[m].name))
				fprintf(f, "%s%.1f", m ? " " : "  per copy: ", w->metrics[m].value);
		if (w->nmetrics)
			fputc('\n', f);
	}
}

/* Student's t, two-sided 95%, for n-1 degrees of freedom (1..30; then 1.96). */
static double t95(uint64_t df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
		2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
		2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
		2.042 };

	return df <= 30 ? t[df] : 1.96;
}

static void repeats_table(FILE *f, const struct run *run, unsigned nrep)
{
	struct summary rate[BT_COUNT], cpu[BT_COUNT];
	const char *unit[BT_COUNT] = { 0 };
	size_t i;
	int t;

	for (t = 0; t < BT_COUNT; t++) {
		summary_init(&rate[t]);
		summary_init(&cpu[t]);
	}
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		if (!is_bonnie(w) || (w->flags & (ROW_FAILED | ROW_INCOMPLETE)) ||
		    (t = bonnie_test_of(w->phase)) < 0)
			continue;
		summary_add(&rate[t], w->rate);
		summary_add(&cpu[t], w->cpu.proc_pct);
		unit[t] = w->rate_unit;
	}
	fprintf(f, "\n%u runs: mean and 95%% confidence interval\n", nrep);
	fprintf(f, "%-10s %12s %12s %8s %6s %8s\n", "phase", "mean", "+/-", "unit", "cv%",
		"%cpu");
	for (t = 0; t < BT_COUNT; t++) {
		double ci;

		if (rate[t].n < 2)
			continue;
		ci = t95(rate[t].n - 1) * summary_sd(&rate[t]) / sqrt((double)rate[t].n);
		fprintf(f, "%-10s %12.1f %12.1f %8s %6.1f %8.1f%s\n", bonnie_test_name(t),
			rate[t].mean, ci, unit[t] ? unit[t] : "", summary_cv(&rate[t]) * 100.0,
			cpu[t].mean, summary_cv(&rate[t]) > 0.10 ? "  inconsistent" : "");
	}
}

int text_bonnie_row(FILE *f, const struct run *run, const struct row *row)
{
	struct bonnie_line l;
	char csv[2048];
	const char *q;
	size_t idx;
	int t, nshort = 0;

	if (!last_of_repeat(run, row, &idx))
		return 0;
	if (!bonnie_line_from_run(&l, run, row->repeat))
		return out_text_generic_row(f, run, row);
	if (l.size_mb)
		io_block(f, &l);
	if (l.nfiles)
		file_block(f, &l);
	for (t = 0; t < BT_COUNT; t++)
		if (l.f[t].present && l.f[t].shortrun)
			nshort++;
	if (nshort) {
		fputs("Short (under 500 ms, timed to the microsecond; Bonnie++ prints +++++):", f);
		for (t = 0; t < BT_COUNT; t++)
			if (l.f[t].present && l.f[t].shortrun)
				fprintf(f, " %s", bonnie_test_name(t));
		fputc('\n', f);
	}
	fputc('\n', f);
	extras(f, run, row->repeat);
	for (size_t k = 0; k < run->nrows; k++)
		if (is_bonnie(run->rows[k]) && run->rows[k]->repeat == row->repeat)
			out_text_system(f, run->rows[k], run->rows[k]->phase);
	q = kv_get(&run->options, RK_BONNIE_QUIET);
	if (!(q && !strcmp(q, "1")) && bonnie_csv_format(&l, csv, sizeof(csv)) > 0)
		fprintf(f, "\n%s", csv);
	if (row->repeat == max_repeat(run) && row->repeat >= 2)
		repeats_table(f, run, row->repeat + 1);
	return ferror(f) ? -EIO : 0;
}
