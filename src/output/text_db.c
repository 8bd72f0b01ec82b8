/* text_db.c - the text renderer of the db workload: one line per statement with psql's
 * command tag and its wall time, the build phase apart, then the script total as
 * `time psql -f` shows it (real, user, sys) and the database size and device writes.
 * Reads only the results model. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output/numfmt.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char *opt_or(const struct run *run, const char *key, const char *dflt)
{
	const char *v = kv_get(&run->options, key);

	return v ? v : dflt;
}

/* Bytes in decimal units with one decimal: kB below 1 MB, GB from 10 GB. */
static void fmt_mb(char *buf, size_t len, double b)
{
	if (b < 1e6)
		snprintf(buf, len, "%.1f kB", b / 1e3);
	else if (b < 1e10)
		snprintf(buf, len, "%.1f MB", b / 1e6);
	else
		snprintf(buf, len, "%.1f GB", b / 1e9);
}

int text_db_head(FILE *f, const struct run *run)
{
	const char *eng = opt_or(run, RK_DB_ENGINE, "sqlite");
	int nobuild = !strcmp(opt_or(run, RK_DB_NO_BUILD, "false"), "true");

	fprintf(f, "db: %s, %s%s, script %s, in %s\n", eng, nobuild ? "no build" :
		opt_or(run, RK_DB_ROWS, "?"), nobuild ? "" : " rows",
		opt_or(run, RK_DB_SCRIPT, "seed"), run->env.target ? run->env.target : "?");
	if (!strcmp(eng, "sqlite"))
		fprintf(f, "    sqlite %s: journal_mode=%s synchronous=%s page_size=%s "
			"cache_size=%s\n", opt_or(run, RK_DB_SQLITE_VERSION, ""),
			opt_or(run, RK_DB_JOURNAL_MODE, "?"), opt_or(run, RK_DB_SYNCHRONOUS, "?"),
			opt_or(run, RK_DB_PAGE_SIZE, "?"), opt_or(run, RK_DB_CACHE_SIZE, "?"));
	else
		fprintf(f, "    postgresql %s, data directory %s\n",
			opt_or(run, RK_DB_PG_SERVER_VERSION, "?"),
			opt_or(run, RK_DB_PG_DATA_DIRECTORY, "?"));
	if (run->env.fs_type || run->env.device)
		fprintf(f, "    file system %s on %s\n", run->env.fs_type ? run->env.fs_type : "?",
			run->env.device ? run->env.device : "?");
	return ferror(f) ? -1 : 0;
}

/* The first line of the statement, shortened to width characters. */
static void sql_head(char *buf, size_t width, const char *sql)
{
	size_t n = strcspn(sql, "\n");

	if (n >= width) {
		n = width - 4;
		memcpy(buf, sql, n);
		memcpy(buf + n, "...", 4);
		return;
	}
	memcpy(buf, sql, n);
	buf[n] = '\0';
}

static int text_db_total(FILE *f, const struct row *row)
{
	const struct metric *m;
	char b[32];

	fprintf(f, "script total (time psql -f): real %.3f s  user %.3f s  sys %.3f s",
		(double)row->elapsed_ns / 1e9, row->cpu.valid ? row->cpu.user_s : 0.0,
		row->cpu.valid ? row->cpu.sys_s : 0.0);
	if (row->cpu.valid)
		fprintf(f, "  CPU %.0f%% (system %.0f%%)", row->cpu.proc_pct,
			row->cpu.sys_busy_pct);
	fprintf(f, "\n");
	m = row_metric(row, RK_DB_DB_PEAK_SIZE);
	if (m) {
		fmt_mb(b, sizeof(b), m->value);
		fprintf(f, "    database peak size %s", b);
	}
	m = row_metric(row, RK_DB_DEVICE_BYTES_WRITTEN);
	if (m) {
		fmt_mb(b, sizeof(b), m->value);
		fprintf(f, ", written to the device %s", b);
	}
	fprintf(f, "\n");
	if (row->note)
		fprintf(f, "    %s\n", row->note);	/* an imported psql: its command tags */
	return 0;
}

int text_db_row(FILE *f, const struct run *run, const struct row *row)
{
	const char *tag = kv_get(&row->params, RK_DB_TAG);
	const char *sql = kv_get(&row->params, RK_DB_SQL);
	const char *count;
	const struct metric *m;
	char head[64], b[NUMFMT_LEN];

	(void)run;
	if (!strcmp(row->phase, "script_total")) {
		text_db_total(f, row);
	} else if (!strcmp(row->phase, "build")) {
		if (row->repeat)
			fprintf(f, "repeat %u:\n", row->repeat + 1);
		fprintf(f, "build   %-20s %10.3f s", tag ? tag : "", (double)row->elapsed_ns / 1e9);
		if (row->rate > 0)
			fprintf(f, "  %s", numfmt(b, sizeof(b), row->rate, "rows/s"));
		m = row_metric(row, RK_DB_DEVICE_BYTES_WRITTEN);
		if (m) {
			fmt_mb(b, sizeof(b), m->value);
			fprintf(f, "  device written %s", b);
		}
		count = kv_get(&row->params, RK_DB_COUNT);
		fprintf(f, "  (%s rows in test1, single-row inserts)\n", count ? count : "?");
	} else {
		sql_head(head, sizeof(head), sql ? sql : "");
		fprintf(f, "%-7s %-20s %10.3f s  %s\n", row->phase, tag ? tag : "",
			(double)row->elapsed_ns / 1e9, head);
	}
	if (row->flags & ROW_FAILED)
		fprintf(f, "        FAILED: %s\n", row->error ? row->error : "unknown error");
	if (row->flags & ROW_INCOMPLETE)
		fprintf(f, "        interrupted: the figures cover part of the work\n");
	out_text_flags_line(f, row, "        ");	/* every flag, short included */
	out_text_system(f, row, NULL);
	return ferror(f) ? -1 : 0;
}
