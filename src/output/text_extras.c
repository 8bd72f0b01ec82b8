/* text_extras.c - the block every text renderer ends a row with: buffered and durable
 * times, CPU, latency percentiles, cache residency, flags and the ceilings behind them
 * (text_renderers.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/units.h"
#include "output/numfmt.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_keys.h"

#define TEXT_COLS	80	/* the terminal the lines are wrapped for */

static void text_cpu(FILE *f, const struct row *w)
{
	const struct row_cpu *c = &w->cpu;
	char t[32];

	/* an imported row has what the old output said (time's user and sys): no system
	 * share or CPU per operation it never measured */
	int imp = (w->flags & ROW_IMPORTED) != 0;

	fprintf(f, "  cpu: %.1f%% process (user %.2f s, sys %.2f s)", c->proc_pct, c->user_s,
		c->sys_s);
	if (!imp || c->sys_busy_pct > 0 || c->sys_busy_s > 0)
		fprintf(f, ", system busy %.1f%%", c->sys_busy_pct);
	if (w->ops && (!imp || c->cpu_ns_per_op > 0))
		fprintf(f, ", %s cpu/op", numfmt(t, sizeof(t), c->cpu_ns_per_op, "ns"));
	fputc('\n', f);
}

static void text_lat(FILE *f, const struct row_lat *l)
{
	static const char *const names[] = { "p50", "p90", "p99", "p99.9", "max" };
	const uint64_t v[] = { l->p50_ns, l->p90_ns, l->p99_ns, l->p999_ns, l->max_ns };
	char t[32];

	fputs("  latency:", f);
	for (size_t i = 0; i < 5; i++)
		fprintf(f, "%s%s %s", i ? "  " : " ", names[i],
			numfmt(t, sizeof(t), (double)v[i], "ns"));
	fprintf(f, " (n=%llu)\n", (unsigned long long)l->n);
}

/* Flags in words, one line each, by their one name and meaning (stats/flags.h). */
static void text_flags(FILE *f, const struct row *w)
{
	for (unsigned i = 0; flag_table[i].name; i++) {
		if (!(w->flags & flag_table[i].bit))
			continue;
		if (flag_table[i].bit == ROW_FAILED)
			fprintf(f, "  failed: %s\n", w->error ? w->error : "unknown error");
		else
			fprintf(f, "  %s: %s\n", flag_table[i].name, flag_table[i].meaning);
	}
	if (w->error && !(w->flags & ROW_FAILED))
		fprintf(f, "  error: %s\n", w->error);
}

/* The figures behind over_ceiling and tool_bound: the ceiling passed, the tool's limit
 * against the row (docs/methodology.md, "Ceilings"). Nothing for a row without them. */
static void text_ceiling(FILE *f, const struct row *w)
{
	const struct row_ceiling *c = w->ceiling;
	char a[NUMFMT_LEN], b[NUMFMT_LEN], d[NUMFMT_LEN], e[NUMFMT_LEN];
	int link;

	if (!c)
		return;
	if ((w->flags & ROW_OVER_CEILING) && isfinite(c->rate_bytes_s)) {
		link = isfinite(c->link_bytes_s) && c->rate_bytes_s > c->link_bytes_s;
		fprintf(f, "  ceiling: %s against the %s's %s\n",
			numfmt(a, sizeof(a), c->rate_bytes_s, "B/s"), link ? "link" : "memory copy",
			numfmt(b, sizeof(b), link ? c->link_bytes_s : c->memory_bytes_s, "B/s"));
	}
	if (!(w->flags & ROW_TOOL_BOUND) || !isfinite(c->tool_ops_s))
		return;
	fprintf(f, "  tool's limit: %s", numfmt(a, sizeof(a), c->tool_ops_s, "requests/s"));
	if (isfinite(c->tool_cpu_ns_per_op))
		fprintf(f, ", %s CPU a request", numfmt(d, sizeof(d), c->tool_cpu_ns_per_op, "ns"));
	fprintf(f, "\n    this row:  %s", numfmt(b, sizeof(b), c->rate_ops_s, "requests/s"));
	if (isfinite(row_cpu_per_op(w)))
		fprintf(f, ", %s CPU a request", numfmt(e, sizeof(e), row_cpu_per_op(w), "ns"));
	if (c->tool_settings[0])
		fprintf(f, "\n    measured:  %s", c->tool_settings);
	fputc('\n', f);
}

