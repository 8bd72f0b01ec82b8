/* text_iozone.c - iozone's text: the banner, the auto-mode table (its two header rows,
 * one line per file size and record size, iozone's column widths, kB/s as integers),
 * the throughput mode's Children/Parent lines, the -R report blocks, then what iozone
 * never said: which cells measured RAM (listed after the table, never marked inside it:
 * iozone's own report.pl, iozone_visualizer.pl and iozone2csv take only lines of digits
 * and blanks between the header and the blank line), and the cache cliff.
 * Cells not measured are blank, never 0. Reads only the model. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/iozone_out.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/iozone_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char *opt(const struct run *run, const char *key)
{
	return kv_get(&run->options, key);
}

static int opt_on(const struct run *run, const char *key)
{
	const char *v = opt(run, key);

	return v && strcmp(v, "0") != 0;
}

static unsigned long long param(const struct row *w, const char *key)
{
	const char *v = kv_get(&w->params, key);

	return v ? strtoull(v, NULL, 10) : 0;
}

/* A cell's --verify row: in the table's cell, not one of its columns. */
static int is_verify(const struct row *w)
{
	return iozone_is_row(w) && w->phase && !strcmp(w->phase, "verify");
}

static int same_cell(const struct row *a, const struct row *b)
{
	return iozone_is_row(a) && iozone_is_row(b) && a->repeat == b->repeat &&
	       param(a, RK_IOZ_FILE_KB) == param(b, RK_IOZ_FILE_KB) &&
	       param(a, RK_IOZ_RECLEN_KB) == param(b, RK_IOZ_RECLEN_KB);
}

static size_t index_of(const struct run *run, const struct row *w)
{
	size_t i;

	for (i = 0; i < run->nrows && run->rows[i] != w; i++)
		;
	return i;
}

static int tput_mode(const struct run *run)
{
	const char *v = opt(run, RK_IOZ_WORKERS);

	return v && strtoul(v, NULL, 10) > 1;
}

static int extended(const struct run *run)
{
	return opt_on(run, RK_IOZ_EXTENDED);
}

static void banner(FILE *f, const struct run *run)
{
	fprintf(f, "\tIozone: Performance Test of File I/O\n"
		   "\t        iozone's tests, measured by iobattery %s\n\n",
		run->env.tool_version ? run->env.tool_version : "");
	fprintf(f, "\tRun began: %s\n\n", run->env.date ? run->env.date : "?");
	if (opt_on(run, RK_IOZ_AUTO))
		fprintf(f, "\tAuto Mode\n");
	if (opt_on(run, RK_IOZ_NO_CROSSOVER))
		fprintf(f, "\tCross over of record size disabled.\n");
	if (opt_on(run, RK_IOZ_FSYNC_TIMED))
		fprintf(f, "\tInclude fsync in write timing\n");
	if (opt_on(run, RK_IOZ_CLOSE_TIMED))
		fprintf(f, "\tInclude close in write timing\n");
	if (opt_on(run, RK_IOZ_DIRECT))
		fprintf(f, "\tO_DIRECT feature enabled\n");
	if (opt_on(run, RK_IOZ_OSYNC))
		fprintf(f, "\tSYNC Mode. \n");
	if (opt_on(run, RK_IOZ_NO_RETEST))
		fprintf(f, "\tNo retest option selected\n");
	if (opt(run, RK_IOZ_DEPTH) && strcmp(opt(run, RK_IOZ_DEPTH), "1"))
		fprintf(f, "\tAsync I/O: %s requests in flight (engine %s)\n",
			opt(run, RK_IOZ_DEPTH), opt(run, "engine") ? opt(run, "engine") : "?");
	if (opt_on(run, RK_IOZ_KEEP))
		fprintf(f, "\tSetting no_unlink\n");
	if (opt_on(run, RK_IOZ_VERIFY))
		fprintf(f, "\tVerify mode: every record written through the engine carries a "
			   "header and a CRC32C, read back after each cell's tests\n");
	if (opt(run, RK_IOZ_FILE_KB) && !opt_on(run, RK_IOZ_AUTO))
		fprintf(f, "\tFile size set to %s kB\n", opt(run, RK_IOZ_FILE_KB));
	if (opt(run, RK_IOZ_RECLEN_KB) && !opt_on(run, RK_IOZ_AUTO))
		fprintf(f, "\tRecord Size %s kB\n", opt(run, RK_IOZ_RECLEN_KB));
	fprintf(f, "\tCommand line used: %s\n", run->command_line ? run->command_line : "");
	fprintf(f, "\tOutput is in kBytes/sec\n");
	fprintf(f, "\tTime Resolution = 0.000000001 seconds.\n");
	fprintf(f, "\tProcessor cache size set to %s kBytes.\n",
		opt(run, RK_IOZ_CACHE_KB) ? opt(run, RK_IOZ_CACHE_KB) : "1024");
	fprintf(f, "\tProcessor cache line size set to %s bytes.\n",
		opt(run, RK_IOZ_LINE_BYTES) ? opt(run, RK_IOZ_LINE_BYTES) : "32");
	fprintf(f, "\tFile stride size set to %s * record size.\n",
		opt(run, RK_IOZ_STRIDE) ? opt(run, RK_IOZ_STRIDE) : "17");
}

