/* bonnie_csv.c - the Bonnie++ 2.00a CSV line (format_version 1.98), written at the field
 * positions of stats/bonnie_layout.c (the importer reads with the same table), and the
 * small text pieces Bonnie++'s table is made of. Pure functions. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "output/bonnie_csv.h"

/* Append to a bounded buffer; remembers overflow. */
struct sbuf {
	char *p;
	size_t len, used;
	int over;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->len - b->used) {
		b->over = 1;
		return;
	}
	b->used += (size_t)n;
}

/* MiB as "64M" or "1G" (whole GiB). */
static void size_mg(struct sbuf *b, uint64_t mb)
{
	char t[32];

	sb_add(b, "%s", bonnie_fmt_size_mb(t, sizeof(t), mb));
}

/* Bytes as "512", "4k", "1m" (whole KiB, MiB). */
static void size_km(struct sbuf *b, uint64_t v)
{
	if (v && v % 1048576 == 0)
		sb_add(b, "%" PRIu64 "m", v / 1048576);
	else if (v && v % 1024 == 0)
		sb_add(b, "%" PRIu64 "k", v / 1024);
	else
		sb_add(b, "%" PRIu64, v);
}

char *bonnie_fmt_size_label(char *buf, size_t len, const struct bonnie_line *l)
{
	struct sbuf b = { buf, len, 0, 0 };

	buf[0] = '\0';
	size_mg(&b, l->size_mb);
	if (l->chunk != BONNIE_DEF_CHUNK || l->seeks != BONNIE_DEF_SEEKS) {
		sb_add(&b, ":");
		if (l->chunk != BONNIE_DEF_CHUNK)
			size_km(&b, l->chunk);
	}
	if (l->seeks != BONNIE_DEF_SEEKS)
		sb_add(&b, "::%" PRIu32, l->seeks);
	return buf;
}

char *bonnie_fmt_files_label(char *buf, size_t len, const struct bonnie_line *l)
{
	struct sbuf b = { buf, len, 0, 0 };

	buf[0] = '\0';
	sb_add(&b, "%" PRIu32, l->nfiles);
	if (l->max_size == -1)
		sb_add(&b, ":link");
	else if (l->max_size == -2)
		sb_add(&b, ":symlink");
	else if (l->max_size > 0)
		sb_add(&b, ":%d:%d", l->max_size, l->min_size);
	if (l->ndirs > 1)
		sb_add(&b, "/%" PRIu32, l->ndirs);
	return buf;
}

char *bonnie_fmt_kps(char *buf, size_t len, double kps)
{
	long k = (long)units_dtoll(kps, 0, LONG_MAX);

	/* as bon_csv2txt: K below 10000, then MiB (one decimal under 100), then GiB */
	if (k < 10000)
		snprintf(buf, len, "%4ldk", k);
	else if (k / 1024.0 < 1000) {
		double m = k / 1024.0;

		if (m < 100)
			snprintf(buf, len, "%4.1fm", m);
		else
			snprintf(buf, len, "%4dm", (int)units_dtoll(m + 0.5, 0, INT_MAX));
	} else {
		snprintf(buf, len, "%4.1fg", k / 1048576.0);
	}
	return buf;
}

/* The CSV line is built field by field at the positions of the 1.98 layout, then
 * joined with commas. */
#define CSV_FIELD 40		/* room for one number or latency */

struct csv_fields {
	const char *v[64];
	char store[64][CSV_FIELD];
};

static char *fld(struct csv_fields *c, int i)
{
	c->v[i] = c->store[i];
	return c->store[i];
}

/* One test's (rate, %CPU) pair at field i: empty when it did not run, "+++++,+++" for a
 * short phase when asked (as Bonnie++), else the rate (seeks with a decimal below 1000)
 * and the whole %CPU. */
