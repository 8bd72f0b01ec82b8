/* text_table.c - the compact table of a run's rows (the battery's text, one table per
 * configuration): at most TABLE_WIDTH columns, one unit family for every byte rate, and
 * every flag a row carries on a line of its own under the row, by its JSON name. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/numfmt.h"
#include "output/output.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* The widest line the table prints: it reads in an 80-column terminal. */
#define TABLE_WIDTH	80
/* The figure's name (workload, phase, detail) wraps at word ends past this width. */
#define FIG_W		23

static int units_binary;


void out_text_set_units(int binary)
{
	units_binary = binary ? 1 : 0;
}

int out_text_units_binary(void)
{
	return units_binary;
}

char *out_text_rate(char *buf, size_t len, double v, const char *unit)
{
	struct numfmt_unit u;

	if (v != v) {
		snprintf(buf, len, "-");
		return buf;
	}
	numfmt_unit_parse(unit, &u);
	if (u.kind != NUMFMT_BYTES || !u.per_s)
		return numfmt(buf, len, v, unit);
	/* every byte rate in one family, whatever unit its workload recorded it in */
	v *= u.scale;
	return units_binary ? numfmt(buf, len, v / 1024.0, "KiB/s") : numfmt(buf, len, v, "B/s");
}

static const char *nz(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* "workload phase detail" of row w into buf. */
static void fig_name(char *buf, size_t len, const struct row *w)
{
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);

	snprintf(buf, len, "%s %s%s%s", nz(w->workload, "?"), nz(w->phase, "?"),
		 d && *d ? " " : "", d && *d ? d : "");
}

/* The first line of name that fits FIG_W (cut after a space or a comma where it can),
 * copied to out; returns where the rest starts. */
static const char *fig_cut(const char *name, char *out, size_t len)
{
	size_t n = strlen(name), cut = n, i;

	if (n > FIG_W) {
		cut = FIG_W;
		for (i = FIG_W; i > FIG_W / 2; i--)
			if (name[i] == ' ' || name[i - 1] == ',') {
				cut = i;
				break;
			}
	}
	if (cut >= len)
		cut = len - 1;
	memcpy(out, name, cut);
	out[cut] = '\0';
	name += cut;
	while (*name == ' ')
		name++;
	return name;
}

static void table_secs(char *buf, size_t len, uint64_t ns)
{
	if (ns)
		snprintf(buf, len, "%.3f", (double)ns / 1e9);
	else
		snprintf(buf, len, "-");
}

void out_text_flags_line(FILE *f, const struct row *w, const char *prefix)
{
	size_t col = 0, ind = strlen(prefix) + 7;

	for (unsigned i = 0; i < 32; i++) {
		const char *n = result_flag_name(1u << i);

		if (!(w->flags & (1u << i)) || !n)
			continue;
		if (!col) {
			fprintf(f, "%sflags: ", prefix);
			col = ind;
		} else if (col + 2 + strlen(n) > TABLE_WIDTH) {
			fprintf(f, ",\n%*s", (int)ind, "");
			col = ind;
		} else {
			fputs(", ", f);
			col += 2;
		}
		fputs(n, f);
		col += strlen(n);
	}
	if (col)
		fputc('\n', f);
}

static void table_row(FILE *f, const struct row *w)
{
	char name[256], line[FIG_W + 1], rate[NUMFMT_LEN], el[32], du[32], cpu[16];
	char p99[NUMFMT_LEN], cache[16];
	const char *rest;

	if ((w->flags & (ROW_NOT_MEASURED | ROW_FAILED)))
		snprintf(rate, sizeof(rate), "-");
	else
		out_text_rate(rate, sizeof(rate), w->rate, w->rate_unit);
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
	fig_name(name, sizeof(name), w);
	rest = fig_cut(name, line, sizeof(line));
	fprintf(f, "%-*s  %14s  %7s  %7s  %5s  %8s  %4s\n", FIG_W, line, rate, el, du, cpu,
		p99, cache);
	while (*rest) {
		rest = fig_cut(rest, line, sizeof(line) - 2);
		fprintf(f, "  %s\n", line);
	}
	out_text_flags_line(f, w, "  ");
}

int out_text_table(FILE *f, const struct run *run)
{
	fprintf(f, "%-*s  %14s  %7s  %7s  %5s  %8s  %4s\n", FIG_W, "figure", "rate",
		"elapsed", "durable", "%cpu", "p99", "page");
	for (size_t i = 0; i < run->nrows; i++)
		table_row(f, run->rows[i]);
	fputs("(elapsed, durable: seconds until the last write returned, until fsync\n"
	      " or fdatasync returned; page: how much of a read's data was in the page cache)\n",
	      f);
	return ferror(f) ? -EIO : 0;
}
