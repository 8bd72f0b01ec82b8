# db --pg CONNINFO: an existing server (started here by hand, as a user would have one)
# gets the seed script; its version and data directory are recorded; the tables and the
# function the build made are dropped afterwards; the server keeps running untouched.
. tests/cli/lib
cd "$T" || exit 1
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/pg_ctl" ] || skip "postgresql not installed"
chmod 755 "$T"
as_pg() { "$@"; }
if is_root; then
	id postgres >/dev/null 2>&1 || skip "no postgres user"
	command -v setpriv >/dev/null || skip "setpriv missing"
	as_pg() { setpriv --reuid postgres --regid postgres --clear-groups "$@"; }
	mkdir "$T/pg" && chown postgres:postgres "$T/pg"
else
	mkdir "$T/pg"
fi
port=$(( 40000 + $$ % 10000 ))
as_pg "$bin/initdb" -D "$T/pg/data" -U iob -A trust --no-sync > "$T/initdb.log" 2>&1 ||
	{ cat "$T/initdb.log"; fail "initdb"; }
as_pg "$bin/pg_ctl" -D "$T/pg/data" -l "$T/pg/log" -w -o "-k $T/pg -p $port -c listen_addresses=" \
	start > /dev/null 2>&1 || fail "pg_ctl start"
cleanup_hooks='as_pg "$bin/pg_ctl" -D "$T/pg/data" -m immediate stop >/dev/null 2>&1'
ci="host=$T/pg port=$port user=iob dbname=postgres"

expect_exit 0 "$IOB" db --rows 5000 --pg "$ci"
expect_out "stmt04  DELETE 2500"
expect_out "stmt10  DELETE 185"
expect_out "data directory $T/pg/data"
expect_out "postgresql 1"
# a password in the connection string is not kept in the results
expect_exit 0 "$IOB" db --rows 100 --format json --pg "$ci password=hunter2"
grep -q hunter2 "$T/out" && fail "the password is in the results"
expect_out '"pg": "host='
# the build's table and function are gone; a second run works
expect_exit 0 "$IOB" db --rows 100 --pg "$ci"
expect_out "stmt04  DELETE 50"
# a table of the user's named test1 is not dropped: the build refuses
printf 'CREATE TABLE test1 (x int);\nINSERT INTO test1 VALUES (7);\n' > "$T/mine.sql"
expect_exit 0 "$IOB" db --no-build --script "$T/mine.sql" --pg "$ci"
expect_exit 1 "$IOB" db --rows 100 --pg "$ci"
expect_out 'relation "test1" already exists'
expect_exit 0 "$IOB" db --no-build --script /dev/stdin --pg "$ci" <<'SQL'
SELECT * FROM test1 WHERE x = 7;
SQL
expect_out "stmt01  SELECT 1"
as_pg "$bin/pg_ctl" -D "$T/pg/data" status > /dev/null || fail "the server stopped"
exit 0