static void table_head(FILE *f, const struct run *run)
{
	int ncols = extended(run) ? IOZ_NCOLS_EXT : IOZ_NCOLS_BASE, p, row;

	for (row = 0; row < 2; row++) {
		fprintf(f, "%16s%8s", row ? "kB" : "", row ? "reclen" : "");
		for (p = 0; p < ncols; p++) {
			const struct iozone_pass_info *pi = iozone_pass(p);

			fprintf(f, "%*s", pi->head_w, row ? pi->head : pi->top);
		}
		fputc('\n', f);
	}
}

/* One line of the table: the cell of the rows [from, to). */
static void table_line(FILE *f, const struct run *run, size_t from, size_t to)
{
	int ncols = extended(run) ? IOZ_NCOLS_EXT : IOZ_NCOLS_BASE, p;
	char line[512], num[32];
	size_t n, i;

	n = (size_t)snprintf(line, sizeof(line), "%16llu%8llu",
			     param(run->rows[from], RK_IOZ_FILE_KB),
			     param(run->rows[from], RK_IOZ_RECLEN_KB));
	for (p = 0; p < ncols && n < sizeof(line) - 32; p++) {
		const struct iozone_pass_info *pi = iozone_pass(p);
		const struct row *w = NULL;

		for (i = from; i < to && !w; i++)
			if (iozone_pass_of(run->rows[i]->phase) == p)
				w = run->rows[i];
		if (!w || (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))) {
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%*s", pi->data_w, "");
			continue;
		}
		snprintf(num, sizeof(num), "%.0f", floor(w->rate));
		/* iozone's width; a wider value still gets a blank before it */
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%*s%s",
				      pi->data_w - (int)strlen(num) > 0 ?
				      pi->data_w - (int)strlen(num) : 1, "", num);
	}
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

/* ---- throughput mode -------------------------------------------------------------- */

static double metric(const struct row *w, const char *name)
{
	const struct metric *m = row_metric(w, name);

	return m ? m->value : 0;
}

static const char *port(const struct run *run)
{
	return opt_on(run, RK_IOZ_THREADS) ? "thread" : "process";
}

static void tput_head(FILE *f, const struct run *run)
{
	const char *n = opt(run, RK_IOZ_WORKERS), *s = opt(run, RK_IOZ_FILE_KB),
		   *r = opt(run, RK_IOZ_RECLEN_KB);

	fprintf(f, "\tThroughput test with %s %s\n", n ? n : "?",
		opt_on(run, RK_IOZ_THREADS) ? "threads" : "processes");
	if (!opt_on(run, RK_IOZ_THREADS))
		fprintf(f, "\tWorkers are threads in iobattery, with or without -T.\n");
	fprintf(f, "\tEach %s writes a %s kByte file in %s kByte records\n\n", port(run),
		s ? s : "?", r ? r : "?");
}

