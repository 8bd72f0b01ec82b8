/* db_script.c - the db workload: the seeds' SQL script (or a user's), a build phase of
 * single-row inserts timed on its own, then every statement timed as one phase, and a
 * script total as `time psql -f` would show it. Rows: "build", "stmt01".., "script_total"
 * (workload "db"); the tag and count of each statement come from the engine. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "observe/cpu.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"
#include "observe/du.h"
#include "workload/db/db.h"
#include "runner/phase_sample.h"
#include "runner/runner.h"
#include "workload/workload.h"

#define DB_SETUP_SQL "CREATE TABLE test1 (\n    thedate TIMESTAMP,\n" \
		     "    astring VARCHAR(200),\n    anumber INTEGER\n)"

/* The timed part of the seeds' ptst.sql. The engines differ only in how the UPDATE spells
 * the current time (NOW_EXPR), so the text is written once: SEED_SCRIPT(NOW_EXPR). */
#define SEED_SCRIPT(NOW_EXPR) \
	"CREATE TABLE test2  (\n" \
	"    thedate TIMESTAMP,\n" \
	"    astring VARCHAR(200),\n" \
	"    anumber INTEGER\n" \
	");\n" \
	"CREATE TABLE test3 AS SELECT * FROM test1;\n" \
	"INSERT INTO test2 SELECT * FROM test1 WHERE ((anumber % 2) = 0);\n" \
	"DELETE FROM test3 WHERE ((anumber % 2) = 0);\n" \
	"DELETE FROM test3 WHERE ((anumber % 13) = 0);\n" \
	"CREATE TABLE test4 AS\n" \
	" SELECT test1.thedate AS t1date,\n" \
	"        test2.thedate AS t2date,\n" \
	"        test1.astring AS t1string,\n" \
	"        test2.astring AS t2string,\n" \
	"        test1.anumber AS t1number,\n" \
	"        test2.anumber AS t2number\n" \
	" FROM test1 JOIN test2 ON test1.anumber=test2.anumber;\n" \
	"UPDATE test3 SET thedate=" NOW_EXPR " WHERE ((anumber % 5) = 0);\n" \
	"DROP TABLE test4;\n" \
	"CREATE TABLE test4 AS SELECT * FROM test1;\n" \
	"DELETE FROM test4 WHERE ((anumber % 27) = 0);\n" \
	"VACUUM ANALYZE;\n" \
	"VACUUM FULL;\n" \
	"DROP TABLE test4;\n" \
	"DROP TABLE test3;\n" \
	"DROP TABLE test2;\n" \
	"VACUUM FULL;\n"

/* PostgreSQL: verbatim. */
const char db_seed_script_pg[] = SEED_SCRIPT("'now'");

/* SQLite: 'now' is spelled as SQLite's current time; the engine maps VACUUM ANALYZE to
 * ANALYZE + VACUUM and VACUUM FULL to VACUUM. */
const char db_seed_script_sqlite[] = SEED_SCRIPT("datetime('now')");

/* State of one db_run. */
struct db_state {
	struct runner *rc;
	const struct db_cfg *cfg;
	struct db_conn c;
	char dev[64];			/* block device, "" when unknown */
	uint64_t peak;			/* largest size seen */
	uint64_t sample_ns;		/* time spent sampling sizes inside the script */
	struct row *build_row;		/* the build's row while its count is pending */
	struct db_result build_res;
	double dev_bytes;		/* the disk's writes during the script's statements */
	int dev_known;
	char err[1024];
};

/* The database's size now (and the peak); 0 when it cannot be told. */
static uint64_t db_size_now(struct db_state *s)
{
	uint64_t b = 0, t0 = clock_ns();

	if (s->cfg->size_dir) {
		if (du_bytes(s->cfg->size_dir, &b) < 0)
			b = 0;
	} else if (s->c.size(&s->c, &b) < 0) {
		b = 0;
	}
	if (b > s->peak)
		s->peak = b;
	s->sample_ns += clock_ns() - t0;
	return b;
}

/* The bytes the disk under the database wrote during the phase of row, from the phase's
 * own device figures (runner/phase_sample.h), added to the script's total; the metric is
 * written on the row when want is set. */
