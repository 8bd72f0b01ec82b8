/* db_pg.c - the PostgreSQL engine of the db workload, through libpq (loaded on the first
 * connection: db_pq.h). A statement is sent with PQsendQuery and waited for with poll(),
 * so that a stop signal cancels it (PQcancel) and a throwaway server that died is
 * noticed. The tag is PQcmdStatus (what psql prints), the count PQcmdTuples. Built only
 * with HAVE_LIBPQ; without it db_pg_open says so. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fs/scratch.h"
#include "workload/db/db.h"


/* Hide a password in a connection string (key=value "password=..." or a URI's
 * "user:password@"), in place. */
void db_redact(char *s)
{
	char *p, *e;

	if (!s)
		return;
	while ((p = strstr(s, "password=")) != NULL) {
		p += 9;
		e = p;
		if (*e == '\'') {
			for (e++; *e && *e != '\''; e++)
				if (*e == '\\' && e[1])
					e++;
			if (*e)
				e++;
		} else {
			while (*e && *e != ' ')
				e++;
		}
		memmove(p + 3, e, strlen(e) + 1);
		memcpy(p, "***", 3);
		s = p + 3;
	}
	p = strstr(s, "://");
	if (p && (e = strchr(p + 3, '@')) != NULL) {
		char *c = memchr(p + 3, ':', (size_t)(e - p - 3));

		if (c && !memchr(p + 3, '/', (size_t)(e - p - 3))) {
			memmove(c + 4, e, strlen(e) + 1);
			memcpy(c, ":***", 4);
		}
	}
}

#ifdef HAVE_LIBPQ
#include "workload/db/db_pq.h"

struct pg {
	const struct db_pq *pq;		/* the loaded libpq */
	PGconn *conn;
	int (*alive)(void *);
	void *arg;
	char *build_sql;
};

/* The seeds' function, with the number of rows as its loop bound. */
static const char pg_build_fmt[] =
	"CREATE FUNCTION build_data() RETURNS integer AS '\n"
	"    DECLARE\n"
	"        i INTEGER DEFAULT 0;\n"
	"        curtime TIMESTAMP;\n"
	"    BEGIN\n"
	"        FOR i IN 1..%llu LOOP\n"
	"            curtime := ''now'';\n"
	"            INSERT INTO test1 VALUES (curtime, ''test string'', i);\n"
	"        END LOOP;\n"
	"        RETURN 1;\n"
	"    END;\n"
	"' LANGUAGE 'plpgsql'";

/* Copy a libpq message on one line: newlines and the blanks after them become one
 * blank, trailing ones go. */
static void pg_msg(char *err, size_t errlen, const char *prefix, const char *m)
{
	size_t n = 0, k;

	snprintf(err, errlen, "%s%s", prefix, m ? m : "unknown error");
	for (k = 0; err[k]; k++) {
		if (err[k] == '\n' || err[k] == '\t') {
			while (err[k + 1] == '\n' || err[k + 1] == '\t' || err[k + 1] == ' ')
				k++;
			if (n && err[n - 1] != ' ')
				err[n++] = ' ';
			continue;
		}
		err[n++] = err[k];
	}
	while (n && err[n - 1] == ' ')
		n--;
	err[n] = '\0';
}

/* The primary message of a failed result ("syntax error at or near ..."), with its
 * position in the statement when the server gives one. */
static void pg_result_msg(const struct db_pq *pq, char *err, size_t errlen,
			  const PGresult *r)
{
	const char *m = pq->result_error_field(r, PG_DIAG_MESSAGE_PRIMARY);
	const char *pos = pq->result_error_field(r, PG_DIAG_STATEMENT_POSITION);
	char buf[1024];

	if (!m) {
		pg_msg(err, errlen, "", pq->result_error_message(r));
		return;
	}
	if (pos)
		snprintf(buf, sizeof(buf), "%s (at character %s)", m, pos);
	else
		snprintf(buf, sizeof(buf), "%s", m);
	pg_msg(err, errlen, "", buf);
}

/* Wait until the query's results are in, cancelling on a stop signal and giving up when
 * the watched server died. 0, -EINTR (cancel sent), -ECONNRESET or -EIO. */
