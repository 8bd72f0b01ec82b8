/* sqlite_dl.h - SQLite opened with dlopen the first time a command opens a database (the
 * results store, db --engine sqlite), never at start-up: `iobattery --help` and a run with
 * --no-store load no SQLite. Include this instead of <sqlite3.h>: it brings SQLite's types
 * and constants, and redirects each sqlite3_* function the tree calls to the loaded
 * library's (a macro of the same name). A new SQLite function: a line in
 * SQLITE_DL_FUNCTIONS and a #define below. Call sqlite_dl_load before the first
 * sqlite3_* call (sqlite3_open_v2 is the first everywhere); the table is filled once
 * (pthread_once) and read-only after, so any thread may use it. */
#ifndef IOB_CORE_SQLITE_DL_H
#define IOB_CORE_SQLITE_DL_H

#include <stddef.h>

#include <sqlite3.h>

/* X(member): sqlite3_<member> for every function the tree calls */
#define SQLITE_DL_FUNCTIONS(X) \
	X(bind_double) X(bind_int) X(bind_int64) X(bind_null) X(bind_text) \
	X(busy_timeout) X(changes) X(clear_bindings) X(close) X(close_v2) \
	X(column_int) X(column_int64) X(column_text) X(errmsg) X(exec) X(finalize) \
	X(free) X(last_insert_rowid) X(libversion) X(open_v2) X(prepare_v2) \
	X(progress_handler) X(reset) X(step) X(total_changes64)

#define SQLITE_DL_MEMBER(m) __typeof__(sqlite3_##m) *m;
struct sqlite_dl {
	SQLITE_DL_FUNCTIONS(SQLITE_DL_MEMBER)
};

/* Open SQLite (once per process) and return its functions; NULL with why in err ("cannot
 * load SQLite (for the results store and db --engine sqlite): ..."). */
const struct sqlite_dl *sqlite_dl_load(char *err, size_t len);
/* The functions, once sqlite_dl_load has returned them; abort()s before (a call that
 * skipped the load is a defect of the tree, not of the input). */
const struct sqlite_dl *sqlite_dl(void);

#ifndef SQLITE_DL_NO_REDIRECT
#define sqlite3_bind_double	(sqlite_dl()->bind_double)
#define sqlite3_bind_int	(sqlite_dl()->bind_int)
#define sqlite3_bind_int64	(sqlite_dl()->bind_int64)
#define sqlite3_bind_null	(sqlite_dl()->bind_null)
#define sqlite3_bind_text	(sqlite_dl()->bind_text)
#define sqlite3_busy_timeout	(sqlite_dl()->busy_timeout)
#define sqlite3_changes		(sqlite_dl()->changes)
#define sqlite3_clear_bindings	(sqlite_dl()->clear_bindings)
#define sqlite3_close		(sqlite_dl()->close)
#define sqlite3_close_v2	(sqlite_dl()->close_v2)
#define sqlite3_column_int	(sqlite_dl()->column_int)
#define sqlite3_column_int64	(sqlite_dl()->column_int64)
#define sqlite3_column_text	(sqlite_dl()->column_text)
#define sqlite3_errmsg		(sqlite_dl()->errmsg)
#define sqlite3_exec		(sqlite_dl()->exec)
#define sqlite3_finalize	(sqlite_dl()->finalize)
#define sqlite3_free		(sqlite_dl()->free)
#define sqlite3_last_insert_rowid (sqlite_dl()->last_insert_rowid)
#define sqlite3_libversion	(sqlite_dl()->libversion)
#define sqlite3_open_v2		(sqlite_dl()->open_v2)
#define sqlite3_prepare_v2	(sqlite_dl()->prepare_v2)
#define sqlite3_progress_handler (sqlite_dl()->progress_handler)
#define sqlite3_reset		(sqlite_dl()->reset)
#define sqlite3_step		(sqlite_dl()->step)
#define sqlite3_total_changes64	(sqlite_dl()->total_changes64)
#endif

#endif
