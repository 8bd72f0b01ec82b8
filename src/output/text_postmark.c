/* text_postmark.c - PostMark's report from the rows of a PostMark run: the verbose layout
 * line for line (Time, Files, Data) or the terse line, with times from a microsecond
 * clock instead of whole seconds; then, in the verbose form, what PostMark lacks: latency
 * percentiles per operation type and per transaction, CPU, and how much of what was
 * written was made durable. Every figure is a row field or metric of the run. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static double m(const struct row *w, const char *name)
{
	const struct metric *x = row_metric(w, name);

	return x ? x->value : 0;
}

/* The row of phase for the same PostMark run (same repeat) as w, or NULL. */
static const struct row *sibling(const struct run *run, const struct row *w,
				 const char *phase)
{
	size_t i;

	for (i = 0; i < run->nrows; i++) {
		const struct row *r = run->rows[i];

		const char *ca = kv_get(&r->params, RK_ROW_FS_CONFIG);
		const char *cb = kv_get(&w->params, RK_ROW_FS_CONFIG);

		/* of the same repeat and the same configuration (a battery's --fs) */
		if (r->repeat == w->repeat && r->workload && !strcmp(r->workload, "postmark") &&
		    r->phase && !strcmp(r->phase, phase) &&
		    ((!ca && !cb) || (ca && cb && !strcmp(ca, cb))))
			return r;
	}
	return NULL;
}

/* PostMark's data scale: megabytes above one, else kilobytes (1024-based). */
static char *scale(char *buf, size_t len, double bytes)
{
	if (bytes / 1048576.0 > 1.0)
		snprintf(buf, len, "%.2f megabytes", bytes / 1048576.0);
	else if (bytes > 0)
		snprintf(buf, len, "%.2f kilobytes", bytes / 1024.0);
	else
		snprintf(buf, len, "0 bytes");
	return buf;
}

static void verbose(FILE *f, const struct row *w)
{
	char a[48], b[48];

	fprintf(f, "Time:\n");
	fprintf(f, "\t%.3f seconds total\n", m(w, RK_PM_TIME_TOTAL_S));
	fprintf(f, "\t%.3f seconds of transactions (%.0f per second)\n",
		m(w, RK_PM_TIME_TRANSACTIONS_S), m(w, RK_PM_TRANSACTIONS_PER_S));
	fprintf(f, "\nFiles:\n");
	fprintf(f, "\t%.0f created (%.0f per second)\n", m(w, RK_PM_FILES_CREATED),
		m(w, RK_PM_CREATED_PER_S));
	fprintf(f, "\t\tCreation alone: %.0f files (%.0f per second)\n",
		m(w, RK_PM_FILES_CREATED_ALONE), m(w, RK_PM_CREATED_ALONE_PER_S));
	fprintf(f, "\t\tMixed with transactions: %.0f files (%.0f per second)\n",
		m(w, RK_PM_FILES_CREATED_MIXED), m(w, RK_PM_CREATED_MIXED_PER_S));
	fprintf(f, "\t%.0f read (%.0f per second)\n", m(w, RK_PM_FILES_READ),
		m(w, RK_PM_READ_PER_S));
	fprintf(f, "\t%.0f appended (%.0f per second)\n", m(w, RK_PM_FILES_APPENDED),
		m(w, RK_PM_APPENDED_PER_S));
	fprintf(f, "\t%.0f deleted (%.0f per second)\n", m(w, RK_PM_FILES_DELETED),
		m(w, RK_PM_DELETED_PER_S));
	fprintf(f, "\t\tDeletion alone: %.0f files (%.0f per second)\n",
		m(w, RK_PM_FILES_DELETED_ALONE), m(w, RK_PM_DELETED_ALONE_PER_S));
	fprintf(f, "\t\tMixed with transactions: %.0f files (%.0f per second)\n",
		m(w, RK_PM_FILES_DELETED_MIXED), m(w, RK_PM_DELETED_MIXED_PER_S));
	fprintf(f, "\nData:\n");
	fprintf(f, "\t%s read (%s per second)\n", scale(a, sizeof(a), m(w, RK_PM_BYTES_READ)),
		scale(b, sizeof(b), m(w, RK_PM_READ_MIB_PER_S) * 1048576.0));
	fprintf(f, "\t%s written (%s per second)\n", scale(a, sizeof(a), m(w, RK_PM_BYTES_WRITTEN)),
		scale(b, sizeof(b), m(w, RK_PM_WRITTEN_MIB_PER_S) * 1048576.0));
}

/* Every flag of every PostMark row of this run, as its JSON carries them. */
static void pm_flags(FILE *f, const struct run *run, const struct row *w)
{
	static const char *const all[] = { "create_alone", "transactions", "delete_alone",
					   "total", "create", "read", "append", "delete" };
	char pre[40];

	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
		const struct row *p = sibling(run, w, all[k]);

		snprintf(pre, sizeof(pre), "%s ", all[k]);
		if (p)
			out_text_flags_line(f, p, pre);
	}
}

/* PostMark's terse line: total s, transaction s, transactions/s, created/s (total),
 * created alone/s, created mixed/s, read/s, appended/s, deleted/s (total), deleted
 * alone/s, deleted mixed/s, bytes read/s, bytes written/s. */
