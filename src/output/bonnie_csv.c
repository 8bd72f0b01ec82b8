/* bonnie_csv.c - the Bonnie++ 2.00a CSV line (format_version 1.98) and the small text
 * pieces Bonnie++'s table is made of. The field layout was learned by running Bonnie++
 * 2.00a and reading what its bon_csv2txt expects; see docs/methodology-bonnie.md.
 * Pure functions except bonnie_line_from_run, which reads a run. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/bonnie/bonnie.h"

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

char *bonnie_fmt_lat(char *buf, size_t len, uint64_t ns)
{
	/* Bonnie++ keeps seconds as a double and switches unit above 99.999999 s and
	 * 0.099999 s, truncating */
	if (!ns)
		snprintf(buf, len, "%s", "");
	else if (ns > 99999999000ull)
		snprintf(buf, len, "%" PRIu64 "s", ns / 1000000000u);
	else if (ns > 99999000ull)
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000u);
	else
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000u);
	return buf;
}

/* MiB as "64M" or "1G" (whole GiB). */
static void size_mg(struct sbuf *b, uint64_t mb)
{
	if (mb && mb % 1024 == 0)
		sb_add(b, "%" PRIu64 "G", mb / 1024);
	else
		sb_add(b, "%" PRIu64 "M", mb);
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
	long k = (long)kps;

	/* as bon_csv2txt: K below 10000, then MiB (one decimal under 100), then GiB */
	if (k < 10000)
		snprintf(buf, len, "%4ldk", k);
	else if (k / 1024.0 < 1000) {
		double m = k / 1024.0;

		if (m < 100)
			snprintf(buf, len, "%4.1fm", m);
		else
			snprintf(buf, len, "%4dm", (int)(m + 0.5));
	} else {
		snprintf(buf, len, "%4.1fg", k / 1048576.0);
	}
	return buf;
}

static void csv_stat(struct sbuf *b, const struct bonnie_line *l, int t)
{
	const struct bonnie_fig *f = &l->f[t];

	if (!f->present) {
		sb_add(b, ",,");
		return;
	}
	if (f->shortrun && l->plus_for_short) {
		sb_add(b, ",+++++,+++");
		return;
	}
	if (t == BT_SEEKS)
		sb_add(b, f->rate >= 1000.0 ? ",%.0f" : ",%.1f", f->rate);
	else
		sb_add(b, ",%ld", (long)f->rate);
	sb_add(b, ",%d", (int)f->cpu_pct);
}

int bonnie_csv_format(const struct bonnie_line *l, char *buf, size_t len)
{
	struct sbuf b = { buf, len, 0, 0 };
	char lat[32];
	int t;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	sb_add(&b, BONNIE_CSV_VERSION "," BONNIE_VERSION ",%s,%u,%" PRIu64, l->name,
	       l->concurrency, l->seed);
	if (l->size_mb) {
		sb_add(&b, ",");
		size_mg(&b, l->size_mb);
		/* 2.00a leaves io_chunk_size empty whatever the chunk (its table shows it) */
		sb_add(&b, ",,%" PRIu32 ",%" PRIu32, l->seeks, l->seekers);
		for (t = BT_PUTC; t <= BT_SEEKS; t++)
			csv_stat(&b, l, t);
	} else {
		sb_add(&b, ",,,,,,,,,,,,,,,,");
	}
	if (l->nfiles) {
		sb_add(&b, ",%" PRIu32, l->nfiles);
		if (l->max_size == -1)
			sb_add(&b, ",link,");
		else if (l->max_size == -2)
			sb_add(&b, ",symlink,");
		else if (l->max_size > 0 && l->min_size > 0)
			sb_add(&b, ",%d,%d", l->max_size, l->min_size);
		else if (l->max_size > 0)
			sb_add(&b, ",%d,", l->max_size);
		else
			sb_add(&b, ",,");
		/* then 2.00a's empty field and the directory count when above one */
		sb_add(&b, ",");
		if (l->ndirs > 1)
			sb_add(&b, ",%" PRIu32, l->ndirs);
		else
			sb_add(&b, ",");
		for (t = BT_SEQ_CREATE; t < BT_COUNT; t++)
			csv_stat(&b, l, t);
	} else {
		sb_add(&b, ",,,,,,,,,,,,,,,,,");
	}
	for (t = 0; t < BT_COUNT; t++)
		sb_add(&b, ",%s", l->f[t].present ?
		       bonnie_fmt_lat(lat, sizeof(lat), l->f[t].max_lat_ns) : "");
	sb_add(&b, "\n");
	return b.over ? -ENOSPC : (int)b.used;
}

