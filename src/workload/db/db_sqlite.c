/* db_sqlite.c - the SQLite engine of the db workload: one database file on the target,
 * PRAGMAs from the options, statements run with sqlite3_prepare_v2/step, counts from
 * sqlite3_total_changes64 (INSERT/UPDATE/DELETE), rows stepped (SELECT) or a count(*)
 * of the new table (CREATE TABLE AS, which SQLite does not count as changes).
 * PostgreSQL-only statements of the seed are mapped: VACUUM ANALYZE runs ANALYZE then
 * VACUUM, VACUUM FULL runs VACUUM. Tags are spelled as psql prints them. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/sqlite_dl.h"

#include "core/clock.h"
#include "core/progress.h"
#include "fs/scratch.h"
#include "workload/db/db.h"

struct sq {
	sqlite3 *db;
	char *path;
};

/* The n-th word (0-based) of sql in upper case into buf ("" when there is none). Words
 * are runs of letters, digits and '_'; anything else separates them. */
static const char *word_at(const char *sql, int n, char *buf, size_t len)
{
	const char *p = sql;
	size_t k;

	for (;;) {
		while (*p && !(isalnum((unsigned char)*p) || *p == '_'))
			p++;
		if (!*p || n-- == 0)
			break;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
	}
	for (k = 0; k + 1 < len && (isalnum((unsigned char)*p) || *p == '_'); k++, p++)
		buf[k] = (char)toupper((unsigned char)*p);
	buf[k] = '\0';
	return buf;
}

static int sq_interrupt(void *arg)
{
	(void)arg;
	return sig_stop_requested() != 0;
}