static void terse(FILE *f, const struct row *w)
{
	fprintf(f, "%.3f %.3f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n",
		m(w, RK_PM_TIME_TOTAL_S), m(w, RK_PM_TIME_TRANSACTIONS_S),
		m(w, RK_PM_TRANSACTIONS_PER_S), m(w, RK_PM_CREATED_PER_S),
		m(w, RK_PM_CREATED_ALONE_PER_S), m(w, RK_PM_CREATED_MIXED_PER_S),
		m(w, RK_PM_READ_PER_S), m(w, RK_PM_APPENDED_PER_S), m(w, RK_PM_DELETED_PER_S),
		m(w, RK_PM_DELETED_ALONE_PER_S), m(w, RK_PM_DELETED_MIXED_PER_S),
		m(w, RK_PM_READ_MIB_PER_S) * 1048576.0, m(w, RK_PM_WRITTEN_MIB_PER_S) * 1048576.0);
}

static void lat_line(FILE *f, const char *name, const struct row *r)
{
	const struct row_lat *l;
	char v[6][24];

	if (!r || !r->lat.valid || !r->lat.n) {
		fprintf(f, "  %-12s %9s\n", name, "0");
		return;
	}
	l = &r->lat;
	units_fmt_ns(v[0], sizeof(v[0]), (double)l->p50_ns);
	units_fmt_ns(v[1], sizeof(v[1]), (double)l->p90_ns);
	units_fmt_ns(v[2], sizeof(v[2]), (double)l->p99_ns);
	units_fmt_ns(v[3], sizeof(v[3]), (double)l->p999_ns);
	units_fmt_ns(v[4], sizeof(v[4]), (double)l->max_ns);
	units_fmt_ns(v[5], sizeof(v[5]), l->mean_ns);
	fprintf(f, "  %-12s %9llu %10s %10s %10s %10s %10s %10s\n", name,
		(unsigned long long)l->n, v[5], v[0], v[1], v[2], v[3], v[4]);
}

static void extras(FILE *f, const struct run *run, const struct row *w)
{
	static const char *const ops[] = { "create", "read", "append", "delete" };
	const struct row *tx = sibling(run, w, "transactions");
	char a[48];
	size_t i;

	fprintf(f, "\nLatency (whole operation: open, I/O, close; or unlink):\n");
	fprintf(f, "  %-12s %9s %10s %10s %10s %10s %10s %10s\n", "operation", "count", "mean",
		"p50", "p90", "p99", "p99.9", "max");
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		lat_line(f, ops[i], sibling(run, w, ops[i]));
	lat_line(f, "transaction", tx);
	if (w->cpu.valid)
		fprintf(f, "\nCPU: %.1f%% of this process (user %.3f s, sys %.3f s), "
			   "system %.1f%% busy\n", w->cpu.proc_pct, w->cpu.user_s, w->cpu.sys_s,
			w->cpu.sys_busy_pct);
	if (m(w, RK_PM_BYTES_WRITTEN_DURABLE) > 0)
		fprintf(f, "Durability: %s written, each file fsynced before closing\n",
			scale(a, sizeof(a), m(w, RK_PM_BYTES_WRITTEN_DURABLE)));
	else
		fprintf(f, "Durability: %s written, none fsynced (buffered in the page cache; "
			   "not known to be on the device)\n",
			scale(a, sizeof(a), m(w, RK_PM_BYTES_WRITTEN_BUFFERED)));
	if (row_metric(w, RK_PM_DIRECT_FALLBACKS))
		fprintf(f, "Direct I/O: %.0f transfers were not aligned and went through the "
			   "page cache\n", m(w, RK_PM_DIRECT_FALLBACKS));
	if (tx && tx->note)
		fprintf(f, "Note: %s\n", tx->note);
	if (w->flags & ROW_SHORT || (tx && tx->flags & ROW_SHORT))
		fprintf(f, "Short: a phase ran under 0.5 s; its rates may be imprecise\n");
	pm_flags(f, run, w);
}

/* The phases whose system figures follow the report. */
static const char *const pm_phases[] = { "create_alone", "transactions", "delete_alone",
					 "total" };

int text_postmark_row(FILE *f, const struct run *run, const struct row *w)
{
	const char *rep;

	if (!w->phase || strcmp(w->phase, "total"))
		return ferror(f) ? -EIO : 0;	/* shown inside the total's report */
	if (!row_metric(w, RK_PM_FILES_CREATED)) {	/* failed before it began */
		fprintf(f, "postmark: failed: %s\n", w->error ? w->error : "unknown error");
		return ferror(f) ? -EIO : 0;
	}
	rep = kv_get(&w->params, RK_PM_REPORT);
	if (rep && !strcmp(rep, "terse")) {
		terse(f, w);
	} else {
		verbose(f, w);
		extras(f, run, w);
		for (size_t k = 0; k < sizeof(pm_phases) / sizeof(pm_phases[0]); k++) {
			const struct row *p = sibling(run, w, pm_phases[k]);

			if (p)
				out_text_system(f, p, pm_phases[k]);
		}
	}
	if (w->flags & ROW_INCOMPLETE)
		fprintf(f, "Interrupted: the figures cover the work done until the signal; "
			   "every file was removed\n");
	if (w->flags & ROW_FAILED)
		fprintf(f, "Failed: %s\n", w->error ? w->error : "unknown error");
	return ferror(f) ? -EIO : 0;
}
