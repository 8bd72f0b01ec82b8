# --repeat N: the text ends with mean, sd, CV and 95% CI per figure; the run lands in the
# store (unless --no-store) and compare/report read it back by id.
. tests/cli/lib
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
cd "$T" || exit 1
"$IOB" dd if=/dev/zero of=src bs=64k count=32 --quiet --no-store > /dev/null || fail "dd"
[ -e "$IOBATTERY_DB" ] && fail "--no-store wrote the store"
expect_exit 0 "$IOB" cp --repeat 3 --method rw src dst
expect_out "repeats: mean, standard deviation, CV and 95% confidence interval"
expect_out "cp copy rw"
grep -E 'cp copy rw +[0-9.e+]+ MB/s +[0-9.e+]+ +[0-9.]+%  \[' "$T/out" > /dev/null ||
	fail "no mean/sd/CV/CI line"
expect_exit 0 "$IOB" cp --method rw src dst2
expect_exit 0 "$IOB" results show 2
expect_out "single run: no spread, no confidence interval"
expect_exit 0 "$IOB" results list
expect_out "cp"
[ "$(grep -c ' cp ' "$T/out")" -eq 2 ] || fail "two cp runs expected in the store"
expect_exit 0 "$IOB" results show 1
expect_out "cp copy rw"
expect_exit 0 "$IOB" report -o r.html 1 2
expect_out "report: r.html"
grep -q '<svg' r.html || fail "no chart"

# a store that cannot be made (its directory exists): the run still succeeds, the reason
# is printed; a directory that does not exist is refused up front and never made
IOBATTERY_DB=/proc/iobattery-test.db expect_exit 0 "$IOB" cp --method rw src dst3
expect_out "cannot save in the results store"
IOBATTERY_DB=/proc/iobattery-test.db expect_exit 2 "$IOB" import --no-files \
	"$OLDPWD/tests/data/bonnie-103.csv"
expect_out "cannot open the results store"
# a store from a newer iobattery is refused
if command -v sqlite3 > /dev/null 2>&1; then
	sqlite3 "$IOBATTERY_DB" 'PRAGMA user_version = 99' || fail "sqlite3"
	expect_exit 2 "$IOB" results list
	expect_out "newer iobattery"
fi
exit 0
