# db --pg CONNINFO: an existing server (started here by hand, as a user would have one)
# gets the seed script; its version and data directory are recorded; the tables and the
# function the build made are dropped afterwards; the server keeps running untouched.
. tests/cli/lib
cd "$T" || exit 1
"$IOB" db --no-store --pg x 2>&1 | grep -q "without libpq" && skip "built without libpq"
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
# SIGINT in the middle of the build: exit 130, and the build's objects are still dropped
if command -v psql >/dev/null; then
	"$IOB" db --rows 3000000 --pg "$ci" > "$T/int.out" 2>&1 &
	job=$!
	i=0
	until ps -eo args | grep -q '^postgres: iob postgres .*SELECT'; do
		i=$((i + 1)); [ $i -lt 300 ] || fail "the build never started"; sleep 0.1
	done
	sleep 0.5
	kill -INT $job
	wait $job
	st=$?
	[ $st -eq 130 ] || { cat "$T/int.out" >&2; fail "exit $st after SIGINT"; }
	n=$(psql -X -tA -d "$ci" -c "SELECT count(*) FROM pg_class WHERE relname = 'test1'")
	[ "$n" = 0 ] || fail "test1 left on the server after SIGINT"
	n=$(psql -X -tA -d "$ci" -c "SELECT count(*) FROM pg_proc WHERE proname = 'build_data'")
	[ "$n" = 0 ] || fail "build_data() left on the server after SIGINT"
fi
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
