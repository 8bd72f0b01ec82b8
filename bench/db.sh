#!/bin/bash
# bench/db.sh - the db workload side by side:
#  1. SQLite against PostgreSQL (--pg-local), per statement, on the same file system;
#  2. `iobattery db --pg-local` against `psql -f` running the same script on a server
#     started the same way (initdb and postgres with the same flags, as the same user),
#     alternating A B A B for ROUNDS rounds; prints the median of the per-round ratios
#     ours/psql of the script's total time (goal: at most 1.02) and CPU time beside it.
#   bench/db.sh [DIR] [ROUNDS] [ROWS]      (defaults: . 3 1000000)
# The build phase is not compared (the seeds timed only the script). Our total is the
# script_total row (first statement sent to last result in, less size sampling); psql's
# is bash's `time` around `psql -X -q -f`, so it includes psql's start and connection.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-.}
rounds=${2:-3}
rows=${3:-1000000}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
bin=$(pg_config --bindir 2>/dev/null)
[ -x "$bin/initdb" ] || bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] && command -v psql >/dev/null ||
	{ echo "bench: postgresql server binaries or psql missing" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
chmod 755 "$work"
cleanup() {
	[ -d "$work/psql/data" ] && as_pg "$bin/pg_ctl" -D "$work/psql/data" -m immediate -w stop \
		> /dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
TIMEFORMAT='%R %U %S'
as_pg() { "$@"; }
if [ "$(id -u)" = 0 ]; then
	as_pg() { setpriv --reuid postgres --regid postgres --clear-groups "$@"; }
fi

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# stmt_times FILE: "stmtNN TAG... seconds" from iobattery's text output
stmt_times() { awk '/^stmt[0-9]/ { for (i = 2; i < NF; i++) if ($(i+1) == "s") { t = $i; break }
	tag = $2; for (j = 3; j < i; j++) tag = tag " " $j; print $1, t, tag }' "$1"; }
total_of() { sed -n 's/^script total (time psql -f): real \([0-9.]*\) s  user \([0-9.]*\) s  sys \([0-9.]*\) s.*/\1 \2 \3/p' "$1"; }

cat > "$work/seed.sql" <<'SQL'
CREATE TABLE test2  (
    thedate TIMESTAMP,
    astring VARCHAR(200),
    anumber INTEGER
);
CREATE TABLE test3 AS SELECT * FROM test1;
INSERT INTO test2 SELECT * FROM test1 WHERE ((anumber % 2) = 0);
DELETE FROM test3 WHERE ((anumber % 2) = 0);
DELETE FROM test3 WHERE ((anumber % 13) = 0);
CREATE TABLE test4 AS
 SELECT test1.thedate AS t1date,
        test2.thedate AS t2date,
        test1.astring AS t1string,
        test2.astring AS t2string,
        test1.anumber AS t1number,
        test2.anumber AS t2number
 FROM test1 JOIN test2 ON test1.anumber=test2.anumber;
UPDATE test3 SET thedate='now' WHERE ((anumber % 5) = 0);
DROP TABLE test4;
CREATE TABLE test4 AS SELECT * FROM test1;
DELETE FROM test4 WHERE ((anumber % 27) = 0);
VACUUM ANALYZE;
VACUUM FULL;
DROP TABLE test4;
DROP TABLE test3;
DROP TABLE test2;
VACUUM FULL;
SQL
cat > "$work/build.sql" <<SQL
CREATE TABLE test1 (thedate TIMESTAMP, astring VARCHAR(200), anumber INTEGER);
CREATE FUNCTION build_data() RETURNS integer AS '
    DECLARE
        i INTEGER DEFAULT 0;
        curtime TIMESTAMP;
    BEGIN
        FOR i IN 1..$rows LOOP
            curtime := ''now'';
            INSERT INTO test1 VALUES (curtime, ''test string'', i);
        END LOOP;
        RETURN 1;
    END;
' LANGUAGE 'plpgsql';
SELECT build_data();
SQL
chmod 644 "$work/seed.sql" "$work/build.sql"

echo "bench: $rows rows, $rounds rounds, in $(df -P "$work" | awk 'NR==2 {print $1 " (" $6 ")"}')"

# 1. SQLite against PostgreSQL, per statement
"$IOB" db --no-store --rows "$rows" "$work" > "$work/sq.txt" 2>&1 || { cat "$work/sq.txt"; exit 1; }
"$IOB" db --no-store --pg-local --rows "$rows" "$work" > "$work/pg.txt" 2>&1 || { cat "$work/pg.txt"; exit 1; }
echo
echo "statement  sqlite_s  postgresql_s  tag (postgresql)"
join <(stmt_times "$work/sq.txt" | awk '{print $1, $2}') <(stmt_times "$work/pg.txt") |
	awk '{ tag = $4; for (i = 5; i <= NF; i++) tag = tag " " $i; printf "%-9s %9.3f %13.3f  %s\n", $1, $2, $3, tag }'
printf "%-9s %9s %13s\n" build "$(awk '/^build/ {for (i=2;i<NF;i++) if ($(i+1)=="s") print $i}' "$work/sq.txt")" \
	"$(awk '/^build/ {for (i=2;i<NF;i++) if ($(i+1)=="s") print $i}' "$work/pg.txt")"
printf "%-9s %9s %13s\n" total "$(total_of "$work/sq.txt" | cut -d' ' -f1)" "$(total_of "$work/pg.txt" | cut -d' ' -f1)"

# 2. iobattery db --pg-local against psql -f on an identically started server
psql_round() {
	local d="$work/psql" port=$(( 50000 + RANDOM % 10000 ))
	mkdir "$d" && { [ "$(id -u)" != 0 ] || chown postgres:postgres "$d"; }
	as_pg "$bin/initdb" -D "$d/data" -U iobattery -A trust -E UTF8 --locale=C --no-sync \
		> "$work/initdb.log" 2>&1 || { cat "$work/initdb.log" >&2; return 1; }
	sync -f "$d/data" 2>/dev/null || sync
	as_pg "$bin/postgres" -D "$d/data" -k "$d" -p "$port" -c listen_addresses= \
		> "$d/log" 2>&1 &
	local pgpid=$!
	for _ in $(seq 600); do "$bin/pg_isready" -q -h "$d" -p "$port" && break; sleep 0.05; done
	local ci="host=$d port=$port user=iobattery"
	psql -X -q -d "$ci dbname=postgres" -c "CREATE DATABASE perftst" > /dev/null || return 1
	psql -X -q -d "$ci dbname=perftst" -f "$work/build.sql" > /dev/null || return 1
	{ time psql -X -q -d "$ci dbname=perftst" -f "$work/seed.sql" > /dev/null; } 2> "$work/psql.time"
	as_pg "$bin/pg_ctl" -D "$d/data" -m fast -w stop > /dev/null; wait "$pgpid"; pgpid=""
	rm -rf "$d"
	cat "$work/psql.time"
}
ratios=() ; ocpu=() ; pcpu=()
echo
echo "round  iobattery_s  psql_s  ratio  iobattery_cpu_s  psql_cpu_s"
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then
		"$IOB" db --no-store --pg-local --rows "$rows" "$work" > "$work/o.txt" 2>&1 || { cat "$work/o.txt"; exit 1; }
		p=$(psql_round) || exit 1
	else
		p=$(psql_round) || exit 1
		"$IOB" db --no-store --pg-local --rows "$rows" "$work" > "$work/o.txt" 2>&1 || { cat "$work/o.txt"; exit 1; }
	fi
	read -r ot ou os <<< "$(total_of "$work/o.txt")"
	read -r pt pu ps <<< "$p"
	ratio=$(awk -v a="$ot" -v b="$pt" 'BEGIN {print a / b}')
	ratios+=("$ratio")
	printf "%5d %12.3f %7.3f %6.3f %16.3f %11.3f\n" "$r" "$ot" "$pt" "$ratio" \
		"$(awk -v a="$ou" -v b="$os" 'BEGIN {print a + b}')" "$(awk -v a="$pu" -v b="$ps" 'BEGIN {print a + b}')"
done
echo "median ratio iobattery/psql total time: $(printf '%s\n' "${ratios[@]}" | median) (goal <= 1.02)"
