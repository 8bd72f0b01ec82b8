/* t_store.c - the results store: schema version, a run saved and read back equals the
 * original (as JSON), a second save of the same run is refused, lookup by label and run
 * id, delete, a database from a newer version refused, migrations from schema 1 and 2,
 * and the per-rank tables made where a database reached its version without them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sqlite_dl.h"
#include "test.h"
#include "sys_fill.h"
#include "output/output.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"

/* A database opened directly, to craft or read the store's file behind its back: SQLite
 * through the tree's own loader (core/sqlite_dl.h), as the store opens it. */
static int sq_open(const char *path, sqlite3 **db)
{
	char e[256];

	*db = NULL;
	if (!sqlite_dl_load(e, sizeof(e))) {
		fprintf(stderr, "%s\n", e);
		return SQLITE_ERROR;
	}
	return sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
}

static char dbpath[256];

static struct run *sample(const char *id, const char *label)
{
	struct run *r = run_new("dd");
	struct row *w;
	struct hist *h;
	unsigned i;

	free(r->id);
	r->id = strdup(id);
	str_set(&r->label, label);
	str_set(&r->env.host, "host<1>");
	str_set(&r->env.date, "2026-11-30T12:00:00Z");
	r->env.rotational = 1;
	r->env.virtualized = -1;
	kv_set(&r->options, "bs", "1M");
	for (i = 0; i < 3; i++) {
		w = run_add_row(r, "dd", "write");
		w->repeat = i;
		w->bytes = 1 << 20;
		w->ops = 16;
		w->elapsed_ns = 1000000 + i;
		w->rate = 1048.576 / (1.0 + i / 1e6);
		str_set(&w->rate_unit, "MB/s");
		kv_set(&w->params, "bs", "65536");
		w->flags = ROW_SHORT | (i == 2 ? ROW_CACHE_INFLATED : 0);
		w->cpu.valid = 1;
		w->cpu.user_s = 0.25;
		w->cpu.proc_pct = 50;
		row_add_metric(w, "x", 1.5, "s");
		h = malloc(sizeof(*h));
		hist_init(h);
		hist_add(h, 1000 + i);
		hist_add(h, 5000);
		row_set_lat(w, h);
		if (i == 1)
			sys_fill(w);
	}
	return r;
}

