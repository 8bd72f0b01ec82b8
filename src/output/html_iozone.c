/* html_iozone.c - the report's iozone section: per run and per pass, the matrix as a
 * table iozone prints (file sizes down, record sizes across, kB/s; cells that measured
 * RAM marked) beside a heat map of it (colour by kB/s on a log scale, those cells
 * hatched). The cache
 * cliff in words under each run's maps. The generic sections leave iozone rows to this
 * one (html_iozone_row). Every string from a result is escaped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/html.h"
#include "output/html_int.h"
#include "stats/iozone_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define CELL_W	46
#define CELL_H	20
#define LEFT	70
#define TOP	40

int html_iozone_row(const struct row *w)
{
	return iozone_is_row(w);
}

/* A colour from dark blue (t = 0) through green to yellow (t = 1). */
static void colour(char *buf, size_t len, double t)
{
	static const unsigned char stops[5][3] = {
		{ 48, 18, 59 }, { 50, 105, 180 }, { 30, 170, 140 }, { 130, 205, 60 },
		{ 250, 230, 35 },
	};
	double x = (t < 0 ? 0 : t > 1 ? 1 : t) * 4;
	int k = x >= 4 ? 3 : (int)x;
	double u = x - k;

	snprintf(buf, len, "#%02x%02x%02x",
		 (unsigned)(stops[k][0] + u * (stops[k + 1][0] - stops[k][0])),
		 (unsigned)(stops[k][1] + u * (stops[k + 1][1] - stops[k][1])),
		 (unsigned)(stops[k][2] + u * (stops[k + 1][2] - stops[k][2])));
}

static void range(const struct iozone_matrix *m, int p, double *lo, double *hi)
{
	size_t f, r;

	*lo = *hi = 0;
	for (f = 0; f < m->nf; f++)
		for (r = 0; r < m->nr; r++) {
			double v = iozone_at(m, p, f, r)->kbps;

			if (!iozone_at(m, p, f, r)->row || v <= 0)
				continue;
			if (!*lo || v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
}

static double scale(double v, double lo, double hi)
{
	return hi > lo && v > 0 ? (log(v) - log(lo)) / (log(hi) - log(lo)) : 0.5;
}

static const char *size_kb(char *buf, size_t len, uint64_t kb)
{
	if (kb >= 1048576 && kb % 1048576 == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(kb / 1048576));
	else if (kb >= 1024 && kb % 1024 == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(kb / 1024));
	else
		snprintf(buf, len, "%lluk", (unsigned long long)kb);
	return buf;
}

static int cached(const struct iozone_cell *c)
{
	return c->marked || (c->row && (c->row->flags & ROW_CACHE_INFLATED));
}

static void heat_map(FILE *f, const struct iozone_matrix *m, int p, size_t id)
{
	/* wide enough for the caption and the colour key below the cells */
	int w = LEFT + (int)m->nr * CELL_W + 20 > 470 ? LEFT + (int)m->nr * CELL_W + 20 : 470;
	int h = TOP + (int)m->nf * CELL_H + 50;
	double lo, hi;
	char col[16], a[32], b[32];
	size_t fi, r;

	range(m, p, &lo, &hi);
	fprintf(f, "<svg class=\"chart ioz-heat\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%d\" role=\"img\"><defs><pattern id=\"ioz-hatch-%zu\" "
		   "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		   "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
		   "stroke=\"#fff\" stroke-width=\"2\"/></pattern></defs>\n", w, h, id);
	fprintf(f, "<text x=\"8\" y=\"18\" class=\"ttl\">%s: kB/s, file size down, record "
		   "size across</text>\n", iozone_pass(p)->phase);
	for (r = 0; r < m->nr; r++)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" "
			   "text-anchor=\"middle\">%s</text>\n",
			LEFT + (int)r * CELL_W + CELL_W / 2, TOP - 6,
			size_kb(a, sizeof(a), m->rec_kb[r]));
	for (fi = 0; fi < m->nf; fi++) {
		int y = TOP + (int)fi * CELL_H;

		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%s</text>\n",
			LEFT - 6, y + CELL_H - 6, size_kb(a, sizeof(a), m->file_kb[fi]));
		for (r = 0; r < m->nr; r++) {
			const struct iozone_cell *c = iozone_at(m, p, fi, r);
			int x = LEFT + (int)r * CELL_W;

			if (!c->row || c->kbps < 0)
				continue;	/* not measured: no cell, never a 0 */
			colour(col, sizeof(col), scale(c->kbps, lo, hi));
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
				   "<title>%s file, %s records: %.0f kB/s%s</title></rect>\n",
				x, y, CELL_W - 1, CELL_H - 1, col, size_kb(a, sizeof(a),
				m->file_kb[fi]), size_kb(b, sizeof(b), m->rec_kb[r]), c->kbps,
				cached(c) ? " (page cache)" : "");
			if (cached(c))
				fprintf(f, "<rect class=\"ioz-cache\" x=\"%d\" y=\"%d\" "
					   "width=\"%d\" "
					   "height=\"%d\" fill=\"url(#ioz-hatch-%zu)\" "
					   "opacity=\"0.55\"/>\n", x, y, CELL_W - 1,
					CELL_H - 1, id);
		}
	}
	fprintf(f, "<text x=\"8\" y=\"%d\" class=\"tick\">colour: %s (dark) to %s (light), "
		   "log scale; hatched: the cell measured the page cache</text>\n</svg>\n",
		h - 16, units_fmt_si(a, sizeof(a), lo * 1024, "B/s"),
		units_fmt_si(b, sizeof(b), hi * 1024, "B/s"));
}

