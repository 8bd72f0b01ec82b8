/* csv_series.c - the interval series of a run as one long CSV table (--series FILE):
 * one line per row, interval and figure, so a spreadsheet or a plotting tool can pivot
 * it. Quoting as csv.c; the columns are in docs/results-schema.md ("CSV"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "stats/result.h"
#include "stats/result_sys.h"

/* The line's first columns: run, row, workload, phase, repeat, interval, t_s. */
static void lead(FILE *f, const struct run *run, size_t seq, const struct row *w, size_t i,
		 double t_ns)
{
	out_csv_field(f, run->id, 0);
	fprintf(f, ",%zu,", seq);
	out_csv_field(f, w->workload, 0);
	fputc(',', f);
	out_csv_field(f, w->phase, 0);
	fprintf(f, ",%u,%zu,", w->repeat, i);
	if (isfinite(t_ns))
		fprintf(f, "%.9f", t_ns / 1e9);
	fputc(',', f);
}

static void value(FILE *f, double v, int integer)
{
	if (integer)
		fprintf(f, "%.0f\n", v);
	else
		fprintf(f, "%.9g\n", v);
}

static void row_lines(FILE *f, const struct run *run, size_t seq, const struct row *w)
{
	const struct row_series *s = w->series;

	for (size_t i = 0; i < s->n; i++) {
		double t = s->v[RSE_T_NS][i];

		for (unsigned k = RSE_T_NS + 1; k < RSE_N; k++) {
			if (!isfinite(s->v[k][i]))
				continue;
			lead(f, run, seq, w, i, t);
			fprintf(f, "%s,,", rser_keys[k].name);
			value(f, s->v[k][i], rser_keys[k].integer);
		}
		for (size_t d = 0; d < s->ndev; d++)
			for (unsigned k = 0; k < RSED_N; k++) {
				if (!isfinite(s->dev[d].v[k][i]))
					continue;
				lead(f, run, seq, w, i, t);
				fprintf(f, "%s,", rser_dev_keys[k].name);
				out_csv_field(f, s->dev[d].name, 0);
				fputc(',', f);
				value(f, s->dev[d].v[k][i], rser_dev_keys[k].integer);
			}
	}
}

int out_series_csv(FILE *f, const struct run *run)
{
	fputs(OUT_SERIES_HEADER_START ",interval,t_s,series,device,value\n", f);
	for (size_t i = 0; i < run->nrows; i++)
		if (run->rows[i]->series)
			row_lines(f, run, i, run->rows[i]);
	return ferror(f) ? -EIO : 0;
}
