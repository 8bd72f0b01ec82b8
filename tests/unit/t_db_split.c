/* t_db_split.c - the SQL statement splitter: quotes, dollar quotes, comments. */
#include <errno.h>
#include <string.h>

#include "test.h"
#include "workload/db/db.h"

static int split(const char *t, struct db_stmt **v)
{
	char err[128];

	return db_split(t, v, err, sizeof(err));
}

static void t_simple(void)
{
	struct db_stmt *v;
	int n = split("CREATE TABLE a (x int);\n\nINSERT INTO a VALUES (1);\nSELECT 1", &v);

	CHECK(n == 3);
	if (n == 3) {
		CHECK(!strcmp(v[0].sql, "CREATE TABLE a (x int)"));
		CHECK(!strcmp(v[1].sql, "INSERT INTO a VALUES (1)"));
		CHECK(!strcmp(v[2].sql, "SELECT 1"));
		CHECK(v[0].line == 1 && v[1].line == 3 && v[2].line == 4);
	}
	db_split_free(v, n);
}

static void t_quotes(void)
{
	struct db_stmt *v;
	int n = split("INSERT INTO a VALUES ('x;y', 'it''s;', \"we;ird\");"
		      "SELECT E'a\\';b';", &v);

	CHECK(n == 2);
	if (n == 2) {
		CHECK(!strcmp(v[0].sql, "INSERT INTO a VALUES ('x;y', 'it''s;', \"we;ird\")"));
		CHECK(!strcmp(v[1].sql, "SELECT E'a\\';b'"));
	}
	db_split_free(v, n);
}

static void t_seed_function(void)
{
	/* the seeds' function: a single-quoted body with '' inside and ';' */
	const char *t = "CREATE FUNCTION build_data() RETURNS integer AS '\n"
			"  DECLARE i INTEGER DEFAULT 0; curtime TIMESTAMP;\n"
			"  BEGIN FOR i IN 1..10 LOOP curtime := ''now'';\n"
			"  INSERT INTO test1 VALUES (curtime, ''test string'', i);\n"
			"  END LOOP; RETURN 1; END;\n' LANGUAGE 'plpgsql';\n"
			"SELECT build_data();\n";
	struct db_stmt *v;
	int n = split(t, &v);

	CHECK(n == 2);
	if (n == 2) {
		CHECK(!strncmp(v[0].sql, "CREATE FUNCTION", 15));
		CHECK(strstr(v[0].sql, "LANGUAGE 'plpgsql'") != NULL);
		CHECK(!strcmp(v[1].sql, "SELECT build_data()"));
		CHECK(v[1].line == 7);
	}
	db_split_free(v, n);
}

static void t_dollar(void)
{
	const char *t = "CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END; $$ "
			"LANGUAGE plpgsql;\n"
			"CREATE FUNCTION g() RETURNS text AS $body$ SELECT '$$;'; $body$ "
			"LANGUAGE sql;\n"
			"SELECT $1, a$b FROM t;";
	struct db_stmt *v;
	int n = split(t, &v);

	CHECK(n == 3);
	if (n == 3) {
		CHECK(strstr(v[0].sql, "END; $$ LANGUAGE plpgsql") != NULL);
		CHECK(strstr(v[1].sql, "$body$ LANGUAGE sql") != NULL);
		CHECK(!strcmp(v[2].sql, "SELECT $1, a$b FROM t"));
	}
	db_split_free(v, n);
}

static void t_comments(void)
{
	const char *t = "-- a comment; with a semicolon\n"
			"/* block; /* nested; */ still; */ SELECT 1; -- trailing;\n"
			";;  \n-- only a comment\n"
			"SELECT 2 /* ; */ + 3 -- x;\n;";
	struct db_stmt *v;
	int n = split(t, &v);

	CHECK(n == 2);
	if (n == 2) {
		CHECK(!strcmp(v[0].sql, "SELECT 1"));
		CHECK(v[0].line == 2);
		CHECK(!strcmp(v[1].sql, "SELECT 2 /* ; */ + 3 -- x;"));
		CHECK(v[1].line == 5);
	}
	db_split_free(v, n);
}

static void t_errors(void)
{
	struct db_stmt *v;
	char err[128];

	CHECK(db_split("SELECT 'abc;", &v, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "quoted string") != NULL);
	CHECK(db_split("SELECT 1;\nSELECT $x$ abc", &v, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "dollar quote") != NULL && strstr(err, "line 2") != NULL);
	CHECK(db_split("SELECT 1 /* abc", &v, err, sizeof(err)) == -EINVAL);
	CHECK(db_split("  -- nothing\n", &v, err, sizeof(err)) == 0);
	db_split_free(v, 0);
}

int main(void)
{
	RUN(t_simple);
	RUN(t_quotes);
	RUN(t_seed_function);
	RUN(t_dollar);
	RUN(t_comments);
	RUN(t_errors);
	return test_done();
}
