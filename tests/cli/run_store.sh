# The quick battery saves its run in the results store like every measuring command,
# with its text table on stdout too (it did only with --format or --output-dir).
. tests/cli/lib
: "${IOBATTERY_DB:?IOBATTERY_DB must name the tests' results store}"
mkdir "$T/q" || exit 1
tag="run-store-$$"
expect_exit 0 "$IOB" run --dir "$T/q" --size 1m --no-json --quiet --label "$tag"
grep -Eq "^bonnie +ran_del " "$T/out" || fail "no quick-battery table on stdout"
"$IOB" results list --label "$tag" > "$T/list" 2>&1
grep -Eq " run +[0-9]+ .* $tag\$" "$T/list" || { cat "$T/list" >&2; fail "run not saved"; }
no_scratch "$T/q"
exit 0