static void tput_block(FILE *f, const struct run *run, const struct row *w)
{
	const struct iozone_pass_info *pi = iozone_pass(iozone_pass_of(w->phase));
	unsigned long long n = param(w, RK_IOZ_WORKERS);

	if (!pi || !pi->tput)
		return;
	if (w->flags & ROW_FAILED) {
		fprintf(f, "\t%s failed: %s\n\n", pi->tput, w->error ? w->error : "?");
		return;
	}
	fprintf(f, "\tChildren see throughput for %*llu %s%s= %10.2f kB/sec\n", pi->tput_w, n,
		pi->tput, pi->tput_tab, w->rate);
	fprintf(f, "\tParent sees throughput for %*llu %s%s= %10.2f kB/sec\n", pi->tput_w, n,
		pi->tput, pi->ptab, metric(w, RK_IOZ_PARENT_RATE));
	fprintf(f, "\tMin throughput per %s \t\t\t= %10.2f kB/sec \n", port(run),
		metric(w, RK_IOZ_MIN_RATE));
	fprintf(f, "\tMax throughput per %s \t\t\t= %10.2f kB/sec\n", port(run),
		metric(w, RK_IOZ_MAX_RATE));
	fprintf(f, "\tAvg throughput per %s \t\t\t= %10.2f kB/sec\n", port(run),
		metric(w, RK_IOZ_AVG_RATE));
	fprintf(f, "\tMin xfer \t\t\t\t\t= %10.2f kB\n", metric(w, RK_IOZ_MIN_XFER));
	if (metric(w, RK_IOZ_STONEWALLED) > 0)
		fprintf(f, "\t(%.0f of %llu workers stopped counting when the first one "
			   "finished: stonewalling)\n", metric(w, RK_IOZ_STONEWALLED), n);
	fputc('\n', f);
}

/* iozone's names of the throughput tests, for its -R block. */
static const char *tput_name(int p)
{
	switch (p) {
	case IOZ_WRITE: return "Initial write";
	case IOZ_REWRITE: return "Rewrite";
	case IOZ_READ: return "Read";
	case IOZ_REREAD: return "Re-read";
	case IOZ_BKWD_READ: return "Reverse Read";
	case IOZ_STRIDE_READ: return "Stride read";
	case IOZ_RANDOM_READ: return "Random read";
	case IOZ_RANDOM_MIX: return "Mixed workload";
	case IOZ_RANDOM_WRITE: return "Random write";
	case IOZ_PWRITE: return "Pwrite";
	case IOZ_PREAD: return "Pread";
	case IOZ_FWRITE: return "Fwrite";
	case IOZ_FREAD: return "Fread";
	}
	return "?";
}

static void tput_excel(FILE *f, const struct run *run)
{
	size_t i;

	fprintf(f, "\n\"Throughput report Y-axis is type of test X-axis is number of %s\"\n",
		opt_on(run, RK_IOZ_THREADS) ? "threads" : "processes");
	fprintf(f, "\"Record size = %s kBytes \"\n", opt(run, RK_IOZ_RECLEN_KB) ?
		opt(run, RK_IOZ_RECLEN_KB) : "?");
	fprintf(f, "\"Output is in kBytes/sec\"\n\n");
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		if (!iozone_is_row(w) || w->repeat)
			continue;
		fprintf(f, "\"%15s \"", tput_name(iozone_pass_of(w->phase)));
		if (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))
			fprintf(f, " \"\" \n\n");
		else
			fprintf(f, " %10.2f \n\n", w->rate);
	}
}

/* ---- the -R blocks ---------------------------------------------------------------- */

static void excel_block(FILE *f, const struct iozone_matrix *m, int p)
{
	size_t fi, r;

	fprintf(f, "\n\"%s\"\n      ", iozone_pass(p)->report);
	for (r = 0; r < m->nr; r++)
		fprintf(f, "  \"%llu\"", (unsigned long long)m->rec_kb[r]);
	fputc('\n', f);
	for (fi = 0; fi < m->nf; fi++) {
		fprintf(f, "\"%llu\"  ", (unsigned long long)m->file_kb[fi]);
		for (r = 0; r < m->nr && m->rec_kb[r] <= m->file_kb[fi]; r++) {
			const struct iozone_cell *c = iozone_at(m, p, fi, r);

			/* a cell iozone skips (or one that failed) is blank, never 0 */
			if (!c->row || c->kbps < 0)
				fprintf(f, " \"\" ");
			else
				fprintf(f, " %.0f ", floor(c->kbps));
		}
		fputc('\n', f);
	}
}

int text_iozone_excel(FILE *f, const struct run *run)
{
	struct iozone_matrix m;
	int p, n;

	if (tput_mode(run)) {
		tput_excel(f, run);
		return ferror(f) ? -EIO : 0;
	}
	n = iozone_matrix_build(run, 0, &m);
	if (n < 0)
		return n;
	fprintf(f, "Excel output is below:\n");
	for (p = 0; p < IOZ_NPASS; p++)
		if (m.passes & (1u << p) && iozone_pass(p)->report)
			excel_block(f, &m, p);
	iozone_matrix_free(&m);
	return ferror(f) ? -EIO : 0;
}

