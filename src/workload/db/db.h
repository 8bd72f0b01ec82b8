/* db.h - the database workload (the seeds' `time psql -f ptst.sql`): a build phase of N
 * single-row inserts, then a script of SQL statements, each timed on its own, on embedded
 * SQLite or on PostgreSQL through libpq (an existing server, or a throwaway one whose data
 * directory lives in the scratch directory). Internal to src/workload/db/.
 *
 * Modules:
 *   db_split.c     the statement splitter (quotes, dollar quotes, comments)
 *   db_sqlite.c    the SQLite engine
 *   db_pg.c        the PostgreSQL engine (libpq; only with HAVE_LIBPQ)
 *   db_pq.c        libpq loaded with dlopen on first use (db_pq.h; only with HAVE_LIBPQ)
 *   db_pgserver.c  the throwaway PostgreSQL server (only with HAVE_LIBPQ)
 *   db_script.c    the seed script, the phases and rows, db_run()
 * Nothing here is thread-safe: one thread drives one connection. */
#ifndef IOB_WORKLOAD_DB_H
#define IOB_WORKLOAD_DB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct runner;
struct progress;

/* ---- statement splitter (db_split.c) ---- */

struct db_stmt {
	char *sql;		/* the statement, without its ';', leading blanks/comments */
	unsigned line;		/* 1-based line of the file where it starts */
};

/* Split an SQL text into statements at every ';' outside single quotes (with '' and,
 * in E'...' strings, backslash escapes), double-quoted identifiers, -- and (nested)
 * block comments, and dollar quotes ($$ ... $$, $tag$ ... $tag$). Statements that hold
 * only blanks and comments are dropped; a last statement without ';' is kept.
 * Returns the number of statements (>= 0) with *out (owned by the caller, free with
 * db_split_free) or -ENOMEM, or -EINVAL with a reason in err for an unterminated quote,
 * dollar quote or comment. */
int db_split(const char *text, struct db_stmt **out, char *err, size_t errlen);
void db_split_free(struct db_stmt *v, int n);

/* ---- engines ---- */

/* What a statement did, from the engine. */
struct db_result {
	char tag[64];		/* psql's command tag: "DELETE 38462", "CREATE TABLE" */
	int64_t count;		/* rows affected or returned; -1 when the tag has none */
	char count_table[256];	/* set when the count is still to be asked (finish) */
};

/* One open database. The fields are set by the engine's open function. */
struct db_conn {
	const char *engine;	/* "sqlite" or "postgresql" */
	void *h;		/* engine handle */
	/* Run one statement (text as the splitter returns it). 0, or -EINTR after a stop
	 * signal, or -EIO (or -errno) with the engine's message in err. */
	int (*exec)(struct db_conn *c, const char *sql, struct db_result *res,
		    char *err, size_t errlen);
	/* Complete res after the timed part, when exec left res->count_table set (SQLite's
	 * CREATE TABLE AS: count(*) of the new table). May be NULL. 0 or -errno + err. */
	int (*finish)(struct db_conn *c, struct db_result *res, char *err, size_t errlen);
	/* The build phase: fill test1 with rows single-row inserts in one transaction
	 * (SQLite: one prepared INSERT; PostgreSQL: the seeds' plpgsql build_data()). */
	int (*build)(struct db_conn *c, uint64_t rows, struct db_result *res,
		     char *err, size_t errlen);
	/* The database's size on disk in bytes (files or pg_database_size). 0 or -errno. */
	int (*size)(struct db_conn *c, uint64_t *bytes);
	void (*close)(struct db_conn *c);
	const char *build_sql;	/* what build runs, for the record */
	int made_table;		/* the build created test1 (so it may drop it) */
	int made_fn;		/* the build created build_data() (PostgreSQL) */
	int cleaning;		/* tearing down: run even after a stop signal */
	struct progress *prog;	/* build ticks rows done here when set (SQLite) */
};

/* SQLite options (PRAGMAs), recorded in the result. */
struct db_sqlite_opts {
	const char *journal_mode;	/* "delete" (SQLite's default), "wal", ... */
	const char *synchronous;	/* "full" (default), "normal", "off" */
	unsigned page_size;		/* bytes; 4096 */
	long cache_size;		/* PRAGMA cache_size: pages, or -KiB when negative */
};

