# db --script: a user's SQL file with quotes, comments and (on PostgreSQL) a dollar-quoted
# function body is split correctly and every statement is timed with its tag.
. tests/cli/lib
cd "$T" || exit 1

cat > "$T/user.sql" <<'SQL'
-- a user's script; semicolons inside strings and comments are not separators
CREATE TABLE notes (id INTEGER, body TEXT);
INSERT INTO notes VALUES (1, 'one; two'), (2, 'it''s; fine'); /* two rows; */
INSERT INTO notes SELECT anumber, 'x' FROM test1 WHERE anumber <= 10;
UPDATE notes SET body = 'y;' WHERE id > 5;
SELECT count(*) FROM notes;
DELETE FROM notes
  WHERE id <= 2;
DROP TABLE notes
SQL
expect_exit 0 "$IOB" db --rows 100 --script "$T/user.sql" "$T"
for want in "stmt01  CREATE TABLE" "stmt02  INSERT 0 2" "stmt03  INSERT 0 10" \
	"stmt04  UPDATE 5" "stmt05  SELECT 1" "stmt06  DELETE 4" "stmt07  DROP TABLE" \
	"script $T/user.sql"; do
	expect_out "$want"
done
grep -q '^stmt08' "$T/out" && fail "too many statements"

# --no-build: the script alone
printf 'CREATE TABLE a (x int);\nINSERT INTO a VALUES (1),(2),(3);\n' > "$T/nb.sql"
expect_exit 0 "$IOB" db --no-build --script "$T/nb.sql" "$T"
expect_out "stmt02  INSERT 0 3"
grep -q '^build' "$T/out" && fail "--no-build ran the build"

# bad scripts are refused before anything is made
printf "SELECT 'open;\n" > "$T/unterminated.sql"
expect_exit 2 "$IOB" db --script "$T/unterminated.sql" "$T"
expect_out "unterminated quoted string starting at line 1"
expect_exit 2 "$IOB" db --script "$T/missing.sql" "$T"
expect_out "cannot open the script"
printf -- '-- nothing\n' > "$T/empty.sql"
expect_exit 2 "$IOB" db --script "$T/empty.sql" "$T"
expect_out "no SQL statement"
no_scratch "$T"

# PostgreSQL: a dollar-quoted function body with ';' inside
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || skip "postgresql not installed"
"$IOB" db --no-store --pg x 2>&1 | grep -q "without libpq" && skip "built without libpq"
chmod 755 "$T"
cat > "$T/pg.sql" <<'SQL'
CREATE FUNCTION twice(n integer) RETURNS integer AS $body$
BEGIN
    RETURN n * 2;   -- a ';' inside the body
END;
$body$ LANGUAGE plpgsql;
CREATE TABLE t AS SELECT twice(anumber) AS v FROM test1;
SELECT * FROM t WHERE v % 4 = 0;
DROP TABLE t;
DROP FUNCTION twice(integer);
SQL
expect_exit 0 "$IOB" db --pg-local --rows 1000 --script "$T/pg.sql" "$T"
for want in "stmt01  CREATE FUNCTION" "stmt02  SELECT 1000" "stmt03  SELECT 500" \
	"stmt04  DROP TABLE" "stmt05  DROP FUNCTION"; do
	expect_out "$want"
done
no_scratch "$T"
exit 0
