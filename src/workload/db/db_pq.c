/* db_pq.c - libpq through dlopen: the library is opened the first time the db workload
 * talks to PostgreSQL, never at start-up. Each function pointer's type is checked against
 * libpq-fe.h's prototype at compile time (an assignment inside sizeof, which is not
 * evaluated and so references no libpq symbol). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "core/dlib.h"
#include "workload/db/db_pq.h"

#ifdef HAVE_LIBPQ

#ifndef IOB_LIBPQ_SONAME
#define IOB_LIBPQ_SONAME "libpq.so.5"
#endif

/* X(field, libpq function) for every member of struct db_pq */
#define DB_PQ_FUNCTIONS(X) \
	X(connectdb, PQconnectdb) X(status, PQstatus) X(error_message, PQerrorMessage) \
	X(finish, PQfinish) X(socket, PQsocket) X(send_query, PQsendQuery) \
	X(is_busy, PQisBusy) X(consume_input, PQconsumeInput) \
	X(get_result, PQgetResult) X(exec, PQexec) X(result_status, PQresultStatus) \
	X(result_error_message, PQresultErrorMessage) \
	X(result_error_field, PQresultErrorField) X(cmd_status, PQcmdStatus) \
	X(cmd_tuples, PQcmdTuples) X(ntuples, PQntuples) X(get_value, PQgetvalue) \
	X(clear, PQclear) X(get_cancel, PQgetCancel) X(cancel, PQcancel) \
	X(free_cancel, PQfreeCancel) X(ping, PQping) X(backend_pid, PQbackendPID)

#define DB_PQ_ENTRY(field, fn) { #fn, offsetof(struct db_pq, field) },
static const struct dlib_sym pq_syms[] = { DB_PQ_FUNCTIONS(DB_PQ_ENTRY) };

/* A compile error (incompatible pointer types) where a member's type is not the one
 * libpq-fe.h declares; nothing is evaluated at run time. */
#define DB_PQ_CHECK(field, fn) (void)sizeof(t->field = fn);
static void pq_typecheck(struct db_pq *t)
{
	DB_PQ_FUNCTIONS(DB_PQ_CHECK)
	(void)t;
}

int db_pq_load(const char *name, struct db_pq *out, void **handle, char *err,
	       size_t errlen)
{
	pq_typecheck(out);
	return dlib_load(name, "libpq (for --pg and --pg-local)", pq_syms,
			 sizeof(pq_syms) / sizeof(pq_syms[0]), out, sizeof(*out), handle, err,
			 errlen);
}

void db_pq_close(void *handle)
{
	dlib_close(handle);
}

const struct db_pq *db_pq_get(char *err, size_t errlen)
{
	static struct db_pq pq;
	static void *handle;
	char e2[512];

	if (handle)
		return &pq;
	/* the soname first (LD_LIBRARY_PATH, the loader's cache), then where configure
	 * found it (a libdir outside the loader's search path) */
	if (db_pq_load(IOB_LIBPQ_SONAME, &pq, &handle, err, errlen) == 0)
		return &pq;
#ifdef IOB_LIBPQ_PATH
	if (strcmp(IOB_LIBPQ_PATH, IOB_LIBPQ_SONAME) != 0 &&
	    db_pq_load(IOB_LIBPQ_PATH, &pq, &handle, e2, sizeof(e2)) == 0)
		return &pq;
#else
	(void)e2;
#endif
	return NULL;
}

#endif
