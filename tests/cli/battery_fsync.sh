# The battery's fsync step end to end (--steps fsync, a budget that plans it at its
# smallest: pg_test_fsync's sixteen tests of a second each): planned, every sync method
# a figure of a second or more and none short, what the system lacks a not-measured row
# with the reason, the verdict row, the plan in the options; the test file gone.
. tests/cli/lib
command -v jq > /dev/null || skip "jq is not installed"
mkdir "$T/w" "$T/o" || exit 1
j="$T/o/iobattery-results.json"
expect_exit 0 "$IOB" battery -d "$T/w" --steps fsync --budget 30s --no-store --quiet \
	--format json --output-dir "$T/o"
[ "$(jq -r .options.sizing "$j")" = planned ] || fail "the run was not planned"
jq -e '.options.step10 | test("^fsync: expected [0-9.]+ s: ")' "$j" > /dev/null ||
	fail "the fsync step was not planned: $(jq -r .options.step10 "$j")"
jq -e '.options.step1 | test("dd write bs=1k: skipped: not in --steps")' "$j" > /dev/null ||
	fail "another step was not left to --steps"
jq -e '[.rows[] | .workload] | all(. == "fsync")' "$j" > /dev/null ||
	fail "rows of another workload"
for ph in open_datasync_1w fdatasync_1w fsync_1w open_sync_1w fdatasync_2w \
	open_sync_16x1kB open_sync_2x8kB write_fsync_close write_close_fsync write durability; do
	[ "$(jq --arg p $ph '[.rows[] | select(.phase == $p)] | length' "$j")" -eq 1 ] ||
		fail "no single row of $ph"
done
# the measured tests: ops/s over a second or more, never short
n=$(jq '[.rows[] | select(.phase != "durability" and
	((.flags | index("not_measured")) | not))] | length' "$j")
[ "$n" -ge 12 ] || fail "only $n tests measured"
bad=$(jq -r '.rows[] | select(.phase != "durability" and
	((.flags | index("not_measured")) | not))
	| select(.elapsed_ns < 500000000 or (.flags | index("short")) or .rate <= 0
		or .rate_unit != "ops/s" or .ops < 1)
	| "\(.phase) \(.elapsed_ns) \(.flags)"' "$j")
[ -z "$bad" ] || fail "tests short or without a rate: $bad"
# what the system lacks says why, and the verdict names the fastest durable method
jq -e '[.rows[] | select(.flags | index("not_measured"))] | all(.note != null)' "$j" \
	> /dev/null || fail "a method left out without the reason"
jq -e '[.rows[] | select(.phase == "durability")][0].rate > 0' "$j" > /dev/null ||
	fail "no fastest durable method"
no_scratch "$T/w"
[ -z "$(ls "$T/w")" ] || fail "files left: $(ls "$T/w")"
exit 0
