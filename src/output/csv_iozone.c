/* csv_iozone.c - iozone's matrix as a tidy long table: one line per row (a pass of a
 * cell), one value per column, so that a spreadsheet pivot or pandas reads it as it is.
 * Columns: test (the -i number), pass, file_kb, reclen_kb, kb_per_s, then repeat,
 * workers, cache_pct, ram_speed (1 when the cell measured RAM) and the flags joined with
 * '|'. Empty fields mean not applicable; a cell that failed has an empty kb_per_s. With
 * --verify each cell has a line whose pass is "verify" (no test number): the read-back's
 * rate, "failed" among the flags when a block was bad. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/iozone_out.h"
#include "stats/iozone_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"

int csv_iozone_run(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (!iozone_is_row(run->rows[i]))
			return 0;
	return run->nrows > 0;
}

int csv_iozone_begin(FILE *f, const struct run *run)
{
	(void)run;
	fputs("test,pass,file_kb,reclen_kb,kb_per_s,repeat,workers,cache_pct,ram_speed,flags\n",
	      f);
	return ferror(f) ? -EIO : 0;
}

/* The row's rate in kB/s: a --verify row's is every workload's MB/s, the column's unit
 * is iozone's. */
static double kb_per_s(const struct row *w)
{
	if (!w->phase || strcmp(w->phase, "verify"))
		return w->rate;
	return w->elapsed_ns ? (double)w->bytes / 1024.0 / ((double)w->elapsed_ns / 1e9) : 0;
}

int csv_iozone_row(FILE *f, const struct run *run, const struct row *w)
{
	const struct iozone_pass_info *pi = iozone_pass(iozone_pass_of(w->phase));
	const struct metric *m = row_metric(w, RK_IOZ_RAM_SPEED);
	const char *fk = kv_get(&w->params, RK_IOZ_FILE_KB);
	const char *rk = kv_get(&w->params, RK_IOZ_RECLEN_KB);
	const char *nw = kv_get(&w->params, RK_IOZ_WORKERS);
	int first = 1;

	(void)run;
	if (pi)
		fprintf(f, "%d,", pi->test);
	else
		fputc(',', f);
	fprintf(f, "%s,%s,%s,", w->phase ? w->phase : "", fk ? fk : "", rk ? rk : "");
	if (!(w->flags & (ROW_FAILED | ROW_NOT_MEASURED)))
		fprintf(f, "%.3f", kb_per_s(w));
	fprintf(f, ",%u,%s,", w->repeat, nw ? nw : "");
	if (w->cache_pct >= 0)
		fprintf(f, "%.1f", w->cache_pct);
	fputc(',', f);
	if (m)
		fprintf(f, "%.0f", m->value);
	fputc(',', f);
	for (unsigned b = 0; b < 32; b++) {
		const char *n = result_flag_name(1u << b);

		if (!(w->flags & (1u << b)) || !n)
			continue;
		fprintf(f, "%s%s", first ? "" : "|", n);
		first = 0;
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