static void dev_written(struct db_state *s, struct row *row, int want)
{
	const struct row_sys_dev *d = row_sys_disk(row);

	if (!d || !isfinite(d->v[RSD_WR_BYTES]))
		return;
	s->dev_bytes += d->v[RSD_WR_BYTES];
	s->dev_known = 1;
	if (want)
		row_add_metric(row, RK_DB_DEVICE_BYTES_WRITTEN, d->v[RSD_WR_BYTES], "B");
}

static int row_common(struct db_state *s, struct row *row, const char *sql,
		      const struct db_result *res)
{
	int rc = 0;

	rc |= kv_set(&row->params, RK_DB_ENGINE, "%s", s->c.engine);
	rc |= kv_set(&row->params, RK_DB_SCRIPT, "%s", s->cfg->script_name);
	rc |= kv_set(&row->params, RK_DB_SQL, "%s", sql);
	if (res && res->tag[0]) {
		rc |= kv_set(&row->params, RK_DB_TAG, "%s", res->tag);
		rc |= kv_set(&row->params, RK_ROW_DETAIL, "%s", res->tag);
	}
	row->rate = NAN;	/* a statement has a time, not a rate */
	if (res && res->count >= 0)
		rc |= kv_set(&row->params, RK_DB_COUNT, "%" PRId64, res->count);
	return rc ? -ENOMEM : 0;
}

/* Note a failed step on its row; returns rc. */
static int row_failed(struct db_state *s, struct row *row, int rc, const char *what)
{
	uint64_t size;
	char *e;

	if (rc == -EINTR) {
		row->flags = (row->flags & ~(unsigned)ROW_FAILED) | ROW_INCOMPLETE;
		free(row->error);
		row->error = NULL;
		return rc;
	}
	row->flags |= ROW_FAILED;
	/* how far it got: the database's size on disk when the step failed */
	size = db_size_now(s);
	e = str_printf("%s: %s (database %" PRIu64 " bytes on disk)", what, s->err, size);
	free(row->error);
	row->error = e;
	err_msg("%s failed: %s: %s (database %" PRIu64 " bytes on disk)", s->c.engine, what,
		s->err, size);
	return rc;
}

/* The build row's figures from the number of rows the engine says test1 holds. */
static void db_build_fill(struct row *row, const struct db_result *res)
{
	row->ops = res->count > 0 ? (uint64_t)res->count : 0;
	if (res->count >= 0)
		kv_set(&row->params, RK_DB_COUNT, "%" PRId64, res->count);
	if (row->cpu.valid && row->ops) {
		row->cpu.cpu_ns_per_op = (row->cpu.user_s + row->cpu.sys_s) * 1e9 /
					 (double)row->ops;
		row->cpu.ops = row->ops;
	}
	if (row->elapsed_ns && row->ops) {
		row->rate = (double)row->ops * 1e9 / (double)row->elapsed_ns;
		str_set(&row->rate_unit, "rows/s");
	}
}

/* After the script: ask the engine how many rows the build put in test1 (untimed). */
static void db_build_count(struct db_state *s)
{
	char e2[256];

	if (!s->build_row)
		return;
	if (s->c.finish && s->c.finish(&s->c, &s->build_res, e2, sizeof(e2)) == 0)
		db_build_fill(s->build_row, &s->build_res);
	s->build_row = NULL;
}

/* The setup and build phase: CREATE TABLE test1, then the engine's single-row inserts. */
static int db_build(struct db_state *s)
{
	const struct db_cfg *cfg = s->cfg;
	struct db_result res = { "", -1, "" };
	struct phase ph;
	struct row *row;
	uint64_t t0;
	int rc;

	rc = phase_begin(&ph, s->rc, "build", 1, "rows", cfg->rows);
	if (rc < 0)
		return rc;
	worker_start(&ph.w[0]);
	t0 = op_begin();
	rc = s->c.exec(&s->c, DB_SETUP_SQL, &res, s->err, sizeof(s->err));
	if (rc == 0)
		s->c.made_table = 1;
	s->c.prog = &ph.prog;
	if (rc == 0)
		rc = s->c.build(&s->c, cfg->rows, &res, s->err, sizeof(s->err));
	s->c.prog = NULL;
	op_end(&ph.w[0], t0, rc < 0 ? rc : 0);
	row = phase_end(&ph, "db");
	if (!row)
		return -ENOMEM;
	if (row_common(s, row, s->c.build_sql, &res) < 0)
		return -ENOMEM;
	kv_set(&row->params, RK_DB_ROWS, "%" PRIu64, cfg->rows);
	if (rc < 0)
		return row_failed(s, row, rc, "build");
	if (res.count_table[0]) {
		s->build_row = row;	/* counted after the script: db_build_count */
		s->build_res = res;
	} else {
		db_build_fill(row, &res);
	}
	dev_written(s, row, 1);
	row_add_metric(row, RK_DB_DB_SIZE, (double)db_size_now(s), "B");
	return 0;
}

