# bonnie -x runs (one CSV line each, mean and 95% CI from 3 runs) and -c copies (each row
# the aggregate, with one figure per copy), at small sizes.
. tests/cli/lib
mkdir "$T/d" || exit 1
"$IOB" bonnie -d "$T/d" -s 16 -r 8 -n 1 -f1 -x 3 -q --quiet > "$T/csv" 2> "$T/err" ||
	fail "bonnie -x 3 failed: $(cat "$T/err")"
[ "$(grep -c '^1\.98,2\.00a,' "$T/csv")" -eq 3 ] || fail "-x 3 did not write 3 CSV lines"
grep -q "3 runs: mean and 95% confidence interval" "$T/err" || fail "no mean/CI table"
grep -q "^seq_create " "$T/err" || fail "no phase lines"

expect_exit 0 "$IOB" bonnie -d "$T/d" -s 16 -r 8 -n 1 -f1 -c 2 --format json --quiet
grep -q '"copy1_rate"' "$T/out" || fail "no per-copy figure for copy 1"
grep -q '"copy2_rate"' "$T/out" || fail "no per-copy figure for copy 2"
grep -q '"concurrency": *"2"' "$T/out" || fail "concurrency not recorded"
[ -z "$(ls "$T/d")" ] || fail "files left behind: $(ls "$T/d")"

# The quick battery runs a small bonnie too.
mkdir "$T/q"
expect_exit 0 "$IOB" run --dir "$T/q" --size 16m --no-json --quiet
grep -Eq "^bonnie +ran_del " "$T/out" || fail "the quick battery ran no bonnie"
no_scratch "$T/q"
exit 0