static uint64_t kv_u64(const struct kvlist *kv, const char *key, uint64_t def)
{
	const char *v = kv_get(kv, key);

	return v ? strtoull(v, NULL, 10) : def;
}

static int64_t kv_i64(const struct kvlist *kv, const char *key, int64_t def)
{
	const char *v = kv_get(kv, key);

	return v ? strtoll(v, NULL, 10) : def;
}

/* The parameters of each block come from its rows' params (so that a quick battery,
 * whose run options are not Bonnie's, still has them). */
static void params_from_row(struct bonnie_line *l, const struct row *w, int t)
{
	const struct kvlist *p = &w->params;

	if (t <= BT_SEEKS && !l->size_mb) {
		l->size_mb = kv_u64(p, RK_BONNIE_SIZE_MB, 0);
		l->chunk = (uint32_t)kv_u64(p, RK_BONNIE_CHUNK, BONNIE_DEF_CHUNK);
		l->seeks = (uint32_t)kv_u64(p, RK_BONNIE_SEEKS, BONNIE_DEF_SEEKS);
		l->seekers = (uint32_t)kv_u64(p, RK_BONNIE_SEEKERS, BONNIE_DEF_SEEKERS);
	} else if (t > BT_SEEKS && !l->nfiles) {
		l->nfiles = (uint32_t)kv_u64(p, RK_BONNIE_FILES, 0);
		l->max_size = (int32_t)kv_i64(p, RK_BONNIE_MAX_SIZE, 0);
		l->min_size = (int32_t)kv_i64(p, RK_BONNIE_MIN_SIZE, 0);
		l->ndirs = (uint32_t)kv_u64(p, RK_BONNIE_DIRS, 1);
		l->file_chunk = (uint32_t)kv_u64(p, RK_BONNIE_FILE_CHUNK, BONNIE_DEF_CHUNK);
	}
}

int bonnie_line_from_run(struct bonnie_line *l, const struct run *run, unsigned repeat)
{
	size_t i;
	int found = 0;

	memset(l, 0, sizeof(*l));
	l->name = kv_get(&run->options, RK_BONNIE_MACHINE);
	if (!l->name || !*l->name)
		l->name = run->env.host ? run->env.host : "localhost";
	l->concurrency = (unsigned)kv_u64(&run->options, RK_BONNIE_CONCURRENCY, 1);
	l->seed = kv_u64(&run->options, RK_BONNIE_SEED, 0);
	l->chunk = BONNIE_DEF_CHUNK;
	l->seeks = BONNIE_DEF_SEEKS;
	l->seekers = BONNIE_DEF_SEEKERS;
	l->ndirs = 1;
	l->file_chunk = BONNIE_DEF_CHUNK;
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		int t;

		if (w->repeat != repeat || !w->workload || strcmp(w->workload, "bonnie") ||
		    !w->phase)
			continue;
		t = bonnie_test_of(w->phase);
		if (t < 0)
			continue;
		params_from_row(l, w, t);
		if (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))
			continue;
		l->f[t].present = 1;
		l->f[t].shortrun = !!(w->flags & ROW_SHORT);
		l->f[t].rate = w->rate;
		l->f[t].cpu_pct = w->cpu.valid ? w->cpu.proc_pct : 0;
		l->f[t].max_lat_ns = w->lat.valid ? w->lat.max_ns : 0;
		found++;
	}
	return found;
}
