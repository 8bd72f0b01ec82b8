/* store.c - the SQLite results store: schema, migrations, saving a run in one transaction,
 * reading it back, listing, deleting. See store.h and docs/store-schema.md. */
#include <errno.h>
#include <limits.h>
#include "core/sqlite_dl.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/result.h"
#include "stats/result_json.h"
#include "core/textsafe.h"
#include "store/store.h"
#include "store/store_int.h"

/* Migration i takes the schema from user_version i to i + 1. Never edit one that has
 * shipped: add the next. */
static const char *const migrations[] = {
	/* 0 -> 1: the first schema */
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" run_uid TEXT NOT NULL UNIQUE,"
	" schema_version INTEGER NOT NULL,"
	" label TEXT, workload TEXT, command_line TEXT,"
	" date TEXT, host TEXT, tool_version TEXT, os TEXT, kernel TEXT, arch TEXT,"
	" cpu_model TEXT, ncpu INTEGER, ram_bytes INTEGER,"
	" target TEXT, fs_type TEXT, mount_opts TEXT, mount_point TEXT,"
	" device TEXT, device_model TEXT, rotational INTEGER, scheduler TEXT,"
	" virtualized INTEGER,"
	" status INTEGER, incomplete INTEGER NOT NULL, imported INTEGER NOT NULL,"
	" error TEXT,"
	" stored_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
	" result_json TEXT NOT NULL);"
	"CREATE INDEX runs_label ON runs(label);"
	"CREATE INDEX runs_host ON runs(host);"
	"CREATE TABLE run_options ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, value TEXT, PRIMARY KEY (run_id, key));"
	"CREATE TABLE rows ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, workload TEXT, phase TEXT, repeat INTEGER,"
	" bytes INTEGER, ops INTEGER, elapsed_ns INTEGER, buffered_ns INTEGER,"
	" durable_ns INTEGER, rate REAL, rate_unit TEXT,"
	" cpu_user_s REAL, cpu_sys_s REAL, cpu_proc_pct REAL, cpu_sys_busy_pct REAL,"
	" lat_n INTEGER, lat_mean_ns REAL, lat_sd_ns REAL, lat_min_ns INTEGER,"
	" lat_p50_ns INTEGER, lat_p90_ns INTEGER, lat_p99_ns INTEGER,"
	" lat_p999_ns INTEGER, lat_max_ns INTEGER,"
	" cache_pct REAL, cache_dropped INTEGER, flags INTEGER NOT NULL,"
	" flag_names TEXT, error TEXT, note TEXT);"
	"CREATE INDEX rows_run ON rows(run_id);"
	"CREATE TABLE row_params ("
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, value TEXT, PRIMARY KEY (row_id, key));"
	"CREATE TABLE metrics ("
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, value REAL, unit TEXT);"
	"CREATE INDEX metrics_row ON metrics(row_id);"
	"CREATE TABLE histograms ("
	" row_id INTEGER PRIMARY KEY REFERENCES rows(id) ON DELETE CASCADE,"
	" n INTEGER NOT NULL, sum_ns INTEGER, min_ns INTEGER, max_ns INTEGER,"
	" buckets TEXT NOT NULL);",
	/* 1 -> 2: what the system did during each phase, and the time series */
	"CREATE TABLE row_system ("
	" row_id INTEGER PRIMARY KEY REFERENCES rows(id) ON DELETE CASCADE,"
	" devices_reason TEXT, workload_read_bytes INTEGER, workload_written_bytes INTEGER,"
	" write_amplification REAL, cpu_user_pct REAL, cpu_nice_pct REAL,"
	" cpu_system_pct REAL, cpu_iowait_pct REAL, cpu_irq_pct REAL, cpu_softirq_pct REAL,"
	" cpu_steal_pct REAL, cpu_idle_pct REAL, dirty_start_bytes INTEGER,"
	" dirty_end_bytes INTEGER, writeback_start_bytes INTEGER,"
	" writeback_end_bytes INTEGER, cached_start_bytes INTEGER, cached_end_bytes INTEGER,"
	" wait_passes INTEGER, wait_observations INTEGER, wchan_hidden INTEGER,"
	" sampler_cpu_s REAL, interval_ns INTEGER);"
	"CREATE TABLE row_devices ("
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, name TEXT, role TEXT, rd_bytes INTEGER, wr_bytes INTEGER,"
	" r_s REAL, w_s REAL, rkb_s REAL, wkb_s REAL, rrqm_s REAL, wrqm_s REAL,"
	" r_await_ms REAL, w_await_ms REAL, aqu_sz REAL, rareq_sz_kb REAL, wareq_sz_kb REAL,"
	" util_pct REAL, d_s REAL, dkb_s REAL, d_await_ms REAL, f_s REAL, f_await_ms REAL,"
	" PRIMARY KEY (row_id, seq));"
	"CREATE TABLE row_waits ("
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, state TEXT, wchan TEXT, syscall TEXT, count INTEGER,"
	" share_pct REAL, PRIMARY KEY (row_id, seq));"
	"CREATE TABLE series ("
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, t_ns INTEGER, ops INTEGER, bytes INTEGER,"
	" lat_p50_ns INTEGER, lat_p99_ns INTEGER, lat_max_ns INTEGER, cpu_usr_pct REAL,"
	" cpu_sys_pct REAL, cpu_iowait_pct REAL, cpu_steal_pct REAL, cpu_idle_pct REAL,"
	" dirty_bytes INTEGER, writeback_bytes INTEGER, PRIMARY KEY (row_id, idx));"
	"CREATE TABLE series_devices ("
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, device TEXT NOT NULL, util_pct REAL, aqu_sz REAL, r_s REAL,"
	" w_s REAL, rkb_s REAL, wkb_s REAL, r_await_ms REAL, w_await_ms REAL,"
	" PRIMARY KEY (row_id, idx, device));",
	/* 2 -> 3: the ranks of a run measured by several processes (mpirun); the SQL is
	 * also run before a multi-rank run is stored (store_ranks.c), see STORE_RANKS_SQL */
	STORE_RANKS_SQL,
	/* 3 -> 4: block-layer latency and ceilings per row (store_devlat.c) */
	STORE_DEVLAT_SQL,
	/* 4 -> 5: the device's temperature per interval (sustained): series.temp_c, added
	 * by heal_columns (below), which also mends a database whose version 5 came from
	 * another branch's migrations without it */
	"SELECT 1;",
};
#define NMIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