/* One statement of the script as its own phase. */
static int db_stmt(struct db_state *s, unsigned idx, const struct db_stmt *st)
{
	struct db_result res = { "", -1, "" };
	struct phase ph;
	struct row *row;
	char name[32];
	uint64_t t0;
	int rc;

	snprintf(name, sizeof(name), "stmt%02u", idx);
	rc = phase_begin(&ph, s->rc, name, 1, "stmt", 0);
	if (rc < 0)
		return rc;
	worker_start(&ph.w[0]);
	t0 = op_begin();
	rc = s->c.exec(&s->c, st->sql, &res, s->err, sizeof(s->err));
	op_end(&ph.w[0], t0, rc < 0 ? rc : 0);
	row = phase_end(&ph, "db");
	if (rc == 0 && s->c.finish)
		rc = s->c.finish(&s->c, &res, s->err, sizeof(s->err));
	if (!row)
		return -ENOMEM;
	dev_written(s, row, 0);
	if (row_common(s, row, st->sql, &res) < 0)
		return -ENOMEM;
	kv_set(&row->params, RK_DB_LINE, "%u", st->line);
	if (rc < 0) {
		char what[64];

		snprintf(what, sizeof(what), "statement %u (line %u)", idx, st->line);
		return row_failed(s, row, rc, what);
	}
	row_add_metric(row, RK_DB_DB_SIZE, (double)db_size_now(s), "B");
	return 0;
}

/* The script as `time psql -f` sees it: wall time from the first statement to the end of
 * the last, less the time this tool spent sampling database sizes between statements. */
static int db_script(struct db_state *s, const struct db_stmt *v, int n)
{
	struct cpu_sample c0, c1;
	struct row *row;
	uint64_t t0, t1;
	int k, rc = 0;

	s->sample_ns = 0;
	s->peak = 0;
	s->dev_bytes = 0;
	s->dev_known = 0;
	db_size_now(s);
	s->sample_ns = 0;
	cpu_sample_now(&c0);
	t0 = clock_ns();
	for (k = 0; k < n && rc == 0; k++) {
		if (sig_stop_requested())
			rc = -EINTR;
		else
			rc = db_stmt(s, (unsigned)k + 1, &v[k]);
	}
	t1 = clock_ns();
	cpu_sample_now(&c1);
	row = run_add_row(s->rc->run, "db", "script_total");
	if (!row)
		return -ENOMEM;
	row->repeat = s->rc->repeat;
	row->ops = (uint64_t)k;
	row->elapsed_ns = t1 - t0 > s->sample_ns ? t1 - t0 - s->sample_ns : 0;
	cpu_fill(&row->cpu, &c0, &c1, row->ops);
	if (row->elapsed_ns < ROW_SHORT_NS)
		row->flags |= ROW_SHORT;
	kv_set(&row->params, RK_DB_ENGINE, "%s", s->c.engine);
	kv_set(&row->params, RK_DB_SCRIPT, "%s", s->cfg->script_name);
	kv_set(&row->params, RK_DB_STATEMENTS, "%d", n);
	kv_set(&row->params, RK_ROW_DETAIL, "%d statements", n);
	row->rate = NAN;
	row_add_metric(row, RK_DB_DB_PEAK_SIZE, (double)s->peak, "B");
	if (s->dev_known)
		row_add_metric(row, RK_DB_DEVICE_BYTES_WRITTEN, s->dev_bytes, "B");
	if (rc == -EINTR)
		row->flags |= ROW_INCOMPLETE;
	else if (rc < 0)
		row->flags |= ROW_FAILED;
	if (rc < 0 && rc != -EINTR)
		row->error = str_printf("the script stopped at statement %d of %d", k, n);
	return rc;
}