static int pg_wait(struct pg *p, int stop, int *cancelled, char *err, size_t errlen)
{
	int fd = p->pq->socket(p->conn);

	while (p->pq->is_busy(p->conn)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, 100);

		if (r < 0 && errno != EINTR) {
			snprintf(err, errlen, "poll: %s", strerror(errno));
			return -errno;
		}
		if (r > 0 && !p->pq->consume_input(p->conn)) {
			pg_msg(err, errlen, "", p->pq->error_message(p->conn));
			return -EIO;
		}
		if (stop && sig_stop_requested() && !*cancelled) {
			PGcancel *c = p->pq->get_cancel(p->conn);
			char eb[256];

			if (c) {
				p->pq->cancel(c, eb, sizeof(eb));
				p->pq->free_cancel(c);
			}
			*cancelled = 1;
		}
		if (p->alive && !p->alive(p->arg)) {
			int b = p->pq->backend_pid(p->conn);

			/* our throwaway server's backend runs on without its postmaster until
			 * the statement ends: it is ours, and nothing is left running */
			if (b > 0)
				kill((pid_t)b, SIGKILL);
			snprintf(err, errlen, "the server exited during the statement");
			return -ECONNRESET;
		}
	}
	return 0;
}

static int pg_exec(struct db_conn *c, const char *sql, struct db_result *res,
		   char *err, size_t errlen)
{
	struct pg *p = c->h;
	PGresult *r;
	int cancelled = 0, rc = 0, failed = 0;

	res->tag[0] = '\0';
	res->count = -1;
	if (!c->cleaning && sig_stop_requested()) {
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	if (!p->pq->send_query(p->conn, sql)) {
		pg_msg(err, errlen, "", p->pq->error_message(p->conn));
		return -EIO;
	}
	rc = pg_wait(p, !c->cleaning, &cancelled, err, errlen);
	if (rc < 0)
		return rc;
	while ((r = p->pq->get_result(p->conn))) {
		ExecStatusType st = p->pq->result_status(r);

		if (st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE ||
		    st == PGRES_NONFATAL_ERROR) {
			if (!failed)
				pg_result_msg(p->pq, err, errlen, r);
			failed = 1;
		} else if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT) {
			snprintf(err, errlen, "COPY from or to the client is not supported");
			failed = 1;
			p->pq->clear(r);
			break;
		} else {
			const char *t = p->pq->cmd_tuples(r);

			snprintf(res->tag, sizeof(res->tag), "%s", p->pq->cmd_status(r));
			res->count = *t ? strtoll(t, NULL, 10) : -1;
		}
		p->pq->clear(r);
	}
	if (failed && (cancelled || (!c->cleaning && sig_stop_requested()))) {
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	if (!failed && p->pq->status(p->conn) == CONNECTION_BAD) {
		pg_msg(err, errlen, "", p->pq->error_message(p->conn));
		return -EIO;
	}
	return failed ? -EIO : 0;
}

/* One value from a one-row query into buf. 0 or -EIO with the reason in err. */
static int pg_value(struct db_conn *c, const char *sql, char *buf, size_t len,
		    char *err, size_t errlen)
{
	struct pg *p = c->h;
	PGresult *r = p->pq->exec(p->conn, sql);
	int rc = -EIO;

	if (p->pq->result_status(r) == PGRES_TUPLES_OK && p->pq->ntuples(r) == 1) {
		snprintf(buf, len, "%s", p->pq->get_value(r, 0, 0));
		rc = 0;
	} else {
		pg_msg(err, errlen, "", p->pq->result_error_message(r));
	}
	p->pq->clear(r);
	return rc;
}

/* The build function's text for rows (malloc'd) or NULL. */
static char *str_fmt_build(uint64_t rows)
{
	size_t len = sizeof(pg_build_fmt) + 24;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, pg_build_fmt, (unsigned long long)rows);
	return s;
}

static int pg_build(struct db_conn *c, uint64_t rows, struct db_result *res,
		    char *err, size_t errlen)
{
	struct pg *p = c->h;
	struct db_result r1;
	int rc;

	free(p->build_sql);
	p->build_sql = str_fmt_build(rows);
	if (!p->build_sql)
		return -ENOMEM;
	c->build_sql = p->build_sql;
	rc = pg_exec(c, p->build_sql, &r1, err, errlen);
	if (rc == 0)
		c->made_fn = 1;
	if (rc == 0)
		rc = pg_exec(c, "SELECT build_data()", res, err, errlen);
	if (rc < 0)
		return rc;
	/* the rows in test1 are counted by pg_finish after the script: a count(*) now
	 * would read (and set hint bits on) the whole table before the timed script, which
	 * psql -f does not do */
	res->count = -1;
	snprintf(res->count_table, sizeof(res->count_table), "test1");
	return 0;
}