/* Open (create) the SQLite database at path. 0 or -errno with a reason in err. */
int db_sqlite_open(struct db_conn *c, const char *path, const struct db_sqlite_opts *o,
		   char *err, size_t errlen);

/* Remove the database file at path and its journal, WAL and shared-memory files.
 * 0 or -errno (a missing file is fine). */
int db_sqlite_remove(const char *path);

/* A server's facts, for the record. Strings are "" when unknown. */
struct db_pg_info {
	char version[64];
	char data_directory[512];
};

/* Connect to PostgreSQL with conninfo. alive (may be NULL) is polled while a statement
 * runs; when it returns 0 the statement is abandoned with "server exited".
 * 0, -ENOTSUP without libpq, -ENOENT when libpq cannot be loaded (db_pq.h), or
 * -ECONNREFUSED (-errno) with the reason in err. */
int db_pg_open(struct db_conn *c, const char *conninfo, int (*alive)(void *), void *arg,
	       struct db_pg_info *info, char *err, size_t errlen);
/* Hide a password in a connection string, in place: key=value "password=..." and a
 * URI's "user:password@" become "***". NULL is allowed. */
void db_redact(char *s);
/* Run one statement on a new connection to conninfo (e.g. CREATE DATABASE).
 * 0, or -ENOTSUP, -ENOENT, -ECONNREFUSED or -EIO as db_pg_open, the reason in err. */
int db_pg_oneshot(const char *conninfo, const char *sql, char *err, size_t errlen);

/* ---- the throwaway server (db_pgserver.c) ---- */

struct db_pgserver;

/* Find initdb and postgres (bindir if given, else `pg_config --bindir`, else the newest
 * /usr/lib/postgresql/N/bin), initdb a cluster in DIR/pg/data (as the 'postgres' or
 * 'nobody' user when root), start it with unix sockets only on a private port, wait until
 * it accepts connections and create the database "perftst". The postmaster is our child
 * in its own session; it gets SIGQUIT if we die. Returns 0 and *out, or -errno with the
 * reason in err (nothing left running; DIR's contents are the caller's to remove). */
int db_pgserver_start(const char *dir, const char *bindir, struct db_pgserver **out,
		      char *err, size_t errlen);
/* conninfo for the "perftst" database. */
const char *db_pgserver_conninfo(const struct db_pgserver *s);
/* The data directory. */
const char *db_pgserver_datadir(const struct db_pgserver *s);
pid_t db_pgserver_pid(const struct db_pgserver *s);
/* 1 while the postmaster runs, 0 once it exited (reaps it). arg: the server. */
int db_pgserver_alive(void *arg);
/* Stop the server (fast shutdown, then immediate, then SIGKILL), kill and reap any of its
 * processes left (they are our children through the subreaper flag), remove its shared
 * memory if it died, and free s. 0, or -errno if something could not be stopped. */
int db_pgserver_stop(struct db_pgserver *s);

/* ---- the workload (db_script.c) ---- */

enum db_kind { DB_SQLITE, DB_PG };

struct db_cfg {
	enum db_kind kind;
	uint64_t rows;			/* build phase rows (>= 1) */
	int no_build;			/* skip the build phase */
	const char *script_name;	/* "seed" or the file name */
	const char *script;		/* the script text; NULL = the seed script */
	const char *sqlite_path;	/* DB_SQLITE: the database file */
	struct db_sqlite_opts sqlite;
	const char *conninfo;		/* DB_PG */
	struct db_pgserver *server;	/* DB_PG with --pg-local, else NULL */
	const char *size_dir;		/* directory whose size is the database's (or NULL) */
	const char *device_path;	/* a path on the device to watch (diskstats), or NULL */
};

/* The seed script as run on each engine. */
extern const char db_seed_script_pg[];
extern const char db_seed_script_sqlite[];

/* Run the build phase and the script; append rows "build", "stmt01".., "script_total" to
 * rc->run. Returns 0, -EINTR after a stop signal, or -errno when a statement failed (its
 * row is ROW_FAILED with the engine's message; the error is also printed). */
int db_run(struct runner *rc, const struct db_cfg *cfg);

#endif