/* The first value of a query, -1 on error. */
static long long query_int(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	if (sq_open(dbpath, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static int user_version(void)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;

	if (sq_open(dbpath, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static void t_round_trip(void)
{
	char err[256];
	struct store *s = store_open(dbpath, 1, err, sizeof(err));
	struct run *a = sample("run-a", "ext4"), *b = sample("run-b", "ext4"), *back;
	char *ja, *jb;
	int64_t id = 0, id2 = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(user_version() == STORE_SCHEMA_VERSION);
	CHECK(store_put(s, a, &id, err, sizeof(err)) == 0 && id == 1);
	CHECK(store_put(s, a, &id2, err, sizeof(err)) == -EEXIST && id2 == 1);
	CHECK(store_put(s, b, &id2, err, sizeof(err)) == 0 && id2 == 2);
	back = store_get(s, 1, err, sizeof(err));
	CHECK(back != NULL);
	if (back) {
		ja = result_json_dump(a);
		jb = result_json_dump(back);
		CHECK(ja && jb && !strcmp(ja, jb));
		free(ja);
		free(jb);
		run_free(back);
	}
	/* the system figures and series in their own tables (one row of each run has them) */
	CHECK(query_int("SELECT count(*) FROM row_system") == 2);
	CHECK(query_int("SELECT count(*) FROM row_devices") == 4);
	CHECK(query_int("SELECT count(*) FROM row_waits") == 4);
	CHECK(query_int("SELECT count(*) FROM series") == 6);
	CHECK(query_int("SELECT count(*) FROM series_devices") == 12);
	CHECK(query_int("SELECT count(*) FROM series WHERE lat_p99_ns IS NULL") == 2);
	CHECK(query_int("SELECT bytes FROM series WHERE idx = 1 LIMIT 1") == 2000002);
	CHECK(query_int("SELECT interval_ns FROM row_system LIMIT 1") == 1000000000);
	CHECK(store_find(s, "ext4") == 2);	/* the latest with the label */
	CHECK(store_find(s, "run-a") == 1);
	CHECK(store_find(s, "nothing") == 0);
	CHECK(store_get(s, 99, err, sizeof(err)) == NULL && strstr(err, "no run with id 99"));
	CHECK(store_delete(s, 1, err, sizeof(err)) == 0);
	CHECK(store_delete(s, 1, err, sizeof(err)) == -ENOENT);
	CHECK(store_get(s, 1, err, sizeof(err)) == NULL);
	store_close(s);
	run_free(a);
	run_free(b);
}

static void t_cascade_and_newer(void)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char err[256];
	struct store *s;
	int n = -1;

	/* run 1 was deleted: none of its rows, params, metrics or histograms remain */
	CHECK(sq_open(dbpath, &db) == SQLITE_OK);
	if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM rows) + (SELECT count(*) "
			       "FROM row_params) + (SELECT count(*) FROM metrics) + "
			       "(SELECT count(*) FROM histograms)", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	CHECK_EQ_U64(n, 12);	/* run 2 only: 3 rows, 3 params, 3 metrics, 3 histograms */
	CHECK(query_int("SELECT (SELECT count(*) FROM row_system) + (SELECT count(*) FROM "
			"series) + (SELECT count(*) FROM series_devices)") == 1 + 3 + 6);
	CHECK(sqlite3_exec(db, "PRAGMA user_version = 42", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	s = store_open(dbpath, 0, err, sizeof(err));
	CHECK(s == NULL && strstr(err, "newer"));
	store_close(s);
	CHECK(store_open("/proc/no/such/dir/x.db", 1, err, sizeof(err)) == NULL);
}

/* A store of schema 1 (before the series tables) is migrated when opened. */
static void t_migrate(void)
{
	char err[256];
	struct store *s;
	sqlite3 *db;

	unlink(dbpath);
	s = store_open(dbpath, 1, err, sizeof(err));
	store_close(s);
	CHECK(sq_open(dbpath, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "DROP TABLE series_devices; DROP TABLE series; DROP TABLE "
			   "row_waits; DROP TABLE row_devices; DROP TABLE row_system; "
			   "PRAGMA user_version = 1", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(user_version() == 1);
	CHECK(query_int("SELECT count(*) FROM sqlite_master WHERE name = 'series'") == 0);
	s = store_open(dbpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK(user_version() == STORE_SCHEMA_VERSION && STORE_SCHEMA_VERSION == 5);
	CHECK(query_int("SELECT count(*) FROM sqlite_master WHERE name = 'series'") == 1);
}

/* A store of schema 4 (series without temp_c) gains the column when opened. */
static void t_migrate_temp(void)
{
	char err[256];
	struct store *s;
	sqlite3 *db;

	unlink(dbpath);
	s = store_open(dbpath, 1, err, sizeof(err));
	store_close(s);
	CHECK(sq_open(dbpath, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "ALTER TABLE series DROP COLUMN temp_c; PRAGMA user_version = 4",
			   NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(query_int("SELECT count(*) FROM pragma_table_info('series') "
			"WHERE name = 'temp_c'") == 0);
	s = store_open(dbpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK(user_version() == 5);
	CHECK(query_int("SELECT count(*) FROM pragma_table_info('series') "
			"WHERE name = 'temp_c'") == 1);
}

/* A store of schema 2 (before the per-rank tables) gains them when opened; one at
 * schema 3 without them (its version reached by another branch's migrations) still
 * takes a multi-rank run: the tables are made when it is stored. */
static void t_ranks_tables_healed(void)
{
	sqlite3 *db;
	char err[256];
	struct store *s;
	struct run *r = sample("run-ranks", "mpi");
	int64_t id = 0;
	size_t i;

	unlink(dbpath);
	s = store_open(dbpath, 1, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK(sq_open(dbpath, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "DROP TABLE row_ranks; DROP TABLE run_ranks; "
			   "PRAGMA user_version = 2", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	s = store_open(dbpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK(user_version() == STORE_SCHEMA_VERSION);
	CHECK(query_int("SELECT count(*) FROM sqlite_master WHERE name = 'row_ranks'") == 1);
	CHECK(sq_open(dbpath, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "DROP TABLE row_ranks; DROP TABLE run_ranks;", NULL, NULL,
			   NULL) == SQLITE_OK);
	sqlite3_close(db);
	r->ranks = calloc(2, sizeof(*r->ranks));
	r->nranks = r->ranks ? 2 : 0;
	for (i = 0; i < r->nranks; i++) {
		r->ranks[i].rank = (unsigned)i;
		str_set(&r->ranks[i].env.host, i ? "db07" : "db01");
	}
	for (i = 0; i < r->nrows; i++) {
		r->rows[i]->ranks = calloc(2, sizeof(*r->rows[i]->ranks));
		r->rows[i]->nranks = r->rows[i]->ranks ? 2 : 0;
		if (r->rows[i]->nranks) {
			r->rows[i]->ranks[1].rank = 1;
			r->rows[i]->ranks[0].present = r->rows[i]->ranks[1].present = 1;
		}
	}
	s = store_open(dbpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s)
		CHECK(store_put(s, r, &id, err, sizeof(err)) == 0 && id == 1);
	store_close(s);
	CHECK(user_version() == STORE_SCHEMA_VERSION);
	CHECK(query_int("SELECT count(*) FROM run_ranks WHERE host = 'db07'") == 1);
	CHECK(query_int("SELECT count(*) FROM row_ranks") == 6);
	run_free(r);
}

static void t_default_path(void)
{
	char buf[256];

	setenv("IOBATTERY_DB", "/x/y.db", 1);
	CHECK(store_default_path(buf, sizeof(buf)) == 0 && !strcmp(buf, "/x/y.db"));
	unsetenv("IOBATTERY_DB");
	setenv("HOME", "/home/u", 1);
	CHECK(store_default_path(buf, sizeof(buf)) == 0 &&
	      !strcmp(buf, "/home/u/.local/share/iobattery/results.db"));
}

int main(void)
{
	const char *tmp = getenv("TESTS_TMP") ? getenv("TESTS_TMP") : "/tmp";

	snprintf(dbpath, sizeof(dbpath), "%s/iob-t-store-%ld.db", tmp, (long)getpid());
	unlink(dbpath);
	RUN(t_round_trip);
	RUN(t_cascade_and_newer);
	RUN(t_migrate);
	RUN(t_migrate_temp);
	RUN(t_ranks_tables_healed);
	RUN(t_default_path);
	unlink(dbpath);
	return test_done();
}