/* ---- what iozone never said ---------------------------------------------------------- */

static int ram_cell(const struct row *w)
{
	const struct metric *mk = row_metric(w, RK_IOZ_RAM_SPEED);

	return iozone_is_row(w) && !is_verify(w) && mk && mk->value > 0;
}

/* The cells that measured RAM, one line per line of the table that has any: "64 kB/16 kB"
 * (file and record, as the repeats' figures name them), then the passes by their phase
 * names (a repeat's lines say which repeat). Outside the table, and starting with a word,
 * so that a reader of iozone's table takes none of them for a line of it. */
static void ram_cells(FILE *f, const struct run *run)
{
	size_t i = 0, j, k;

	while (i < run->nrows) {
		const struct row *w = run->rows[i];
		int any = 0;

		for (k = i + 1; k < run->nrows && same_cell(run->rows[k], w); k++)
			;
		for (j = i; j < k; j++)
			any |= ram_cell(run->rows[j]);
		if (any) {
			fprintf(f, "\t  cell %llu kB/%llu kB", param(w, RK_IOZ_FILE_KB),
				param(w, RK_IOZ_RECLEN_KB));
			if (w->repeat)
				fprintf(f, " (repeat %u)", w->repeat + 1);
			fputc(':', f);
			for (j = i; j < k; j++)
				if (ram_cell(run->rows[j]))
					fprintf(f, " %s", run->rows[j]->phase);
			fputc('\n', f);
		}
		i = k;
	}
}

static void legend(FILE *f, const struct run *run, const struct iozone_matrix *m)
{
	double cache = opt(run, RK_IOZ_PAGE_CACHE_BYTES) ?
		       strtod(opt(run, RK_IOZ_PAGE_CACHE_BYTES), NULL) : 0;
	double rd = opt(run, RK_IOZ_DEVICE_READ) ? strtod(opt(run, RK_IOZ_DEVICE_READ), NULL) : 0;
	double wr = opt(run, RK_IOZ_DEVICE_WRITE) ? strtod(opt(run, RK_IOZ_DEVICE_WRITE), NULL) : 0;
	const char *probe = opt(run, RK_IOZ_PROBE);
	struct iozone_cliff cl;
	char c[32], a[32], b[32], line[400];
	size_t i, marked = 0, cached = 0, nrows = 0;

	for (i = 0; i < run->nrows; i++) {
		if (!iozone_is_row(run->rows[i]) || is_verify(run->rows[i]))
			continue;
		nrows++;
		marked += ram_cell(run->rows[i]);
		cached += (run->rows[i]->flags & ROW_CACHE_INFLATED) != 0;
	}
	units_fmt_bytes(c, sizeof(c), cache);
	fprintf(f, "\n");
	if (rd > 0 || wr > 0)
		fprintf(f, "\tRAM, not the device: %zu of %zu cells: the file fit in the page "
			   "cache (about %s) and the rate is over 10%% above the device measured "
			   "alone (read %s, write %s, O_DIRECT)%s\n", marked, nrows, c,
			units_fmt_si(a, sizeof(a), rd, "B/s"),
			units_fmt_si(b, sizeof(b), wr, "B/s"), marked ? ":" : "");
	else
		fprintf(f, "\tRAM, not the device: %zu of %zu cells: read while the file was at "
			   "least half in the page cache (about %s; no device limit: %s)%s\n",
			marked, nrows, c, probe ? probe : "not measured", marked ? ":" : "");
	ram_cells(f, run);
	fprintf(f, "\t%zu read cells came largely from the page cache (cache_pct in the JSON "
		   "output, per cell)\n", cached);
	iozone_cliff_find(m, &cl);
	fprintf(f, "\t%s\n", iozone_cliff_line(line, sizeof(line), &cl, (uint64_t)cache));
}

/* ---- --verify: a check per cell ----------------------------------------------------- */

/* After the matrix: one check as every workload prints it; the checks of several cells
 * in one line, then each failed one in full (a block per cell would double the table). */
