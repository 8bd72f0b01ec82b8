/* text_fsync.c - the fsync workload's text: pg_test_fsync's layout line for line (its
 * head, the section titles, a line per method with ops/sec and usecs/op, "n/a" and its
 * footnote), then iobattery's lines at the durability row: per-op latency percentiles,
 * CPU and device requests per op, the device's write-cache facts with the
 * flush_implausible verdict, what that can and cannot prove, and the recommendation. */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define LABEL "        %-30s"

static const char *param(const struct row *w, const char *k)
{
	const char *v = kv_get(&w->params, k);

	return v ? v : "";
}

static int is_fsync(const struct row *w)
{
	return w && w->workload && !strcmp(w->workload, "fsync");
}

/* The fsync row before / after w in the run, or NULL. */
static const struct row *neighbour(const struct run *run, const struct row *w, int dir)
{
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (run->rows[i] == w) {
			if ((dir < 0 && i == 0) || (dir > 0 && i + 1 >= run->nrows))
				return NULL;
			w = run->rows[dir < 0 ? i - 1 : i + 1];
			return is_fsync(w) ? w : NULL;
		}
	return NULL;
}

static const struct row *first_fsync(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (is_fsync(run->rows[i]))
			return run->rows[i];
	return NULL;
}

int text_fsync_head(FILE *f, const struct run *run)
{
	const struct row *w = first_fsync(run);
	unsigned secs = 0;

	if (!w || !strcmp(param(w, RK_FSYNC_TEST), "crash_test"))
		return 0;
	sscanf(param(w, RK_FSYNC_SECS_PER_TEST), "%u", &secs);
	fprintf(f, "%u second%s per test\n", secs, secs == 1 ? "" : "s");
	if (!strcmp(param(w, RK_FSYNC_PLATFORM_DIRECT), "true"))
		fputs("O_DIRECT supported on this platform for open_datasync and open_sync.\n", f);
	else
		fputs("Direct I/O is not supported on this platform.\n", f);
	return ferror(f) ? -1 : 0;
}

/* The kB of one write, for the titles. */
static unsigned kb(const struct row *w)
{
	unsigned s = 0;

	sscanf(param(w, RK_FSYNC_WRITE_SIZE), "%u", &s);
	return s / 1024;
}

static void section_title(FILE *f, const struct row *w)
{
	const char *t = param(w, RK_FSYNC_TEST);

	if (!strcmp(t, "one_write") || !strcmp(t, "two_writes")) {
		fprintf(f, "\nCompare file sync methods using %s %ukB write%s:\n",
			t[0] == 'o' ? "one" : "two", kb(w), t[0] == 'o' ? "" : "s");
		fputs("(in wal_sync_method preference order, except fdatasync is Linux's "
		      "default)\n", f);
	} else if (!strcmp(t, "open_sync_sizes")) {
		unsigned total = 0, n = 0;

		sscanf(param(w, RK_FSYNC_WRITE_SIZE), "%u", &total);
		sscanf(param(w, RK_FSYNC_WRITES_PER_OP), "%u", &n);
		fputs("\nCompare open_sync with different write sizes:\n", f);
		fprintf(f, "(This is designed to compare the cost of writing %ukB in different "
			"write\nopen_sync sizes.)\n", total * n / 1024);
	} else if (!strcmp(t, "fd_sync")) {
		fputs("\nTest if fsync on non-write file descriptor is honored:\n", f);
		fputs("(If the times are similar, fsync() can sync data written on a different\n"
		      "descriptor.)\n", f);
	} else if (!strcmp(t, "non_sync")) {
		fprintf(f, "\nNon-sync'ed %ukB writes:\n", kb(w));
	}
}

/* pg_test_fsync's footnote after a sync-method section that had an "n/a*". */
static void footnote(FILE *f, const struct run *run, const struct row *last)
{
	const char *t = param(last, RK_FSYNC_TEST);
	const struct row *w;
	int star = 0;

	if (strcmp(t, "one_write") && strcmp(t, "two_writes"))
		return;
	for (w = last; w && !strcmp(param(w, RK_FSYNC_TEST), t); w = neighbour(run, w, -1))
		star |= !strcmp(param(w, RK_FSYNC_NA), "n/a*");
	if (star)
		fputs("* This file system and its mount options do not support direct\n"
		      "  I/O, e.g. ext4 in journaled mode.\n", f);
}

