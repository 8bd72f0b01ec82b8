# import: the store only by default (no file in the current directory), result files only
# with -o DIR; a line per run and a summary; a time record after a psql makes a db run
# with the script's total time and the command tags, after a dd (also two records-only
# dd's run in parallel) a dd run with time's real, user and sys: no separate time runs.
. tests/cli/lib
D=$(pwd)/tests/data
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
command -v jq > /dev/null 2>&1 || skip "jq is not installed"
mkdir "$T/cwd" "$T/res" || exit 1
cd "$T/cwd" || exit 1

expect_exit 0 "$IOB" import --verbose "$D/psql-dd-paste.txt" "$D/bonnie-103.csv" "$D/time-bash.txt" \
	"$D/dd-time-bsd.txt"
[ -z "$(ls -A)" ] || fail "import wrote into the current directory: $(ls -A)"
[ "$(grep -c '^imported: ' "$T/out")" -eq 16 ] || fail "a line per run expected"
expect_out "imported: db from $D/psql-dd-paste.txt:4, store id 1"
expect_out "import: 16 runs read from 4 files (12 lines skipped): 16 saved in the store, 0 already there (store ids 1-16)"

"$IOB" results list > "$T/list" 2>&1 || fail "results list"
# the one time run left is the `time cp` (no dd, no psql before it)
[ "$(grep -c ' time ' "$T/list")" -eq 1 ] || fail "separate time runs: $(grep ' time ' "$T/list")"
"$IOB" results export 13 --format json | grep -q '"command_line": "time cp tstfile tstfile2"' ||
	fail "the time run is not the cp"
[ "$(grep -c ' db ' "$T/list")" -eq 3 ] || fail "three db runs expected"

# the first psql: BSD time after the command tags
"$IOB" results export 1 --format json > "$T/db.json" || fail "export"
q() { jq -r "$1" "$T/db.json"; }
[ "$(q .workload)" = db ] || fail "workload $(q .workload)"
[ "$(q '.rows | length')" = 1 ] || fail "one row expected"
[ "$(q '.rows[0].phase')" = script_total ] || fail "phase $(q '.rows[0].phase')"
[ "$(q '.rows[0].elapsed_ns')" = 304000000000 ] || fail "elapsed $(q '.rows[0].elapsed_ns')"
[ "$(q '.rows[0].params.statements')" = 16 ] || fail "statements"
q '.rows[0].params.tags' | grep -q '^CREATE TABLE; SELECT; INSERT 0 500000; DELETE 500000;' ||
	fail "tags: $(q '.rows[0].params.tags')"
[ "$(q '.rows[0].params.script')" = ptst.sql ] || fail "script"
[ "$(q '.command_line')" = "time psql -d perftst -f ptst.sql" ] || fail "command line"
expect_exit 0 "$IOB" results show 1
expect_out "script total (time psql -f): real 304.000 s"
expect_out "UPDATE 92308"
# bash's time after a bash prompt; a query's result tables count as statements
"$IOB" results export 2 --format json > "$T/db.json" || fail "export"
[ "$(q '.rows[0].cpu.user_s')" = 0.008 ] || fail "user $(q '.rows[0].cpu')"
[ "$(q '.rows[0].elapsed_ns')" = 1495547000000 ] || fail "bash time real"
"$IOB" results export 3 --format json > "$T/db.json" || fail "export"
[ "$(q '.rows[0].params.tags')" = "SELECT 2; SELECT 0" ] || fail "tags $(q '.rows[0].params')"

# two dd's in parallel, each with its records and its time record
"$IOB" results export 4 --format json > "$T/dd.json" || fail "export"
[ "$(jq -r '.rows[0].workload' "$T/dd.json")" = dd ] || fail "dd run"
[ "$(jq -r '.rows[0].bytes' "$T/dd.json")" = 16384000000 ] || fail "dd bytes"
[ "$(jq -r '.rows[0].cpu.sys_s' "$T/dd.json")" = 30.008 ] || fail "dd sys"
"$IOB" results export 5 --format json > "$T/dd.json" || fail "export"
[ "$(jq -r '.rows[0].cpu.sys_s' "$T/dd.json")" = 30.675 ] || fail "second dd sys"

# again: nothing new; -o DIR writes the files there, still nothing here
expect_exit 0 "$IOB" import --verbose -o "$T/res" "$D/psql-dd-paste.txt"
expect_out "import: 5 runs read from 1 file (5 lines skipped): 0 saved in the store, 5 already there (store ids 1-5); 5 result files written in $T/res, 0 already there"
set -- "$T"/res/iobattery-import-*.json
[ $# -eq 5 ] || fail "five result files expected in -o DIR, got $#"
[ -z "$(ls -A)" ] || fail "import -o wrote into the current directory"
# --no-store without -o keeps nothing, and says so
expect_exit 0 "$IOB" import --verbose --no-store "$D/psql-dd-paste.txt"
expect_out "nothing was kept"
[ -z "$(ls -A)" ] || fail "import --no-store wrote into the current directory"
exit 0
