# battery: one comparison of several battery runs (one per machine or OS): each run is a
# configuration named by its label, --baseline takes that label, the summary line names
# both; two runs sharing a label are told apart by what the user called them.
. tests/cli/lib
mkdir "$T/w" "$T/a" "$T/b" || exit 1
for l in a b; do
	expect_exit 0 "$IOB" battery -d "$T/w" --size 4m --no-store --quiet --format json \
		--output-dir "$T/$l" --label "os-$l"
done
expect_exit 0 "$IOB" report --no-store -o "$T/r.html" --baseline os-b \
	"$T/a/iobattery-results.json" "$T/b/iobattery-results.json"
grep -q 'Comparison of configurations' "$T/r.html" || fail "no comparison section"
grep -q 'Baseline: os-b\.' "$T/r.html" || fail "the baseline is not the run labelled os-b"
grep -Eq 'os-[ab] leads in [0-9]+ of [0-9]+ figures, [0-9]+ significantly; os-[ab] leads' \
	"$T/r.html" || fail "the summary does not name both runs by their labels"
grep -q 'loop device over a file' "$T/r.html" &&
	fail "runs on the target's own file system said to be on loop devices"
expect_exit 2 "$IOB" report --no-store -o "$T/r2.html" --baseline os-c \
	"$T/a/iobattery-results.json" "$T/b/iobattery-results.json"
expect_out "--baseline names no configuration or run: 'os-c'"
# the same label twice: the operands name the runs
expect_exit 0 "$IOB" report --no-store -o "$T/r3.html" \
	"$T/a/iobattery-results.json" "$T/a/iobattery-results.json"
grep -q "Baseline: $T/a/iobattery-results.json\." "$T/r3.html" ||
	fail "two runs of one label are not told apart by their operands"
no_scratch "$T/w"
exit 0