static double metric(const struct row *w, const char *k, double dflt)
{
	const struct metric *m = row_metric(w, k);

	return m ? m->value : dflt;
}

static int method_line(FILE *f, const struct run *run, const struct row *w)
{
	const struct row *prev = neighbour(run, w, -1), *next = neighbour(run, w, 1);
	const char *t = param(w, RK_FSYNC_TEST);

	if (!prev || strcmp(param(prev, RK_FSYNC_TEST), t))
		section_title(f, w);
	fprintf(f, LABEL, param(w, RK_FSYNC_LABEL));
	if (w->flags & ROW_NOT_MEASURED)
		fprintf(f, "%21s\n", param(w, RK_FSYNC_NA)[0] ? param(w, RK_FSYNC_NA) : "n/a");
	else if (w->flags & ROW_FAILED)
		fprintf(f, "%21s (%s)\n", "failed", w->error ? w->error : "?");
	else
		fprintf(f, "%13.3f ops/sec  %6.0f usecs/op\n", w->rate,
			metric(w, RK_FSYNC_USECS_PER_OP, 0));
	if (!next || strcmp(param(next, RK_FSYNC_TEST), t))
		footnote(f, run, w);
	return ferror(f) ? -1 : 0;
}

/* One line of iobattery's table for a method row. */
static void percentile_line(FILE *f, const struct row *w)
{
	char a[32], b[32], c[32], d[32], e[32], lab[64];
	double fl = metric(w, RK_FSYNC_DEVICE_FLUSHES, -1);
	double wr = metric(w, RK_FSYNC_DEVICE_WRITES, -1);
	double ops = (double)w->ops;

	snprintf(lab, sizeof(lab), "%s%s", param(w, RK_FSYNC_LABEL),
		 !strcmp(param(w, RK_FSYNC_TEST), "two_writes") ? ", 2 writes" : "");
	fprintf(f, LABEL, lab);
	if (!w->lat.valid || !w->lat.n || (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))) {
		fprintf(f, "%10s\n", "-");
		return;
	}
	fprintf(f, "%10s%10s%10s%10s%10s", units_fmt_ns(a, sizeof(a), (double)w->lat.p50_ns),
		units_fmt_ns(b, sizeof(b), (double)w->lat.p99_ns),
		units_fmt_ns(c, sizeof(c), (double)w->lat.p999_ns),
		units_fmt_ns(d, sizeof(d), (double)w->lat.max_ns),
		units_fmt_ns(e, sizeof(e), w->cpu.cpu_ns_per_op));
	if (fl >= 0)
		fprintf(f, "%10.2f", fl / ops);
	else
		fprintf(f, "%10s", "-");
	if (wr >= 0)
		fprintf(f, "%10.2f", wr / ops);
	else
		fprintf(f, "%10s", "-");
	fprintf(f, "%s\n", w->flags & ROW_FLUSH_IMPLAUSIBLE ? "  flush_implausible" : "");
}

static void power_cut(FILE *f)
{
	fputs("  Only cutting the power shows what survives: see the power-cut procedure in\n"
	      "  docs/methodology.md ('iobattery fsync --listen' and '--report-to').\n", f);
}

