/* db_pq.h - libpq, loaded with dlopen the first time `db --pg` or `--pg-local` needs it,
 * so that no other command pays for loading it and its twenty-odd dependent libraries at
 * start-up. The build still uses libpq's header (through pkg-config) for its types and
 * prototypes; the binary does not link -lpq. Internal to db_pg.c and db_pgserver.c.
 * Only with HAVE_LIBPQ. */
#ifndef IOB_WORKLOAD_DB_PQ_H
#define IOB_WORKLOAD_DB_PQ_H

#include "config.h"

#ifdef HAVE_LIBPQ
#include <stddef.h>
#include <libpq-fe.h>

/* The libpq functions iobattery calls, each with the type its prototype in libpq-fe.h
 * has (db_pq.c checks every one against the header at compile time). */
struct db_pq {
	PGconn *(*connectdb)(const char *conninfo);
	ConnStatusType (*status)(const PGconn *conn);
	char *(*error_message)(const PGconn *conn);
	void (*finish)(PGconn *conn);
	int (*socket)(const PGconn *conn);
	int (*send_query)(PGconn *conn, const char *query);
	int (*is_busy)(PGconn *conn);
	int (*consume_input)(PGconn *conn);
	PGresult *(*get_result)(PGconn *conn);
	PGresult *(*exec)(PGconn *conn, const char *query);
	ExecStatusType (*result_status)(const PGresult *res);
	char *(*result_error_message)(const PGresult *res);
	char *(*result_error_field)(const PGresult *res, int fieldcode);
	char *(*cmd_status)(PGresult *res);
	char *(*cmd_tuples)(PGresult *res);
	int (*ntuples)(const PGresult *res);
	char *(*get_value)(const PGresult *res, int tup_num, int field_num);
	void (*clear)(PGresult *res);
	PGcancel *(*get_cancel)(PGconn *conn);
	int (*cancel)(PGcancel *cancel, char *errbuf, int errbufsize);
	void (*free_cancel)(PGcancel *cancel);
	PGPing (*ping)(const char *conninfo);
	int (*backend_pid)(const PGconn *conn);
};

/* The loaded functions: the first call dlopens libpq (its soname, then the path configure
 * found, IOB_LIBPQ_PATH) and resolves every function; later calls return the same table.
 * Returns the table (static, never freed; libpq stays loaded until exit) or NULL with the
 * reason in err ("cannot load libpq (for --pg and --pg-local): <dlerror>"), and the next
 * call tries again. Not thread-safe: the db workload calls it from its one thread. */
const struct db_pq *db_pq_get(char *err, size_t errlen);
/* The same from the library file name (for tests: a name that does not exist, or NULL:
 * the program itself, which has none of libpq's functions). Loads into the caller's table
 * each time: *out is valid only while the returned handle is, which db_pq_close closes.
 * 0 and *handle, or -ENOENT (cannot load) or -ENOEXEC (a function is missing) with the
 * reason in err. */
int db_pq_load(const char *name, struct db_pq *out, void **handle, char *err,
	       size_t errlen);
void db_pq_close(void *handle);
#endif

#endif
