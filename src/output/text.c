/* text.c - the human formatter: per-workload renderers picked from a table, the generic
 * block, the shared extras (times, CPU, latency, cache, flags) and the summary table. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "output/numfmt.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* One line per workload that has its own text form; rows of other workloads get the
 * generic block. Add your line above the terminator:
 *	{ "dd", text_dd_head, text_dd_row, 0 },
 */
static const struct out_text_renderer text_renderers[] = {
	{ "dd", NULL, text_dd_row, 0 },
	{ "cp", NULL, text_cp_row, 0 },
	{ "bonnie", NULL, text_bonnie_row, 0 },
	{ "postmark", NULL, text_postmark_row, 0 },
	{ "db", text_db_head, text_db_row, 0 },
	{ "fsync", text_fsync_head, text_fsync_row, 0 },
	{ "iozone", NULL, text_iozone_row, 1 },
	{ "job", NULL, text_job_row, 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct out_text_renderer *text_renderer(const char *workload)
{
	if (!workload)
		return NULL;
	for (size_t i = 0; text_renderers[i].workload; i++)
		if (strcmp(text_renderers[i].workload, workload) == 0)
			return &text_renderers[i];
	return NULL;
}

static const char *nz(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Does the run hold rows of more than one workload? */
static int text_mixed(const struct run *run)
{
	for (size_t i = 1; i < run->nrows; i++)
		if (!same_str(run->rows[i]->workload, run->rows[0]->workload))
			return 1;
	return 0;
}

/* Is row the first of a block of its workload (the row before it has another one)? */
static int text_block_start(const struct run *run, const struct row *row)
{
	/* rows come in order: look after the last one found first, so that printing a run
	 * stays linear in its rows (per thread, as each thread has its own stream) */
	static _Thread_local size_t next;
	size_t i = next < run->nrows && run->rows[next] == row ? next : 0;

	for (; i < run->nrows; i++)
		if (run->rows[i] == row) {
			next = i + 1;
			return i == 0 || !same_str(run->rows[i - 1]->workload, row->workload);
		}
	return 1;
}

static int text_begin(FILE *f, const struct run *run)
{
	const struct env *e = &run->env;

	if (!text_mixed(run))
		return 0;
	fprintf(f, "iobattery %s - %s - %s - %s (%s, %s)\n", nz(e->tool_version, "?"),
		nz(e->host, "?"), nz(e->date, "?"), nz(e->target, "?"), nz(e->fs_type, "?"),
		nz(e->device, "no block device"));
	return ferror(f) ? -EIO : 0;
}

static int text_row(FILE *f, const struct run *run, const struct row *row)
{
	const struct out_text_renderer *r = text_renderer(row->workload);
	int rc;

	/* every write workload's --verify phase looks the same (runner/vhook.h), placed by
	 * the renderer where its table would be cut by it (iozone's, a row per cell) */
	if (row->phase && !strcmp(row->phase, "verify") && !(r && r->own_verify))
		return text_verify_row(f, run, row);
	if (!r)
		return out_text_generic_row(f, run, row);
	if (r->head && text_block_start(run, row)) {
		rc = r->head(f, run);
		if (rc < 0)
			return rc;
	}
	return r->row(f, run, row);
}

static int text_end(FILE *f, const struct run *run)
{
	if (out_text_ranks(f, run) < 0)		/* several ranks only */
		return -EIO;
	return ferror(f) ? -EIO : 0;
}

const struct out_fmt out_text = {
	.name = "text",
	.ext = "txt",
	.begin = text_begin,
	.row = text_row,
	.end = text_end,
};

/* "1.57 GB/s" (output/numfmt.h), or "-" when the row has no figure. */
static char *text_rate(char *buf, size_t len, const struct row *w)
{
	if ((w->flags & (ROW_NOT_MEASURED | ROW_FAILED)) || w->rate != w->rate)
		snprintf(buf, len, "-");
	else
		numfmt(buf, len, w->rate, w->rate_unit);
	return buf;
}

/* A metric: a count of things exactly ("200107 files"), a measurement with three
 * significant figures and its prefix ("18.3 ms"). */
static char *text_metric(char *buf, size_t len, const struct metric *m)
{
	struct numfmt_unit u;

	numfmt_unit_parse(m->unit, &u);
	if (u.kind == NUMFMT_COUNT && m->value == floor(m->value) && fabs(m->value) < 1e15)
		snprintf(buf, len, "%.0f%s%s", m->value, u.base[0] ? " " : "", u.base);
	else
		numfmt(buf, len, m->value, m->unit);
	return buf;
}

int out_text_generic_row(FILE *f, const struct run *run, const struct row *w)
{
	char rate[64], t[32];

	(void)run;
	fprintf(f, "%s %s: ", nz(w->workload, "?"), nz(w->phase, "?"));
	if (w->flags & ROW_NOT_MEASURED)
		fputs("not measured\n", f);
	else if (w->bytes)
		fprintf(f, "%s (%llu bytes in %s)\n", text_rate(rate, sizeof(rate), w),
			(unsigned long long)w->bytes,
			numfmt(t, sizeof(t), (double)w->elapsed_ns, "ns"));
	else
		fprintf(f, "%s (%llu ops in %s)\n", text_rate(rate, sizeof(rate), w),
			(unsigned long long)w->ops,
			numfmt(t, sizeof(t), (double)w->elapsed_ns, "ns"));
	if (w->params.n) {
		fputs("  params:", f);
		for (size_t i = 0; i < w->params.n; i++)
			fprintf(f, " %s=%s", w->params.v[i].key, nz(w->params.v[i].value, ""));
		fputc('\n', f);
	}
	for (size_t i = 0; i < w->nmetrics; i++)
		fprintf(f, "  %s: %s\n", nz(w->metrics[i].name, "?"),
			text_metric(rate, sizeof(rate), &w->metrics[i]));
	return out_text_extras(f, w);
}


/* ---- summary table ---- */

static void table_flags(char *buf, size_t len, unsigned flags)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < 32; i++) {
		const char *n = result_flag_name(1u << i);

		if (!(flags & (1u << i)) || !n)
			continue;
		if (buf[0])
			strncat(buf, ",", len - strlen(buf) - 1);
		strncat(buf, n, len - strlen(buf) - 1);
	}
}

static void table_secs(char *buf, size_t len, uint64_t ns)
{
	if (ns)
		snprintf(buf, len, "%.3f", (double)ns / 1e9);
	else
		snprintf(buf, len, "-");
}

int out_text_table(FILE *f, const struct run *run)
{
	int ww = 8, pw = 5, dw = 6;
	char rate[64], el[32], du[32], cpu[16], p99[32], cache[16], flags[160];

	/* RK_ROW_DETAIL is a short row param a workload sets to tell its rows apart in this
	 * table (dd: the block size, cp: the method). */
	for (size_t i = 0; i < run->nrows; i++) {
		int a = (int)strlen(nz(run->rows[i]->workload, "?"));
		int b = (int)strlen(nz(run->rows[i]->phase, "?"));
		int c = (int)strlen(nz(kv_get(&run->rows[i]->params, RK_ROW_DETAIL), "-"));

		ww = a > ww ? a : ww;
		pw = b > pw ? b : pw;
		dw = c > dw ? c : dw;
	}
	fprintf(f, "%-*s  %-*s  %-*s  %16s  %9s  %9s  %6s  %10s  %6s  flags\n", ww, "workload",
		pw, "phase", dw, "detail", "rate", "elapsed s", "durable s", "%cpu", "p99",
		"cache");
	for (size_t i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		text_rate(rate, sizeof(rate), w);
		table_secs(el, sizeof(el), w->elapsed_ns);
		table_secs(du, sizeof(du), w->durable_ns);
		if (w->cpu.valid)
			snprintf(cpu, sizeof(cpu), "%.1f", w->cpu.proc_pct);
		else
			snprintf(cpu, sizeof(cpu), "-");
		if (w->lat.valid && w->lat.n)
			numfmt(p99, sizeof(p99), (double)w->lat.p99_ns, "ns");
		else
			snprintf(p99, sizeof(p99), "-");
		if (w->cache_pct >= 0)
			snprintf(cache, sizeof(cache), "%.0f%%", w->cache_pct);
		else
			snprintf(cache, sizeof(cache), "-");
		table_flags(flags, sizeof(flags), w->flags);
		fprintf(f, "%-*s  %-*s  %-*s  %16s  %9s  %9s  %6s  %10s  %6s%s%s\n", ww,
			nz(w->workload, "?"), pw, nz(w->phase, "?"), dw,
			nz(kv_get(&w->params, RK_ROW_DETAIL), "-"), rate, el, du, cpu, p99, cache,
			flags[0] ? "  " : "", flags);
	}
	return ferror(f) ? -EIO : 0;
}