static void device_block(FILE *f, const struct row *d)
{
	const char *dev = param(d, RK_FSYNC_DEVICE), *why = param(d, RK_FSYNC_FLOOR_WHY);
	double floor = metric(d, RK_FSYNC_FLOOR_US, 0);

	if (!dev[0]) {
		fprintf(f, "\nDevice: none found (%s): no write-cache facts, no device flushes\n",
			d->note ? d->note : "no block device under the file");
		if (d->flags & ROW_FLUSH_IMPLAUSIBLE)
			fprintf(f, "  flush_implausible (every sync): %s\n", why);
		fputs("  Nothing here tells whether a sync reached a medium.\n", f);
		power_cut(f);
		return;
	}
	fprintf(f, "\nDevice: %s%s%s%s, write cache: %s, FUA: %s, rotational: %s", dev,
		param(d, RK_FSYNC_DEVICE_MODEL)[0] ? " (" : "", param(d, RK_FSYNC_DEVICE_MODEL),
		param(d, RK_FSYNC_DEVICE_MODEL)[0] ? ")" : "", param(d, RK_FSYNC_WRITE_CACHE),
		!strcmp(param(d, RK_FSYNC_FUA), "true") ? "yes" :
		!strcmp(param(d, RK_FSYNC_FUA), "false") ? "no" : "unknown",
		!strcmp(param(d, RK_FSYNC_ROTATIONAL), "true") ? "yes" :
		!strcmp(param(d, RK_FSYNC_ROTATIONAL), "false") ? "no" : "unknown");
	if (param(d, RK_FSYNC_RPM)[0])
		fprintf(f, ", %s rpm (%s)", param(d, RK_FSYNC_RPM), param(d, RK_FSYNC_RPM_SOURCE));
	fputc('\n', f);
	fputs("  FUA writes: not counted (diskstats has no FUA counter); flushes and writes per "
	      "op above are the device's\n", f);
	if (d->flags & ROW_FLUSH_IMPLAUSIBLE) {
		fprintf(f, "  flush_implausible (the methods flagged above): their median sync "
			"took less than\n  %s (%.0f us): something above the medium\n"
			"  (a volatile write cache, a hypervisor, a file system ignoring flushes)\n"
			"  acknowledged it. That much is proven; what reached the medium is not.\n",
			why, floor);
	} else if (floor > 0) {
		fprintf(f, "  No durable method was faster than %s (%.0f us): consistent with\n"
			"  durable writes, but not a proof of them: a cache can be slow too.\n",
			why, floor);
	} else {
		fputs("  No floor applies (a non-rotating device with a write-back cache, or "
		      "unknown):\n  a fast flush may be honest (power-loss protection) or "
		      "not.\n", f);
	}
	power_cut(f);
}

static void recommendation(FILE *f, const struct row *d)
{
	const char *best = param(d, RK_FSYNC_BEST_METHOD);
	const char *sq = param(d, RK_FSYNC_SQLITE_SYNCHRONOUS);

	if (!best[0]) {
		fputs("\nRecommendation: none (no durable method could be measured)\n", f);
		return;
	}
	fprintf(f, "\nRecommendation: %s (%.3f ops/sec) is the fastest durable method here:\n"
		"  PostgreSQL wal_sync_method = %s", best, d->rate,
		param(d, RK_FSYNC_WAL_SYNC_METHOD));
	if (!strcmp(sq, "FULL"))
		fputs("; SQLite synchronous = FULL (a sync per commit is affordable)", f);
	else if (sq[0])
		fputs("; SQLite synchronous = NORMAL with journal_mode=WAL (FULL syncs every "
		      "commit: slow here)", f);
	fputs(d->flags & ROW_FLUSH_IMPLAUSIBLE ? "\n  (but see flush_implausible above: these "
						  "syncs may not be durable)\n" : "\n", f);
}

/* iobattery's block, at the durability row: every method row of its repeat, then the
 * device and the recommendation. */
static int durability(FILE *f, const struct run *run, const struct row *d)
{
	size_t i;

	fputs("\niobattery, per op:", f);
	fprintf(f, "%23s%10s%10s%10s%10s%10s%10s\n", "p50", "p99", "p99.9", "max", "cpu/op",
		"flush/op", "write/op");
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *t = param(w, RK_FSYNC_TEST);

		if (is_fsync(w) && w->repeat == d->repeat && strcmp(t, "durability") &&
		    strcmp(t, "crash_test") && strcmp(w->phase, "verify"))
			percentile_line(f, w);
	}
	device_block(f, d);
	recommendation(f, d);
	return ferror(f) ? -1 : 0;
}

int text_fsync_row(FILE *f, const struct run *run, const struct row *w)
{
	const char *t = param(w, RK_FSYNC_TEST);

	if (!strcmp(t, "durability"))
		return durability(f, run, w);
	if (!strcmp(t, "crash_test")) {
		fprintf(f, "fsync crash test: %llu writes of %s B through %s over %s blocks, "
			"%.3f ops/sec, %.0f usecs/op\n", (unsigned long long)w->ops,
			param(w, RK_FSYNC_WRITE_SIZE), param(w, RK_FSYNC_METHOD),
			param(w, RK_FSYNC_BLOCKS), w->rate, metric(w, RK_FSYNC_USECS_PER_OP, 0));
		return out_text_extras(f, w);
	}
	if (t[0])
		return method_line(f, run, w);
	return out_text_generic_row(f, run, w);
}
