# db on SQLite: the seed script at 100,000 rows gives the counts the script implies, as
# psql would tag them; the build is its own row; JSON carries the tags; nothing is left.
. tests/cli/lib
cd "$T" || exit 1

expect_exit 0 "$IOB" db --rows 100000 "$T"
for want in "build   INSERT 0 100000" \
	"stmt01  CREATE TABLE" "stmt02  SELECT 100000" "stmt03  INSERT 0 50000" \
	"stmt04  DELETE 50000" "stmt05  DELETE 3846" "stmt06  SELECT 50000" \
	"stmt07  UPDATE 9231" "stmt08  DROP TABLE" "stmt09  SELECT 100000" \
	"stmt10  DELETE 3703" "stmt11  VACUUM" "stmt12  VACUUM" "stmt13  DROP TABLE" \
	"stmt16  VACUUM" "script total (time psql -f): real" "database peak size"; do
	expect_out "$want"
done
grep -q '^stmt17' "$T/out" && fail "more statements than the seed script has"
no_scratch "$T"
[ -z "$(ls "$T" | grep -v '^out$')" ] || fail "files left behind: $(ls "$T")"

# JSON: one row per statement with the tag as a param, a build and a total row
expect_exit 0 "$IOB" db --rows 2000 --format json --journal-mode wal --synchronous normal "$T"
expect_out '"tag": "DELETE 1000"'
expect_out '"tag": "INSERT 0 2000"'
expect_out '"phase": "script_total"'
expect_out '"db_peak_size"'
expect_out '"journal-mode": "wal"'
no_scratch "$T"
exit 0