void store_err(struct store *s, char *errbuf, size_t len, const char *what)
{
	snprintf(errbuf, len, "%s: %s", what, sqlite3_errmsg(s->db));
}

int store_exec(struct store *s, const char *sql, char *errbuf, size_t len)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(errbuf, len, "%s", msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

int store_default_path(char *buf, size_t len)
{
	const char *db = getenv("IOBATTERY_DB"), *home;
	int n;

	if (db && *db)
		n = snprintf(buf, len, "%s", db);
	else if ((home = getenv("HOME")) && *home)
		n = snprintf(buf, len, "%s/.local/share/iobattery/results.db", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The default store (under $HOME), whose directory we may make; a path the user named
 * (IOBATTERY_DB, a command's option) must be in a directory that exists. */
static int is_default_store(const char *path)
{
	const char *home = getenv("HOME");
	char def[PATH_MAX];

	return home && *home && snprintf(def, sizeof(def), "%s/.local/share/iobattery/results.db",
					 home) < (int)sizeof(def) && !strcmp(def, path);
}

/* mkdir -p of the directory holding path (mode 0700: results say a lot about a host),
 * only for the default store: elsewhere -ENOENT when the directory is missing. */
static int make_parent(const char *path)
{
	char dir[PATH_MAX], *p;
	struct stat st;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	if (!is_default_store(path))
		return stat(dir, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int store_check_place(char *errbuf, size_t len)
{
	char path[PATH_MAX], dir[PATH_MAX], *p;
	struct stat st;
	int rc = store_default_path(path, sizeof(path));

	if (rc < 0) {
		snprintf(errbuf, len, "no store path: %s (set HOME or IOBATTERY_DB)",
			 strerror(-rc));
		return rc;
	}
	if (is_default_store(path))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p)
		return 0;
	if (p == dir)
		p[1] = '\0';
	else
		*p = '\0';
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(errbuf, len, "the store's directory does not exist: '%s' (only the "
			 "default store's directory is made)", dir);
		return -ENOENT;
	}
	return 0;
}

static int user_version(struct store *s, int *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -EIO;
}

/* Bring the schema to STORE_SCHEMA_VERSION, one transaction per step. */
static int migrate(struct store *s, char *errbuf, size_t len)
{
	char sql[64];
	int v;

	if (user_version(s, &v) < 0) {
		store_err(s, errbuf, len, "cannot read the schema version");
		return -EIO;
	}
	if (v > NMIGRATIONS) {
		snprintf(errbuf, len, "written by a newer iobattery (schema %d, this one knows %d)",
			 v, NMIGRATIONS);
		return -EPROTO;
	}
	for (; v < NMIGRATIONS; v++) {
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if (store_exec(s, "BEGIN IMMEDIATE", errbuf, len) < 0)
			return -EIO;
		if (store_exec(s, migrations[v], errbuf, len) < 0 ||
		    store_exec(s, sql, errbuf, len) < 0) {
			(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			return -EIO;
		}
		if (store_exec(s, "COMMIT", errbuf, len) < 0) {
			(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			return -EIO;
		}
	}
	return 0;
}

/* Columns added to an existing table since its version: each made where it is missing (an
 * ALTER TABLE that found it would fail). A schema that cannot be read is left to the
 * statements that follow to report (a damaged store still opens, as before). 0, or -EIO
 * after the message when a missing column cannot be added. */
static int heal_columns(struct store *s, char *errbuf, size_t len)
{
	static const char *const add[][3] = {
		{ "series", "temp_c", "ALTER TABLE series ADD COLUMN temp_c REAL" },
	};
	sqlite3_stmt *st;
	char sql[160];
	int rc, have;

	for (size_t i = 0; i < sizeof(add) / sizeof(add[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('%s') "
			 "WHERE name = '%s'", add[i][0], add[i][1]);
		if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
			return 0;
		rc = sqlite3_step(st);
		have = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
		sqlite3_finalize(st);
		if (have < 0)
			return 0;
		if (!have && store_exec(s, add[i][2], errbuf, len) < 0)
			return -EIO;
	}
	return 0;
}

struct store *store_open(const char *path, int create, char *errbuf, size_t len)
{
	struct store *s;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	int rc;

	if (create && (rc = make_parent(path)) < 0) {
		snprintf(errbuf, len, rc == -ENOENT ? "its directory does not exist (only the "
			 "default store's directory is made)" : "cannot create its directory: "
			 "%s", strerror(-rc));
		return NULL;
	}
	if (!sqlite_dl_load(errbuf, len))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(errbuf, len, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(errbuf, len, "%s", s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return NULL;
	}
	/* wait a little for another writer; then report "database is locked" */
	sqlite3_busy_timeout(s->db, 2000);
	if (store_exec(s, "PRAGMA foreign_keys = ON", errbuf, len) < 0 ||
	    migrate(s, errbuf, len) < 0 || heal_columns(s, errbuf, len) < 0) {
		store_close(s);
		return NULL;
	}
	return s;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->db && sqlite3_close(s->db) != SQLITE_OK)
		(void)sqlite3_close_v2(s->db);
	free(s);
}

int64_t store_find(struct store *s, const char *key)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT id FROM runs WHERE label = ?1 OR run_uid = ?1 "
			       "ORDER BY id DESC LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		id = -EIO;
	sqlite3_finalize(st);
	return id;
}

struct run *store_get(struct store *s, int64_t id, char *errbuf, size_t len)
{
	return store_get_flags(s, id, 0, errbuf, len);
}

struct run *store_get_flags(struct store *s, int64_t id, unsigned flags, char *errbuf,
			    size_t len)
{
	sqlite3_stmt *st;
	struct run *run = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT result_json FROM runs WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK) {
		store_err(s, errbuf, len, "query failed");
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		run = result_json_load_flags((const char *)sqlite3_column_text(st, 0), flags,
					     errbuf, len);
	else if (rc == SQLITE_DONE)
		snprintf(errbuf, len, "no run with id %lld in the store", (long long)id);
	else
		store_err(s, errbuf, len, "query failed");
	sqlite3_finalize(st);
	return run;
}

int store_delete(struct store *s, int64_t id, char *errbuf, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "DELETE FROM runs WHERE id = ?1", -1, &st, NULL) !=
	    SQLITE_OK) {
		store_err(s, errbuf, len, "delete failed");
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_err(s, errbuf, len, "delete failed");
		return -EIO;
	}
	if (sqlite3_changes(s->db) == 0) {
		snprintf(errbuf, len, "no run with id %lld in the store", (long long)id);
		return -ENOENT;
	}
	return 0;
}

int store_list(struct store *s, FILE *f, const char *label, const char *host)
{
	sqlite3_stmt *st;
	int rc, n = 0;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT id, date, host, workload, label, imported, incomplete,"
			       " (SELECT count(*) FROM rows WHERE rows.run_id = runs.id), run_uid"
			       " FROM runs WHERE (?1 IS NULL OR label = ?1)"
			       " AND (?2 IS NULL OR host = ?2) ORDER BY id", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	if (label)
		sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (host)
		sqlite3_bind_text(st, 2, host, -1, SQLITE_STATIC);
	fprintf(f, "%6s  %-20s  %-20s  %-9s %5s  %-10s  %s\n", "id", "date", "host", "workload",
		"rows", "flags", "label");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *c[5] = { NULL };
		char flags[32];

		/* date, host, workload and label came from result files: escaped for the
		 * terminal (a hostile label must not retitle or clear it) */
		for (int k = 1; k < 5; k++) {
			const char *v = (const char *)sqlite3_column_text(st, k);

			c[k] = v ? textsafe_term(v) : NULL;
		}

		snprintf(flags, sizeof(flags), "%s%s",
			 sqlite3_column_int(st, 5) ? "imported " : "",
			 sqlite3_column_int(st, 6) ? "incomplete" : "");
		fprintf(f, "%6lld  %-20s  %-20.20s  %-9s %5d  %-10s  %s\n",
			(long long)sqlite3_column_int64(st, 0), c[1] ? c[1] : "-",
			c[2] ? c[2] : "-", c[3] ? c[3] : "-", sqlite3_column_int(st, 7),
			flags[0] ? flags : "-", c[4] ? c[4] : "");
		for (int k = 1; k < 5; k++)
			free(c[k]);
		n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -EIO;
}

int store_save_run(const struct run *run, char *errbuf, size_t len)
{
	char path[PATH_MAX];
	struct store *s;
	int64_t id;
	int rc;

	rc = store_default_path(path, sizeof(path));
	if (rc < 0) {
		snprintf(errbuf, len, "no store path: set IOBATTERY_DB or HOME");
		return rc;
	}
	s = store_open(path, 1, errbuf, len);
	if (!s)
		return -EIO;
	rc = store_put(s, run, &id, errbuf, len);
	store_close(s);
	return rc;
}