void out_text_wrap_line(FILE *f, const char *line, size_t len)
{
	size_t lead = 0, ind, col, start = 0, cut, i;
	const char *colon;

	while (lead < len && line[lead] == ' ')
		lead++;
	colon = memchr(line + lead, ':', len - lead);
	ind = colon && (size_t)(colon - line) + 1 < len && colon[1] == ' ' &&
	      (size_t)(colon - line) < TEXT_COLS / 2 ? (size_t)(colon - line) + 1 : lead + 1;
	while (ind < len && line[ind] == ' ')
		ind++;
	col = 0;
	while (len - start + col > TEXT_COLS) {
		cut = 0;
		for (i = start; i < len && i - start + col <= TEXT_COLS; i++)
			if (line[i] == ' ' && i > start)
				cut = i;
		if (!cut)		/* one word longer than the line: to its end */
			for (cut = start; cut < len && line[cut] != ' '; cut++)
				;
		if (cut >= len)
			break;
		fprintf(f, "%*s%.*s\n", (int)col, "", (int)(cut - start), line + start);
		start = cut;
		while (start < len && line[start] == ' ')
			start++;
		col = ind;
	}
	fprintf(f, "%*s%.*s\n", (int)col, "", (int)(len - start), line + start);
}

/* The extras into f as iobattery's own lines are printed: each line wrapped at 80
 * columns (the tools' own layouts, printed before, are left as they are). */
static int extras_body(FILE *f, const struct row *w);

int out_text_extras(FILE *f, const struct row *w)
{
	char *buf = NULL, *p, *nl;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return extras_body(f, w);
	rc = extras_body(m, w);
	if (fclose(m) != 0 || !buf) {
		free(buf);
		return -EIO;
	}
	for (p = buf; p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(buf + len - p));
		if (!nl)
			nl = buf + len;
		out_text_wrap_line(f, p, (size_t)(nl - p));
	}
	free(buf);
	return rc < 0 ? rc : ferror(f) ? -EIO : 0;
}

static int extras_body(FILE *f, const struct row *w)
{
	char a[32], b[32];

	if (w->buffered_ns && w->durable_ns)
		fprintf(f, "  buffered %s, durable %s\n",
			numfmt(a, sizeof(a), (double)w->buffered_ns, "ns"),
			numfmt(b, sizeof(b), (double)w->durable_ns, "ns"));
	else if (w->buffered_ns)
		fprintf(f, "  buffered %s\n", numfmt(a, sizeof(a), (double)w->buffered_ns, "ns"));
	else if (w->durable_ns)
		fprintf(f, "  durable %s\n", numfmt(b, sizeof(b), (double)w->durable_ns, "ns"));
	if (w->cpu.valid)
		text_cpu(f, w);
	if (w->lat.valid && w->lat.n)
		text_lat(f, &w->lat);
	/* The cache verdict note says the share itself; otherwise print it here. */
	if (w->cache_pct >= 0 && !result_note_states_cache(w))
		fprintf(f, "  cache: %.0f%% resident at start%s\n", w->cache_pct,
			w->cache_dropped ? " (after dropping it)" : "");
	if (w->note)
		fprintf(f, "  %s\n", w->note);
	text_flags(f, w);
	text_ceiling(f, w);
	out_text_system(f, w, NULL);
	return ferror(f) ? -EIO : 0;
}
