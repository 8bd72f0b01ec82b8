# results store: a run saved and exported equals the original JSON; list filters, show,
# delete; bad ids, no store, a locked store (exit 2); SIGKILL in the middle of saving
# leaves every stored run whole.
. tests/cli/lib
D=tests/data
IOBATTERY_DB="$T/db/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made
cd "$T" || exit 1
top=$OLDPWD

expect_exit 2 "$IOB" results list
expect_out "nothing has been saved yet"

# a real run's result file: into the store and back out, byte for byte
"$IOB" dd if=/dev/zero of=f bs=64k count=16 --quiet --format json > a.json || fail "dd"
expect_exit 0 "$IOB" import --no-files a.json
expect_out "store id 1"
[ -f "$IOBATTERY_DB" ] || fail "the store was not created at \$IOBATTERY_DB"
"$IOB" results export 1 > a.out || fail "export"
cmp a.json a.out || fail "exported JSON differs from the original"
"$IOB" results export 1 --format csv > a.csv || fail "export csv"
grep -q '^run_id,workload,phase' a.csv || fail "csv header"

expect_exit 0 "$IOB" import --no-files --label other "$top/$D/cmp-a.json" "$top/$D/cmp-b.json"
expect_exit 0 "$IOB" results list --label other
expect_out "alpha"
grep -q "$(hostname)" "$T/out" && [ "$(hostname)" != alpha ] && fail "label filter"
expect_exit 0 "$IOB" results list --host beta
expect_out "beta"
expect_exit 0 "$IOB" results show 2
expect_out "store id 2"
expect_out "repeats: mean"
expect_exit 0 "$IOB" compare 2 3
expect_out "+30.0%"
expect_exit 0 "$IOB" compare other 2
expect_exit 0 "$IOB" results delete 3
expect_out "deleted run 3"
expect_exit 2 "$IOB" results delete 3
expect_out "no run with id 3"
expect_exit 2 "$IOB" results show 999
expect_exit 2 "$IOB" results show no-such-label
expect_exit 2 "$IOB" results frobnicate
expect_exit 2 "$IOB" results export 1 --format xml
expect_exit 2 "$IOB" results
echo "not a database, just text that is long enough to be a header ........" > bad.db
IOBATTERY_DB="$T/bad.db" expect_exit 2 "$IOB" results list

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 shell missing: rest skipped"; exit 0; }
# a store locked by another writer: clear message, exit 2
(echo "BEGIN EXCLUSIVE; INSERT INTO run_options VALUES (1, 'lock', 'x');"; sleep 4;
 echo "ROLLBACK;") | sqlite3 "$IOBATTERY_DB" &
lockpid=$!
sleep 1
expect_exit 2 "$IOB" import --no-files "$top/$D/bonnie-103.csv"
expect_out "locked"
wait $lockpid

# SIGKILL while saving many runs: each stored run keeps all its rows, the file is sound
i=0
while [ $i -lt 1500 ]; do
	echo "host$i,1G,24983,72,49013,14,21798,5,21618,58,52864,6,137.5,0,5,3724,17,+++++,+++,3828,17,2957,14,+++++,+++,2290,10"
	i=$((i + 1))
done > many.csv
"$IOB" import --no-files many.csv > /dev/null 2>&1 &
pid=$!
sleep 0.5
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
[ "$(sqlite3 "$IOBATTERY_DB" 'PRAGMA integrity_check')" = ok ] || fail "store corrupted"
bad=$(sqlite3 "$IOBATTERY_DB" "SELECT count(*) FROM runs WHERE workload = 'bonnie' AND
	(SELECT count(*) FROM rows WHERE rows.run_id = runs.id) != 12")
[ "$bad" = 0 ] || fail "$bad runs stored with missing rows"
n=$(sqlite3 "$IOBATTERY_DB" "SELECT count(*) FROM runs WHERE host LIKE 'host%'")
echo "runs stored before the kill: $n of 1500"
expect_exit 0 "$IOB" results list
exit 0
