/* html_iozone.c - the report's iozone section: per run and per pass, the matrix as a
 * heat map (file sizes down, record sizes across, colour by kB/s on a log scale, cells
 * that measured RAM hatched) and iozone's classic 3-D surface as a static SVG (no
 * script): record size and file size on the floor, the rate as the height. The cache
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
	int w = LEFT + (int)m->nr * CELL_W + 20, h = TOP + (int)m->nf * CELL_H + 50;
	double lo, hi;
	char col[16], a[32], b[32];
	size_t fi, r;

	range(m, p, &lo, &hi);
	fprintf(f, "<svg class=\"chart ioz-heat\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%d\" role=\"img\"><defs><pattern id=\"ioz-hatch-%zu\" "
		   "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		   "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
		   "stroke=\"#fff\" stroke-width=\"2\"/></pattern></defs>\n", w, h, id);
	fprintf(f, "<text x=\"8\" y=\"18\" class=\"ttl\">%s: kB/s by file size (down) and "
		   "record size (across)</text>\n", iozone_pass(p)->phase);
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

/* The picture's scale: floor steps of dx across, dx/2 down, heights up to SURF_H. */
#define SURF_W	600.0
#define SURF_H	170.0

struct proj {
	double dx, ox, oy;
};

/* The point of record index r, file index fi at height z (0..1). */
static void project(const struct proj *q, double r, double fi, double z, double *x,
		    double *y)
{
	*x = q->ox + (r - fi) * q->dx;
	*y = q->oy + (r + fi) * q->dx / 2 - z * SURF_H;
}

static void surface(FILE *f, const struct iozone_matrix *m, int p)
{
	double lo, hi, x[4], y[4], z[4];
	size_t d, fi, r, k;
	char col[16], a[32];

	struct proj q;

	q.dx = (SURF_W - 120) / (double)(m->nf + m->nr);
	q.ox = 60 + (double)m->nf * q.dx;
	q.oy = 40 + SURF_H;
	range(m, p, &lo, &hi);
	fprintf(f, "<svg class=\"chart ioz-surface\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%.0f\" height=\"%.0f\" role=\"img\">\n<text x=\"8\" y=\"18\" "
		   "class=\"ttl\">%s: kB/s as a surface over record size (right) and file size "
		   "(left), log scale</text>\n", SURF_W,
		q.oy + (double)(m->nf + m->nr) * q.dx / 2 + 40,
		iozone_pass(p)->phase);
	/* the floor, then back to front: the far corner (small files and records) first */
	project(&q, 0, 0, 0, &x[0], &y[0]);
	project(&q, (double)m->nr - 1, 0, 0, &x[1], &y[1]);
	project(&q, (double)m->nr - 1, (double)m->nf - 1, 0, &x[2], &y[2]);
	project(&q, 0, (double)m->nf - 1, 0, &x[3], &y[3]);
	fprintf(f, "<polygon class=\"grid\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
		x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3]);
	for (d = 0; d + 2 <= m->nf + m->nr; d++)
		for (fi = 0; fi + 1 < m->nf; fi++) {
			const struct iozone_cell *c[4];

			if (d < fi || d - fi + 1 >= m->nr)
				continue;
			r = d - fi;
			c[0] = iozone_at(m, p, fi, r);
			c[1] = iozone_at(m, p, fi, r + 1);
			c[2] = iozone_at(m, p, fi + 1, r + 1);
			c[3] = iozone_at(m, p, fi + 1, r);
			for (k = 0; k < 4 && c[k]->row && c[k]->kbps > 0; k++)
				z[k] = scale(c[k]->kbps, lo, hi);
			if (k < 4)
				continue;
			project(&q, (double)r, (double)fi, z[0], &x[0], &y[0]);
			project(&q, (double)r + 1, (double)fi, z[1], &x[1], &y[1]);
			project(&q, (double)r + 1, (double)fi + 1, z[2], &x[2], &y[2]);
			project(&q, (double)r, (double)fi + 1, z[3], &x[3], &y[3]);
			colour(col, sizeof(col), (z[0] + z[1] + z[2] + z[3]) / 4);
			fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
				   "fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"/>\n",
				x[0], y[0],
				x[1], y[1], x[2], y[2], x[3], y[3], col);
		}
	for (r = 0; r < m->nr; r++) {
		project(&q, (double)r, (double)m->nf - 0.4, 0, &x[0], &y[0]);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">%s</text>\n", x[0],
			y[0] + 12, size_kb(a, sizeof(a), m->rec_kb[r]));
	}
	for (fi = 0; fi < m->nf; fi++) {
		project(&q, -0.6, (double)fi, 0, &x[0], &y[0]);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" text-anchor=\"end\">%s"
			   "</text>\n", x[0] - 8, y[0] + 4, size_kb(a, sizeof(a), m->file_kb[fi]));
	}
	fprintf(f, "</svg>\n");
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
			fprintf(f, "<h2>iozone matrices</h2>\n<p>Each pass of iozone's test matrix "
				   "as a heat map and as iozone's 3-D surface. Hatched cells read "
				   "or wrote the page cache, not the device (their figure is RAM "
				   "speed); cells iozone skips are left out, never drawn as "
				   "0.</p>\n");
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
			heat_map(f, &m, p, id++);
			if (m.nf >= 2 && m.nr >= 2)
				surface(f, &m, p);
		}
		iozone_matrix_free(&m);
	}
}
