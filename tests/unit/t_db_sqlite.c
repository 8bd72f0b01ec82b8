/* t_db_sqlite.c - the SQLite engine of the db workload: psql-style tags and counts from
 * the engine, the PostgreSQL statements it maps, errors; and the password redaction. */
#include <string.h>

#include "test.h"
#include "workload/db/db.h"

static struct db_conn c;

static int run(const char *sql, struct db_result *r)
{
	char err[256];
	int rc;

	memset(r, 0, sizeof(*r));
	rc = c.exec(&c, sql, r, err, sizeof(err));
	if (rc == 0 && c.finish)
		rc = c.finish(&c, r, err, sizeof(err));
	return rc;
}

static void t_tags(void)
{
	struct db_sqlite_opts o = { "memory", "off", 4096, -2000 };
	struct db_result r;
	char err[256];

	CHECK(db_sqlite_open(&c, ":memory:", &o, err, sizeof(err)) == 0);
	CHECK(run("CREATE TABLE test1 (thedate TIMESTAMP, astring VARCHAR(200), "
		  "anumber INTEGER)", &r) == 0);
	CHECK(!strcmp(r.tag, "CREATE TABLE") && r.count == -1);
	CHECK(c.build(&c, 1000, &r, err, sizeof(err)) == 0);
	CHECK(!strcmp(r.tag, "INSERT 0 1000") && r.count == 1000);
	CHECK(run("CREATE TABLE test3 AS SELECT * FROM test1", &r) == 0);
	CHECK(!strcmp(r.tag, "SELECT 1000"));
	CHECK(run("DELETE FROM test3 WHERE ((anumber % 2) = 0)", &r) == 0);
	CHECK(!strcmp(r.tag, "DELETE 500") && r.count == 500);
	CHECK(run("UPDATE test3 SET thedate=datetime('now') WHERE ((anumber % 5) = 0)", &r) == 0);
	CHECK(!strcmp(r.tag, "UPDATE 100"));
	CHECK(run("INSERT INTO test3 SELECT * FROM test1 WHERE anumber <= 3", &r) == 0);
	CHECK(!strcmp(r.tag, "INSERT 0 3"));
	CHECK(run("SELECT * FROM test3 WHERE anumber < 10", &r) == 0);
	CHECK(!strcmp(r.tag, "SELECT 8") && r.count == 8);
	CHECK(run("VACUUM ANALYZE", &r) == 0);
	CHECK(!strcmp(r.tag, "VACUUM"));
	CHECK(run("VACUUM FULL", &r) == 0);
	CHECK(!strcmp(r.tag, "VACUUM"));
	CHECK(run("CREATE UNIQUE INDEX i3 ON test1 (anumber)", &r) == 0);
	CHECK(!strcmp(r.tag, "CREATE INDEX"));
	CHECK(run("DROP TABLE test3", &r) == 0);
	CHECK(!strcmp(r.tag, "DROP TABLE"));
	memset(&r, 0, sizeof(r));
	CHECK(c.exec(&c, "SELEC 1", &r, err, sizeof(err)) < 0);
	CHECK(strstr(err, "syntax error") != NULL);
	c.close(&c);
}

static void t_redact(void)
{
	char a[] = "host=x password=secret dbname=y";
	char b[] = "host=x password='se cret' dbname=y";
	char u[] = "postgresql://me:secret@db.example/x";
	char n[] = "host=x dbname=y";

	db_redact(a);
	db_redact(b);
	db_redact(u);
	db_redact(n);
	db_redact(NULL);
	CHECK(!strcmp(a, "host=x password=*** dbname=y"));
	CHECK(!strcmp(b, "host=x password=*** dbname=y"));
	CHECK(!strcmp(u, "postgresql://me:***@db.example/x"));
	CHECK(!strcmp(n, "host=x dbname=y"));
}

int main(void)
{
	RUN(t_tags);
	RUN(t_redact);
	return test_done();
}