static int db_open(struct db_state *s)
{
	const struct db_cfg *cfg = s->cfg;
	struct db_pg_info info;
	struct kvlist *o = &s->rc->run->options;
	int rc;

	if (cfg->kind == DB_SQLITE)
		return db_sqlite_open(&s->c, cfg->sqlite_path, &cfg->sqlite, s->err,
				      sizeof(s->err));
	rc = db_pg_open(&s->c, cfg->conninfo, cfg->server ? db_pgserver_alive : NULL,
			cfg->server, &info, s->err, sizeof(s->err));
	if (rc < 0)
		return rc;
	if (info.version[0])
		kv_set(o, RK_DB_PG_SERVER_VERSION, "%s", info.version);
	if (info.data_directory[0])
		kv_set(o, RK_DB_PG_DATA_DIRECTORY, "%s", info.data_directory);
	/* a server on this machine: watch the device under its data directory */
	if (!cfg->server && !s->dev[0] && info.data_directory[0] &&
	    access(info.data_directory, F_OK) == 0 &&
	    sysinfo_device_of(info.data_directory, s->dev, sizeof(s->dev)) == 0)
		kv_set(o, RK_DB_DB_DEVICE, "%s", s->dev);
	/* the phases' device figures are those of the data directory's device, and its
	 * processes' wait states are sampled with ours */
	if (info.data_directory[0] && access(info.data_directory, F_OK) == 0) {
		runner_obs_target(s->rc, info.data_directory, NULL);
		runner_obs_server(s->rc, info.data_directory);
	} else if (!cfg->server) {
		runner_obs_target(s->rc, NULL, "the database server's data directory is not on "
				  "this machine");
	}
	return 0;
}

int db_run(struct runner *rc, const struct db_cfg *cfg)
{
	struct db_state *s;
	struct db_stmt *v = NULL;
	const char *text = cfg->script;
	int n, r;

	if (!text)
		text = cfg->kind == DB_SQLITE ? db_seed_script_sqlite : db_seed_script_pg;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->rc = rc;
	s->cfg = cfg;
	n = db_split(text, &v, s->err, sizeof(s->err));
	if (n < 0) {
		err_msg("cannot read the script: '%s': %s", cfg->script_name, s->err);
		free(s);
		return n;
	}
	if (cfg->device_path && sysinfo_device_of(cfg->device_path, s->dev, sizeof(s->dev)) < 0)
		s->dev[0] = '\0';
	if (s->dev[0])
		kv_set(&rc->run->options, RK_DB_DB_DEVICE, "%s", s->dev);
	r = db_open(s);
	if (r < 0) {
		char *what = strdup(cfg->kind == DB_SQLITE ? cfg->sqlite_path : cfg->conninfo);

		db_redact(what);
		err_msg("cannot open the database: '%s': %s", what ? what : "?", s->err);
		free(what);
		db_split_free(v, n);
		free(s);
		return r;
	}
	r = 0;
	if (!cfg->no_build)
		r = db_build(s);
	if (r == 0 && sig_stop_requested())
		r = -EINTR;
	if (r == 0)
		r = db_script(s, v, n);
	s->c.cleaning = 1;
	db_build_count(s);
	if (cfg->kind == DB_PG) {
		/* remove what the build made (the seed script drops test2..test4 itself), so
		 * that an existing server is left as it was and a repeat can build again;
		 * never anything the build did not create */
		struct db_result res;
		char e2[256];

		s->c.cleaning = 1;
		if (s->c.made_table)
			s->c.exec(&s->c, "DROP TABLE IF EXISTS test1", &res, e2, sizeof(e2));
		if (s->c.made_fn)
			s->c.exec(&s->c, "DROP FUNCTION IF EXISTS build_data()", &res, e2,
				  sizeof(e2));
	}
	s->c.close(&s->c);
	db_split_free(v, n);
	free(s);
	return r;
}