static void csv_stat(struct csv_fields *c, int i, const struct bonnie_line *l, int t)
{
	const struct bonnie_fig *f = &l->f[t];

	if (!f->present)
		return;
	if (f->shortrun && l->plus_for_short) {
		c->v[i] = "+++++";
		c->v[i + 1] = "+++";
		return;
	}
	if (t == BT_SEEKS)
		snprintf(fld(c, i), CSV_FIELD, f->rate >= 1000.0 ? "%.0f" : "%.1f",
			 isfinite(f->rate) && f->rate < 1e18 ? f->rate : 0);
	else
		snprintf(fld(c, i), CSV_FIELD, "%lld", units_dtoll(f->rate, 0, LLONG_MAX));
	snprintf(fld(c, i + 1), CSV_FIELD, "%lld", units_dtoll(f->cpu_pct, 0, 999999));
}

static void csv_files(struct csv_fields *c, const struct bonnie_csv_layout *y,
		      const struct bonnie_line *l)
{
	snprintf(fld(c, y->files), CSV_FIELD, "%" PRIu32, l->nfiles);
	if (l->max_size == -1)
		c->v[y->max_size] = "link";
	else if (l->max_size == -2)
		c->v[y->max_size] = "symlink";
	else if (l->max_size > 0)
		snprintf(fld(c, y->max_size), CSV_FIELD, "%d", l->max_size);
	if (l->max_size > 0 && l->min_size > 0)
		snprintf(fld(c, y->min_size), CSV_FIELD, "%d", l->min_size);
	/* as 2.00a: num_dirs stays empty, the directory count (above one) goes where
	 * file_chunk_size belongs */
	if (l->ndirs > 1)
		snprintf(fld(c, y->file_chunk), CSV_FIELD, "%" PRIu32, l->ndirs);
}

int bonnie_csv_format(const struct bonnie_line *l, char *buf, size_t len)
{
	const struct bonnie_csv_layout *y = bonnie_csv_layout(BONNIE_CSV_198);
	struct csv_fields c;
	struct sbuf b = { buf, len, 0, 0 };
	unsigned i;
	int t;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (i = 0; i < y->nfields; i++)
		c.v[i] = "";
	c.v[y->fmt] = BONNIE_CSV_VERSION;
	c.v[y->version] = BONNIE_VERSION;
	c.v[y->name] = l->name;
	snprintf(fld(&c, y->conc), CSV_FIELD, "%u", l->concurrency);
	snprintf(fld(&c, y->seed), CSV_FIELD, "%" PRIu64, l->seed);
	if (l->size_mb) {
		bonnie_fmt_size_mb(fld(&c, y->size), CSV_FIELD, l->size_mb);
		/* 2.00a leaves io_chunk_size empty whatever the chunk (its table shows it) */
		snprintf(fld(&c, y->seeks), CSV_FIELD, "%" PRIu32, l->seeks);
		snprintf(fld(&c, y->seekers), CSV_FIELD, "%" PRIu32, l->seekers);
		for (t = BT_IO_FIRST; t < BT_FILE_FIRST; t++)
			csv_stat(&c, y->io + 2 * (t - BT_IO_FIRST), l, t);
	}
	if (l->nfiles) {
		csv_files(&c, y, l);
		for (t = BT_FILE_FIRST; t < BT_COUNT; t++)
			csv_stat(&c, y->filepairs + 2 * (t - BT_FILE_FIRST), l, t);
	}
	for (t = 0; t < BT_COUNT; t++) {
		i = t < BT_FILE_FIRST ? (unsigned)(y->iolat + t - BT_IO_FIRST) :
					(unsigned)(y->filelat + t - BT_FILE_FIRST);
		if (l->f[t].present)
			bonnie_fmt_lat(fld(&c, (int)i), CSV_FIELD, l->f[t].max_lat_ns);
	}
	for (i = 0; i < y->nfields; i++)
		sb_add(&b, "%s%s", i ? "," : "", c.v[i]);
	sb_add(&b, "\n");
	return b.over ? -ENOSPC : (int)b.used;
}