/* iozone's own table of one pass: file sizes down, record sizes across, kB/s as iozone
 * prints them; a cell that measured the page cache carries a mark and a class. */
static void ioz_table(FILE *f, const struct iozone_matrix *m, int p)
{
	char a[32];
	size_t fi, r;

	fprintf(f, "<div class=\"scroll\"><table class=\"ioz\" data-pass=\"%s\"><caption>"
		   "%s, kB/s (<span class=\"flag\">c</span>: the page cache answered)"
		   "</caption><thead><tr><th>file \\ record</th>", iozone_pass(p)->phase,
		iozone_pass(p)->phase);
	for (r = 0; r < m->nr; r++)
		fprintf(f, "<th>%s</th>", size_kb(a, sizeof(a), m->rec_kb[r]));
	fprintf(f, "</tr></thead><tbody>\n");
	for (fi = 0; fi < m->nf; fi++) {
		fprintf(f, "<tr><th>%s</th>", size_kb(a, sizeof(a), m->file_kb[fi]));
		for (r = 0; r < m->nr; r++) {
			const struct iozone_cell *c = iozone_at(m, p, fi, r);

			if (!c->row || c->kbps < 0)
				fprintf(f, "<td></td>");
			else {
				fprintf(f, "<td class=\"n%s\">%.0f", cached(c) ? " cache" : "",
					c->kbps);
				if (cached(c))
					fprintf(f, "<span class=\"flag\">c</span>");
				/* the other flags by name, as every cell of the report */
				html_flags(f, c->row->flags & ~ROW_CACHE_INFLATED);
				fprintf(f, "</td>");
			}
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table></div>\n");
}

void html_iozone_section(FILE *f, const struct report *r)
{
	struct iozone_matrix m;
	struct iozone_cliff cl;
	char line[400];
	size_t i, id = 0, shown = 0;
	int p;

	for (i = 0; i < r->n; i++) {
		const char *cache = kv_get(&r->runs[i]->options, RK_IOZ_PAGE_CACHE_BYTES);

		if (iozone_matrix_build(r->runs[i], 0, &m) <= 0)
			continue;
		if (!shown++)
			fputs("<h2 id=\"iozone\">iozone matrices</h2>\n<p>Each pass of iozone's "
			      "test matrix as iozone's table and as a heat map. Hatched cells "
			      "read or wrote the page cache, not the device (their figure is "
			      "RAM speed); cells iozone skips are left out, never drawn as "
			      "0.</p>\n", f);
		fprintf(f, "<h3>");
		html_run_name(f, r, i);
		fprintf(f, "</h3>\n<p>");
		iozone_cliff_find(&m, &cl);
		html_esc(f, iozone_cliff_line(line, sizeof(line), &cl,
					      cache ? strtoull(cache, NULL, 10) : 0));
		fprintf(f, "</p>\n");
		for (p = 0; p < IOZ_NPASS; p++) {
			if (!(m.passes & (1u << p)))
				continue;
			fprintf(f, "<div class=\"ioz-pair\">");
			ioz_table(f, &m, p);
			heat_map(f, &m, p, id++);
			fprintf(f, "</div>\n");
		}
		iozone_matrix_free(&m);
	}
}
