# bonnie -q (the CSV line on stdout, the table on stderr) saves its run in the results
# store like every other measuring command, with or without --output-dir; --no-store
# keeps it out. The store is the one tests/run points $IOBATTERY_DB at.
. tests/cli/lib
: "${IOBATTERY_DB:?IOBATTERY_DB must name the tests' results store}"
mkdir "$T/d" "$T/o" || exit 1
tag="bonnie-q-$$"

# run_q ARGS...: a small bonnie -q that must succeed and print its CSV line
run_q() {
	"$IOB" bonnie -d "$T/d" -s 4 -r 2 -n 1 -f1 -z 1 -q --quiet "$@" > "$T/csv" 2> "$T/err" ||
		fail "bonnie -q $*: $(cat "$T/err")"
	grep -q '^1\.98,2\.00a,' "$T/csv" || fail "bonnie -q $*: no CSV line on stdout"
}
# stored LABEL: the store lists a bonnie run of 12 rows with that label
stored() {
	"$IOB" results list --label "$1" > "$T/list" 2>&1
	grep -Eq "bonnie +12 .* $1\$" "$T/list"
}

run_q --label "$tag-plain"
grep -q '^seq_create ' "$T/err" || fail "bonnie -q: no table on stderr"
stored "$tag-plain" || { cat "$T/list" >&2; fail "bonnie -q did not save its run"; }

run_q --label "$tag-dir" --output-dir "$T/o" --format json
stored "$tag-dir" || { cat "$T/list" >&2; fail "bonnie -q --output-dir did not save its run"; }
[ -s "$T/o/iobattery-results.json" ] || fail "bonnie -q --output-dir wrote no JSON file"

run_q --label "$tag-none" --no-store
stored "$tag-none" && fail "bonnie -q --no-store saved its run"
[ -z "$(ls "$T/d")" ] || fail "files left behind: $(ls "$T/d")"
exit 0