static int verify_section(FILE *f, const struct run *run)
{
	double blocks = 0, files = 0, bad = 0, bytes = 0, ns = 0;
	const struct row *one = NULL;
	const char *crc, *drop;
	size_t i, n = 0, nbad = 0;
	char b[32], t[32];
	int rc;

	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		if (!is_verify(w))
			continue;
		one = one ? one : w;
		n++;
		blocks += metric(w, RK_VERIFY_BLOCKS);
		files += metric(w, RK_VERIFY_FILES);
		bad += metric(w, RK_VERIFY_BAD_BLOCKS);
		bytes += (double)w->bytes;
		ns += (double)w->elapsed_ns;
		nbad += (w->flags & ROW_FAILED) != 0;
	}
	if (!n)
		return 0;
	fputc('\n', f);
	if (n == 1)
		return text_verify_row(f, run, one);
	fprintf(f, "iozone verify: %zu cells, %.0f blocks in %.0f files (%s) read back in %s, "
		   "%.1f MB/s: ", n, blocks, files, units_fmt_bytes(b, sizeof(b), bytes),
		units_fmt_ns(t, sizeof(t), ns), ns > 0 ? bytes / (ns / 1e9) / 1e6 : 0);
	if (bad)
		fprintf(f, "%.0f bad in %zu cell%s\n", bad, nbad, nbad == 1 ? "" : "s");
	else if (nbad)
		fprintf(f, "not all checked in %zu cell%s\n", nbad, nbad == 1 ? "" : "s");
	else
		fputs("all as written\n", f);
	crc = kv_get(&one->params, RK_VERIFY_CRC_PATH);
	drop = kv_get(&one->params, RK_VERIFY_AFTER_DROP);
	fprintf(f, "  a run id per cell, crc32c path %s%s\n", crc ? crc : "?",
		drop && !strcmp(drop, "true") ? ", read after dropping the page cache" : "");
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		if (!is_verify(w) || !(w->flags & ROW_FAILED))
			continue;
		fprintf(f, "  the %llu kB file in %llu kB records%s:\n", param(w, RK_IOZ_FILE_KB),
			param(w, RK_IOZ_RECLEN_KB), w->repeat ? ", a later repeat" : "");
		if ((rc = text_verify_row(f, run, w)) < 0)
			return rc;
	}
	return 0;
}

static int last_iozone_row(const struct run *run, size_t i)
{
	size_t k;

	for (k = i + 1; k < run->nrows; k++)
		if (iozone_is_row(run->rows[k]))
			return 0;
	return 1;
}

static int first_iozone_row(const struct run *run, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (iozone_is_row(run->rows[k]))
			return 0;
	return 1;
}

static int footer(FILE *f, const struct run *run)
{
	struct iozone_matrix m;
	int rc = 0, interrupted = (run->flags & RUN_INCOMPLETE) != 0;
	size_t i;

	for (i = 0; i < run->nrows; i++)
		interrupted |= (run->rows[i]->flags & ROW_INCOMPLETE) != 0;
	fprintf(f, interrupted ? "\niozone: interrupted: the matrix above stops there; the "
				 "last cell is partial\n\n" : "\niozone test complete.\n");
	/* after iozone's closing line, so that the blocks above stay as iozone's */
	if (tput_mode(run))
		fprintf(f, "\n\tChildren see: the sum of each worker's own rate (the kB it "
			   "counted over its own time). Parent sees: all counted kB over the time "
			   "from the start until the first worker finished (with -x: the last).\n");
	if (opt_on(run, RK_IOZ_EXCEL))
		rc = text_iozone_excel(f, run);
	if (!tput_mode(run) && iozone_matrix_build(run, 0, &m) > 0) {
		legend(f, run, &m);
		iozone_matrix_free(&m);
	}
	if (!rc)
		rc = verify_section(f, run);
	return rc;
}

int text_iozone_row(FILE *f, const struct run *run, const struct row *row)
{
	size_t i = index_of(run, row), from;
	int rc = 0;

	if (i >= run->nrows)
		return 0;
	if (first_iozone_row(run, i)) {
		banner(f, run);
		if (tput_mode(run))
			tput_head(f, run);
		else
			table_head(f, run);
	}
	if (tput_mode(run)) {
		tput_block(f, run, row);
	} else if (i + 1 >= run->nrows || !same_cell(run->rows[i + 1], row)) {
		for (from = i; from > 0 && same_cell(run->rows[from - 1], row); from--)
			;
		if (row->repeat && from > 0 && run->rows[from - 1]->repeat != row->repeat)
			fprintf(f, "\n\trepeat %u\n", row->repeat + 1);
		table_line(f, run, from, i + 1);
	}
	if (last_iozone_row(run, i))
		rc = footer(f, run);
	return rc < 0 ? rc : ferror(f) ? -EIO : 0;
}
