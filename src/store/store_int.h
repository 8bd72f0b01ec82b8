/* store_int.h - what the store's own files share; not for other modules. */
#ifndef IOB_STORE_STORE_INT_H
#define IOB_STORE_STORE_INT_H

#include "core/sqlite_dl.h"
#include <stddef.h>
#include <stdint.h>

struct store {
	sqlite3 *db;
};

/* errbuf = "what: sqlite's message". */
void store_err(struct store *s, char *errbuf, size_t len, const char *what);
/* Run SQL without results. 0 or -EIO (sqlite's message in errbuf). */
int store_exec(struct store *s, const char *sql, char *errbuf, size_t len);

/* store_bind.c: binding a statement's parameter i (from 1). Text is copied by SQLite
 * (NULL binds NULL); a uint64 past 2^63 is clamped; a tri-state below 0 binds NULL; a
 * number that is not finite binds NULL, and as an integer it is rounded and clamped. */
void store_bind_text(sqlite3_stmt *st, int i, const char *s);
void store_bind_u64(sqlite3_stmt *st, int i, uint64_t v);
void store_bind_tri(sqlite3_stmt *st, int i, int v);
void store_bind_num(sqlite3_stmt *st, int i, double v, int integer);
/* Step an INSERT, then reset it and clear its bindings for the next one. 0, or -EIO
 * with "what: sqlite's message" in errbuf. */
int store_step(struct store *s, sqlite3_stmt *st, char *errbuf, size_t len, const char *what);

struct row;
struct store_sysput;
/* store_series.c: the statements that save rows' system figures and series, prepared
 * once per save. 0 and *out, or -EIO / -ENOMEM with the reason in errbuf (kept for the
 * later calls' errors too). */
int store_sysput_begin(struct store *s, struct store_sysput **out, char *errbuf, size_t len);
/* Save w's figures under row_id (nothing when it has none). 0 or -EIO. */
int store_sysput_row(struct store_sysput *p, int64_t row_id, const struct row *w);
void store_sysput_end(struct store_sysput *p);

/* The per-rank tables (schema 3). IF NOT EXISTS, so that the statement is harmless
 * where the tables are already there: it is migration 2 -> 3, and it runs again before
 * each multi-rank run is stored, so a database whose version was reached by migrations
 * of another branch, without these tables, gains them instead of failing. */
#define STORE_RANKS_SQL \
	"CREATE TABLE IF NOT EXISTS run_ranks (" \
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	" rank INTEGER NOT NULL, host TEXT, target TEXT, fs_type TEXT, device TEXT," \
	" device_model TEXT, kernel TEXT, fs_differs INTEGER NOT NULL," \
	" PRIMARY KEY (run_id, rank));" \
	"CREATE TABLE IF NOT EXISTS row_ranks (" \
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE," \
	" rank INTEGER NOT NULL, present INTEGER NOT NULL, start_ns INTEGER, stop_ns INTEGER," \
	" bytes INTEGER, ops INTEGER, elapsed_ns INTEGER, rate REAL, stonewall_bytes INTEGER," \
	" flags INTEGER NOT NULL, PRIMARY KEY (row_id, rank));"

/* Block-layer latency and ceilings per row (schema 4), IF NOT EXISTS for the same reason
 * as STORE_RANKS_SQL: migration 3 -> 4, and run again before a run that has them is
 * stored. */
#define STORE_DEVLAT_SQL \
	"CREATE TABLE IF NOT EXISTS row_device_latency_window (" \
	" row_id INTEGER PRIMARY KEY REFERENCES rows(id) ON DELETE CASCADE," \
	" reason TEXT, devices TEXT, requests INTEGER, unstamped INTEGER, unissued INTEGER," \
	" diskstats_requests INTEGER, diskstats_await_ms REAL, window_ns INTEGER);" \
	"CREATE TABLE IF NOT EXISTS row_device_latency (" \
	" row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE," \
	" op TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER, mean_ns REAL, p50_ns INTEGER," \
	" p99_ns INTEGER, max_ns INTEGER, buckets TEXT, PRIMARY KEY (row_id, op, kind));" \
	"CREATE TABLE IF NOT EXISTS row_ceilings (" \
	" row_id INTEGER PRIMARY KEY REFERENCES rows(id) ON DELETE CASCADE," \
	" applies TEXT, rate_bytes_s REAL, rate_ops_s REAL, link_bytes_s REAL," \
	" memory_copy_bytes_s REAL, tool_ops_s REAL, tool_bytes_s REAL, tool_settings TEXT," \
	" tool_cpu_ns_per_op REAL);"

struct run;
/* store_devlat.c: the rows' block-layer latency and ceilings, after the rows are in. 0 or
 * -EIO (the reason in errbuf). */
int store_put_devlat(struct store *s, const struct run *run, int64_t run_id, char *errbuf,
		     size_t len);

/* The per-rank tables of a multi-rank run (store_ranks.c), after its rows are in.
 * Creates the tables first where they are missing (STORE_RANKS_SQL). Not thread-safe (the
 * store's connection). 0 or -EIO (the reason in errbuf). */
int store_put_ranks(struct store *s, const struct run *run, int64_t run_id, char *errbuf,
		    size_t len);

#endif