static int pg_finish(struct db_conn *c, struct db_result *res, char *err, size_t errlen)
{
	char q[300], v[32];
	int rc;

	if (!res->count_table[0])
		return 0;
	snprintf(q, sizeof(q), "SELECT count(*) FROM %s", res->count_table);
	rc = pg_value(c, q, v, sizeof(v), err, errlen);
	if (rc < 0)
		return rc;
	res->count = strtoll(v, NULL, 10);
	return 0;
}

static int pg_size(struct db_conn *c, uint64_t *bytes)
{
	char v[32], err[256];

	if (pg_value(c, "SELECT pg_database_size(current_database())", v, sizeof(v),
		     err, sizeof(err)) < 0)
		return -EIO;
	*bytes = strtoull(v, NULL, 10);
	return 0;
}

static void pg_close(struct db_conn *c)
{
	struct pg *p = c->h;

	if (!p)
		return;
	p->pq->finish(p->conn);
	free(p->build_sql);
	free(p);
	c->h = NULL;
}

int db_pg_open(struct db_conn *c, const char *conninfo, int (*alive)(void *), void *arg,
	       struct db_pg_info *info, char *err, size_t errlen)
{
	const struct db_pq *pq;
	struct pg *p;
	char e2[256];

	memset(c, 0, sizeof(*c));
	pq = db_pq_get(err, errlen);
	if (!pq)
		return -ENOENT;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->pq = pq;
	p->conn = pq->connectdb(conninfo);
	if (!p->conn || pq->status(p->conn) != CONNECTION_OK) {
		pg_msg(err, errlen, "", p->conn ? pq->error_message(p->conn) : "out of memory");
		pq->finish(p->conn);
		free(p);
		return -ECONNREFUSED;
	}
	p->alive = alive;
	p->arg = arg;
	c->engine = "postgresql";
	c->h = p;
	c->exec = pg_exec;
	c->finish = pg_finish;
	c->build = pg_build;
	c->size = pg_size;
	c->close = pg_close;
	c->build_sql = pg_build_fmt;
	if (info) {
		if (pg_value(c, "SHOW server_version", info->version, sizeof(info->version),
			     e2, sizeof(e2)) < 0)
			info->version[0] = '\0';
		if (pg_value(c, "SHOW data_directory", info->data_directory,
			     sizeof(info->data_directory), e2, sizeof(e2)) < 0)
			info->data_directory[0] = '\0';
	}
	return 0;
}

int db_pg_oneshot(const char *conninfo, const char *sql, char *err, size_t errlen)
{
	const struct db_pq *pq = db_pq_get(err, errlen);
	PGconn *conn;
	PGresult *r;
	int rc = 0;

	if (!pq)
		return -ENOENT;
	conn = pq->connectdb(conninfo);
	if (!conn || pq->status(conn) != CONNECTION_OK) {
		pg_msg(err, errlen, "", conn ? pq->error_message(conn) : "out of memory");
		pq->finish(conn);
		return -ECONNREFUSED;
	}
	r = pq->exec(conn, sql);
	if (pq->result_status(r) != PGRES_COMMAND_OK &&
	    pq->result_status(r) != PGRES_TUPLES_OK) {
		pg_msg(err, errlen, "", pq->result_error_message(r));
		rc = -EIO;
	}
	pq->clear(r);
	pq->finish(conn);
	return rc;
}

#else /* !HAVE_LIBPQ */

int db_pg_open(struct db_conn *c, const char *conninfo, int (*alive)(void *), void *arg,
	       struct db_pg_info *info, char *err, size_t errlen)
{
	(void)c; (void)conninfo; (void)alive; (void)arg; (void)info;
	snprintf(err, errlen, "this iobattery was built without libpq");
	return -ENOTSUP;
}

int db_pg_oneshot(const char *conninfo, const char *sql, char *err, size_t errlen)
{
	(void)conninfo; (void)sql;
	snprintf(err, errlen, "this iobattery was built without libpq");
	return -ENOTSUP;
}

#endif