static int sq_fail(struct sq *s, int rc, const char *what, char *err, size_t errlen)
{
	if (rc == SQLITE_INTERRUPT && sig_stop_requested()) {
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	snprintf(err, errlen, "%s%s%s", what, *what ? ": " : "", sqlite3_errmsg(s->db));
	return rc == SQLITE_FULL ? -ENOSPC : -EIO;
}

/* Run every statement in text; *rows counts result rows stepped. */
static int sq_run_text(struct sq *s, const char *text, int64_t *rows, char *err, size_t errlen)
{
	const char *p = text, *tail;
	sqlite3_stmt *st;
	int rc;

	*rows = 0;
	while (*p) {
		rc = sqlite3_prepare_v2(s->db, p, -1, &st, &tail);
		if (rc != SQLITE_OK)
			return sq_fail(s, rc, "", err, errlen);
		if (!st)
			break;		/* only blanks or comments were left */
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			(*rows)++;
		if (rc != SQLITE_DONE) {
			rc = sq_fail(s, rc, "", err, errlen);
			sqlite3_finalize(st);
			return rc;
		}
		rc = sqlite3_finalize(st);
		if (rc != SQLITE_OK)
			return sq_fail(s, rc, "", err, errlen);
		p = tail;
	}
	return 0;
}

/* Start of the n-th word (0-based) of sql, or the end of the string. */
static const char *word_ptr(const char *sql, int n)
{
	const char *p = sql;

	for (;;) {
		while (*p && !(isalnum((unsigned char)*p) || *p == '_'))
			p++;
		if (!*p || n-- == 0)
			return p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
	}
}

/* CREATE [TEMP] TABLE [IF NOT EXISTS] name AS ...: 1 and the name (as written) in buf. */
static int ctas_table(const char *sql, char *buf, size_t len)
{
	char w[32];
	int i = 2;
	const char *p;
	size_t k = 0;

	if (strcmp(word_at(sql, 0, w, sizeof(w)), "CREATE"))
		return 0;
	if (!strcmp(word_at(sql, 1, w, sizeof(w)), "TEMP") || !strcmp(w, "TEMPORARY"))
		i = 3;
	if (strcmp(word_at(sql, i - 1, w, sizeof(w)), "TABLE"))
		return 0;
	if (!strcmp(word_at(sql, i, w, sizeof(w)), "IF"))
		i += 3;
	p = word_ptr(sql, i);
	if (p > sql && p[-1] == '"')
		p--;
	while (*p && !isspace((unsigned char)*p) && *p != '(' && k + 1 < len)
		buf[k++] = *p++;
	buf[k] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	return k > 0 && (p[0] == 'A' || p[0] == 'a') && (p[1] == 'S' || p[1] == 's') &&
	       !(isalnum((unsigned char)p[2]) || p[2] == '_');
}

static int sq_count_table(struct sq *s, const char *table, int64_t *n, char *err, size_t errlen)
{
	char q[300];
	sqlite3_stmt *st;
	int rc;

	snprintf(q, sizeof(q), "SELECT count(*) FROM %s", table);
	rc = sqlite3_prepare_v2(s->db, q, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sq_fail(s, rc, "", err, errlen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sq_fail(s, rc, "", err, errlen);
}

/* psql's tag for a statement whose first words are w0 w1 (and count n). */
static void sq_tag(const char *sql, int64_t n, struct db_result *res)
{
	char w0[32], w1[32];

	word_at(sql, 0, w0, sizeof(w0));
	word_at(sql, 1, w1, sizeof(w1));
	res->count = n;
	if (!strcmp(w0, "INSERT") || !strcmp(w0, "REPLACE")) {
		snprintf(res->tag, sizeof(res->tag), "INSERT 0 %lld", (long long)n);
	} else if (!strcmp(w0, "DELETE") || !strcmp(w0, "UPDATE") || !strcmp(w0, "SELECT") ||
		   !strcmp(w0, "WITH") || !strcmp(w0, "VALUES")) {
		snprintf(res->tag, sizeof(res->tag), "%s %lld",
			 !strcmp(w0, "WITH") || !strcmp(w0, "VALUES") ? "SELECT" : w0,
			 (long long)n);
	} else if (!strcmp(w0, "CREATE") && n >= 0) {
		snprintf(res->tag, sizeof(res->tag), "SELECT %lld", (long long)n);
	} else if (!strcmp(w0, "CREATE") || !strcmp(w0, "DROP") || !strcmp(w0, "ALTER")) {
		if (!strcmp(w1, "UNIQUE") || !strcmp(w1, "TEMP") || !strcmp(w1, "TEMPORARY") ||
		    !strcmp(w1, "VIRTUAL"))
			word_at(sql, 2, w1, sizeof(w1));
		snprintf(res->tag, sizeof(res->tag), "%s %s", w0, w1);
		res->count = -1;
	} else {
		if (!strcmp(w0, "END"))
			strcpy(w0, "COMMIT");
		snprintf(res->tag, sizeof(res->tag), "%s", w0);
		res->count = -1;
	}
}

static int sq_exec(struct db_conn *c, const char *sql, struct db_result *res,
		   char *err, size_t errlen)
{
	struct sq *s = c->h;
	char w0[32], w1[32], table[256];
	int64_t before, rows = 0, n = -1;
	int rc;

	res->count_table[0] = '\0';
	word_at(sql, 0, w0, sizeof(w0));
	word_at(sql, 1, w1, sizeof(w1));
	if (!strcmp(w0, "VACUUM")) {
		/* PostgreSQL's VACUUM [FULL] [ANALYZE]: SQLite has one VACUUM (a full
		 * rewrite) and a separate ANALYZE */
		if (!strcmp(w1, "ANALYZE") || strstr(sql, "ANALYZE") || strstr(sql, "analyze")) {
			rc = sq_run_text(s, "ANALYZE", &rows, err, errlen);
			if (rc < 0)
				return rc;
		}
		rc = sq_run_text(s, "VACUUM", &rows, err, errlen);
		if (rc < 0)
			return rc;
		snprintf(res->tag, sizeof(res->tag), "VACUUM");
		res->count = -1;
		return 0;
	}
	before = sqlite3_total_changes64(s->db);
	rc = sq_run_text(s, sql, &rows, err, errlen);
	if (rc < 0)
		return rc;
	if (!strcmp(w0, "INSERT") || !strcmp(w0, "REPLACE") || !strcmp(w0, "UPDATE") ||
	    !strcmp(w0, "DELETE")) {
		n = sqlite3_total_changes64(s->db) - before;
	} else if (!strcmp(w0, "SELECT") || !strcmp(w0, "WITH") || !strcmp(w0, "VALUES")) {
		n = rows;
	} else if (ctas_table(sql, table, sizeof(table))) {
		/* counted by sq_finish, after the statement's time was taken */
		snprintf(res->count_table, sizeof(res->count_table), "%s", table);
		snprintf(res->tag, sizeof(res->tag), "SELECT");
		res->count = -1;
		return 0;
	}
	sq_tag(sql, n, res);
	return 0;
}

static int sq_finish(struct db_conn *c, struct db_result *res, char *err, size_t errlen)
{
	int64_t n = 0;
	int rc;

	if (!res->count_table[0])
		return 0;
	rc = sq_count_table(c->h, res->count_table, &n, err, errlen);
	if (rc < 0)
		return rc;
	res->count = n;
	snprintf(res->tag, sizeof(res->tag), "SELECT %lld", (long long)n);
	return 0;
}

/* The seeds' build_data(): rows single-row inserts in one transaction, every row with
 * the transaction's time (as 'now' in PostgreSQL), 'test string' and i = 1..rows. */
static int sq_build(struct db_conn *c, uint64_t rows, struct db_result *res,
		    char *err, size_t errlen)
{
	struct sq *s = c->h;
	sqlite3_stmt *st = NULL;
	char now[32];
	struct tm tm;
	time_t t = time(NULL);
	int64_t before, dummy;
	uint64_t i;
	int rc;

	strftime(now, sizeof(now), "%Y-%m-%d %H:%M:%S", gmtime_r(&t, &tm));
	rc = sq_run_text(s, "BEGIN", &dummy, err, errlen);
	if (rc < 0)
		return rc;
	before = sqlite3_total_changes64(s->db);
	rc = sqlite3_prepare_v2(s->db, c->build_sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, "test string", -1, SQLITE_STATIC);
	for (i = 1; rc == SQLITE_OK && i <= rows; i++) {
		if (!(i & 4095)) {
			if (sig_stop_requested()) {
				rc = SQLITE_INTERRUPT;
				break;
			}
			if (c->prog)
				progress_tick(c->prog, i, clock_ns());
		}
		rc = sqlite3_bind_int64(st, 3, (sqlite3_int64)i);
		if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_DONE)
			rc = sqlite3_reset(st);
	}
	if (rc != SQLITE_OK) {
		rc = sq_fail(s, rc, "", err, errlen);
		sqlite3_finalize(st);
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	sqlite3_finalize(st);
	rc = sq_run_text(s, "COMMIT", &dummy, err, errlen);
	if (rc < 0)
		return rc;
	res->count = sqlite3_total_changes64(s->db) - before;
	snprintf(res->tag, sizeof(res->tag), "INSERT 0 %lld", (long long)res->count);
	return 0;
}

static const char *const sq_sfx[] = { "", "-journal", "-wal", "-shm" };

int db_sqlite_remove(const char *path)
{
	char p[4096];
	size_t k;
	int rc = 0;

	for (k = 0; k < sizeof(sq_sfx) / sizeof(sq_sfx[0]); k++) {
		snprintf(p, sizeof(p), "%s%s", path, sq_sfx[k]);
		if (unlink(p) && errno != ENOENT && !rc)
			rc = -errno;
	}
	return rc;
}

static int sq_size(struct db_conn *c, uint64_t *bytes)
{
	const char *const *sfx = sq_sfx;
	struct sq *s = c->h;
	char p[4096];
	struct stat st;
	size_t k;

	*bytes = 0;
	for (k = 0; k < sizeof(sq_sfx) / sizeof(sq_sfx[0]); k++) {
		snprintf(p, sizeof(p), "%s%s", s->path, sfx[k]);
		if (lstat(p, &st) == 0)
			*bytes += (uint64_t)st.st_blocks * 512u;
		else if (errno != ENOENT)
			return -errno;
	}
	return 0;
}

static void sq_close(struct db_conn *c)
{
	struct sq *s = c->h;

	if (!s)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
	c->h = NULL;
}

static int sq_pragmas(struct sq *s, const struct db_sqlite_opts *o, char *err, size_t errlen)
{
	char q[256];
	int64_t rows;
	int rc;

	snprintf(q, sizeof(q), "PRAGMA page_size = %u; PRAGMA cache_size = %ld; "
		 "PRAGMA journal_mode = %s; PRAGMA synchronous = %s",
		 o->page_size, o->cache_size, o->journal_mode, o->synchronous);
	rc = sq_run_text(s, q, &rows, err, errlen);
	if (rc < 0)
		return rc;
	return 0;
}

int db_sqlite_open(struct db_conn *c, const char *path, const struct db_sqlite_opts *o,
		   char *err, size_t errlen)
{
	struct sq *s;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!sqlite_dl_load(err, errlen))
		return -ENOENT;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return -ENOMEM;
	}
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s", s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sqlite3_close(s->db);
		free(s->path);
		free(s);
		return -EIO;
	}
	sqlite3_progress_handler(s->db, 10000, sq_interrupt, NULL);
	c->engine = "sqlite";
	c->h = s;
	c->exec = sq_exec;
	c->finish = sq_finish;
	c->build = sq_build;
	c->size = sq_size;
	c->close = sq_close;
	c->build_sql = "INSERT INTO test1 VALUES (?1, ?2, ?3)";
	rc = sq_pragmas(s, o, err, errlen);
	if (rc < 0)
		sq_close(c);
	return rc;
}
