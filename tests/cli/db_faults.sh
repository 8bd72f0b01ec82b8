# db faults: bad options, a bad conninfo, a server that refuses, missing PostgreSQL
# binaries, a script with a syntax error, the throwaway server killed mid-run, SIGINT.
# Each: one clear message, a non-zero exit, no scratch directory and no server left.
. tests/cli/lib
cd "$T" || exit 1
chmod 755 "$T"

no_postgres() { # no process of ours still running in a scratch dir under $T
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in
		"$T"/iobattery.*) fail "process left running: $(ps -o args= -p "${p#/proc/}")" ;;
		esac
	done
	no_scratch "$T"
}

expect_exit 2 "$IOB" db --rows 0 "$T"
expect_out "invalid --rows: '0'"
expect_exit 2 "$IOB" db --rows 3000000000 "$T"
expect_out "must be from 1 to 2147483647"
expect_exit 2 "$IOB" db --rows -3 "$T"
expect_out "--rows"
expect_exit 2 "$IOB" db --pg x --pg-local "$T"
expect_out "exclude each other"
expect_exit 2 "$IOB" db --journal-mode bogus "$T"
expect_out "invalid --journal-mode: 'bogus'"
expect_exit 2 "$IOB" db --page-size 1000 "$T"
expect_out "invalid --page-size"
expect_exit 2 "$IOB" db "$T/nonexistent"
expect_out "scratch directory"
[ -z "$(ls "$T" | grep -v '^out$')" ] || fail "something was created: $(ls "$T")"

# a syntax error: the statement's number and the engine's message
printf 'CREATE TABLE a (x int);\nSELEC 1;\nDROP TABLE a;\n' > "$T/bad.sql"
expect_exit 1 "$IOB" db --rows 10 --script "$T/bad.sql" "$T"
expect_out 'statement 2 (line 2): near "SELEC": syntax error'
no_scratch "$T"

"$IOB" db --no-store --pg x 2>&1 | grep -q "without libpq" && skip "built without libpq"

# --pg: an option libpq does not know, and a port where nothing listens
expect_exit 1 "$IOB" db --rows 10 --pg "bogus_option=1"
expect_out 'cannot open the database'
expect_out 'bogus_option'
expect_exit 1 "$IOB" db --rows 10 --pg "host=127.0.0.1 port=1 dbname=x connect_timeout=3"
expect_out 'Connection refused'
[ "$(grep -c . "$T/out")" -eq 1 ] || fail "more than one line for a refused connection"

ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || skip "postgresql not installed"

expect_exit 1 "$IOB" db --pg-local --pg-bindir "$T/nowhere" --rows 10 "$T"
expect_out "postgresql server binaries (initdb, postgres) not found in '$T/nowhere'"
no_postgres

expect_exit 1 "$IOB" db --pg-local --rows 10 --script "$T/bad.sql" "$T"
expect_out 'statement 2 (line 2): syntax error at or near "SELEC"'
no_postgres

# wait_backend: until a backend of this run's perftst database exists (or 60 s). Other
# servers may run on the machine (tests in parallel): a backend is ours when its working
# directory, the data directory, is under $T.
wait_backend() {
	i=0
	while [ $i -lt 600 ]; do
		for p in $(pgrep -f '^postgres: iobattery perftst' 2>/dev/null); do
			case $(readlink "/proc/$p/cwd" 2>/dev/null) in
			"$T"/iobattery.*) return 0 ;;
			esac
		done
		sleep 0.1; i=$((i + 1))
	done
	fail "the run's server never started"
}

# other_servers: a postgres process that is not ours is running (its segments in /dev/shm
# cannot be told from ours)
other_servers() {
	for p in $(pgrep -x postgres 2>/dev/null); do
		case $(readlink "/proc/$p/cwd" 2>/dev/null) in
		"$T"/iobattery.*) ;;
		*) return 0 ;;
		esac
	done
	return 1
}

# the postmaster killed in the middle of the run
touch "$T/marker"
"$IOB" db --pg-local --rows 3000000 "$T" > "$T/kill.out" 2>&1 &
job=$!
wait_backend
sleep 0.5
pm=$(head -n 1 "$T"/iobattery.*/pg/data/postmaster.pid) || fail "no postmaster.pid"
kill -9 "$pm" || fail "the postmaster $pm of postmaster.pid is not running"
wait $job
st=$?
[ $st -eq 1 ] || { cat "$T/kill.out" >&2; fail "exit $st after the server was killed"; }
grep -q "the server exited during the statement\|postgresql failed" "$T/kill.out" ||
	{ cat "$T/kill.out" >&2; fail "no clear message after the server was killed"; }
no_postgres
# its shared memory is gone too (dynamic segments in /dev/shm, the System V one)
if [ -d /dev/shm ] && ! other_servers; then
	left=$(find /dev/shm -maxdepth 1 -name 'PostgreSQL.*' -newer "$T/marker" 2>/dev/null)
	[ -z "$left" ] || fail "shared memory left by the killed server: $left"
fi

# SIGINT on SQLite and on PostgreSQL: exit 130, everything removed
for eng in "" --pg-local; do
	"$IOB" db $eng --rows 3000000 "$T" > "$T/int.out" 2>&1 &
	job=$!
	if [ -n "$eng" ]; then wait_backend; fi
	sleep 1
	kill -INT $job
	wait $job
	st=$?
	[ $st -eq 130 ] || { cat "$T/int.out" >&2; fail "exit $st after SIGINT ($eng)"; }
	grep -q "interrupted" "$T/int.out" || { cat "$T/int.out" >&2; fail "not marked interrupted"; }
	no_postgres
done
exit 0
