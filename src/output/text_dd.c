/* text_dd.c - text renderers for dd and cp rows: dd's own closing lines and `time`'s
 * real/user/sys first, so a seed user sees what they know, then what dd and cp lack. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static double metric(const struct row *w, const char *name)
{
	const struct metric *m = row_metric(w, name);

	return m ? m->value : 0;
}

/* "0m1.234s", as the shell's time keyword prints. */
static void time_line(FILE *f, const char *name, double s)
{
	long long m = units_dtoll(s / 60, 0, LLONG_MAX / 60);

	if (!(s >= 0 && s < 1e15))	/* NaN, negative or absurd: no minutes to split */
		s = 0, m = 0;
	fprintf(f, "%s\t%lldm%.3fs\n", name, m, s - 60.0 * (double)m);
}

/* A time and its rate; no rate for a copy the file system did without moving the bytes. */
static void rate_line(FILE *f, const char *what, const struct row *w, uint64_t ns,
		      const char *how)
{
	char t[32], r[32], line[256];
	double secs = (double)ns / 1e9;
	int n;

	if (w->flags & ROW_TOO_FAST)
		snprintf(r, sizeof(r), "no disk rate");
	else
		units_fmt_si(r, sizeof(r), secs > 0 ? (double)w->bytes / secs : 0, "B/s");
	n = snprintf(line, sizeof(line), "  %-9s %s (%s) %s", what,
		     units_fmt_ns(t, sizeof(t), (double)ns), r, how);

	out_text_wrap_line(f, line, n < 0 ? 0 : (size_t)n < sizeof(line) ? (size_t)n :
			   sizeof(line) - 1);
}

/* dd's closing lines: records, then bytes (SI, IEC) copied, seconds, rate. */
static void dd_lines(FILE *f, const struct row *w)
{
	char si[32], iec[32], rate[32];
	double secs = (double)w->elapsed_ns / 1e9;

	/* only the records the row holds: an imported dd whose output had none (BSD's
	 * "bytes transferred" alone) gets no invented "0+0" */
	if (row_metric(w, RK_DD_RECORDS_IN_FULL))
		fprintf(f, "%.0f+%.0f records in\n", metric(w, RK_DD_RECORDS_IN_FULL),
			metric(w, RK_DD_RECORDS_IN_PARTIAL));
	if (row_metric(w, RK_DD_RECORDS_OUT_FULL))
		fprintf(f, "%.0f+%.0f records out\n", metric(w, RK_DD_RECORDS_OUT_FULL),
			metric(w, RK_DD_RECORDS_OUT_PARTIAL));
	if (w->bytes >= 1000)
		fprintf(f, "%" PRIu64 " bytes (%s, %s) copied, %g s, %s\n", w->bytes,
			units_fmt_si(si, sizeof(si), (double)w->bytes, "B"),
			units_fmt_iec_dd(iec, sizeof(iec), w->bytes), secs,
			units_fmt_si(rate, sizeof(rate), secs > 0 ? (double)w->bytes / secs : 0,
				     "B/s"));
	else
		fprintf(f, "%" PRIu64 " bytes copied, %g s, %s\n", w->bytes, secs,
			units_fmt_si(rate, sizeof(rate), secs > 0 ? (double)w->bytes / secs : 0,
				     "B/s"));
}

static void time_lines(FILE *f, const struct row *w)
{
	fputc('\n', f);
	time_line(f, "real", (double)w->elapsed_ns / 1e9);
	time_line(f, "user", w->cpu.user_s);
	time_line(f, "sys", w->cpu.sys_s);
	fputc('\n', f);
}

/* Buffered and durable lines, then the common extras without the times. */
static int extras(FILE *f, const struct row *w, const char *sync_how)
{
	struct row copy = *w;

	if (w->buffered_ns)
		rate_line(f, "buffered:", w, w->buffered_ns, "until the last write returned");
	if (w->durable_ns)
		rate_line(f, "durable:", w, w->durable_ns, sync_how);
	copy.buffered_ns = copy.durable_ns = 0;
	return out_text_extras(f, &copy);
}

int text_dd_row(FILE *f, const struct run *run, const struct row *w)
{
	const char *conv = kv_get(&w->params, RK_DD_CONV);
	int user_sync = conv && (strstr(conv, "fdatasync") || strstr(conv, "fsync"));

	(void)run;
	if (w->repeat)
		fprintf(f, "-- repeat %u\n", w->repeat + 1);
	if (w->flags & ROW_FAILED && !w->ops) {
		fprintf(f, "dd %s: failed: %s\n", w->phase, w->error ? w->error : "unknown error");
		return ferror(f) ? -EIO : 0;
	}
	dd_lines(f, w);
	time_lines(f, w);
	return extras(f, w, user_sync ? "until the fdatasync/fsync of conv= returned"
				      : "until fdatasync returned (issued by iobattery, "
					"not timed above)");
}

int text_cp_row(FILE *f, const struct run *run, const struct row *w)
{
	const char *method = kv_get(&w->params, RK_CP_METHOD);
	const char *buffer = kv_get(&w->params, RK_CP_BUFFER);
	char si[32], rate[32];
	double secs = (double)w->elapsed_ns / 1e9;

	(void)run;
	if (w->repeat)
		fprintf(f, "-- repeat %u\n", w->repeat + 1);
	if (w->flags & ROW_FAILED && !w->ops) {
		fprintf(f, "cp: failed: %s\n", w->error ? w->error : "unknown error");
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "cp: %" PRIu64 " bytes (%s) copied by %s", w->bytes,
		units_fmt_si(si, sizeof(si), (double)w->bytes, "B"), method ? method : "?");
	if (method && !strcmp(method, "rw") && buffer)
		fprintf(f, " with a %s-byte buffer", buffer);
	fprintf(f, ", %g s, %s\n", secs,
		(w->flags & ROW_TOO_FAST) ? "(no disk rate: see below)" :
		units_fmt_si(rate, sizeof(rate), secs > 0 ? (double)w->bytes / secs : 0, "B/s"));
	time_lines(f, w);
	return extras(f, w, "until fdatasync of the copy returned (issued by iobattery)");
}
