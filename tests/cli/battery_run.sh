# The battery end to end at a tiny budget, as `iobattery run` (what `make run` calls):
# a table without a short flag, what was skipped or left out listed with its reason,
# progress lines; in its result file a planned run whose kept figures are none of them
# short and none a cache-inflated read, the plan and the overhead in the options; the
# scratch directory gone.
. tests/cli/lib
command -v jq > /dev/null || skip "jq is not installed"
mkdir "$T/w" "$T/o" || exit 1
# the default job, as make run calls it (a smaller budget here), its result file in $T/o
grep -q '^	\./iobattery run$' Makefile || fail "make run does not run 'iobattery run'"
cd "$T/o" || exit 1
expect_exit 0 "$IOB" run -d "$T/w" --budget 15s --no-store
cd "$OLDPWD" || exit 1
grep -Eq '^figure +rate ' "$T/out" || fail "no table"
grep -Eq "^dd write " "$T/out" || { cat "$T/out" >&2; fail "no dd figure in the table"; }
awk '/^figure +rate /{t=1; next} /^$/{t=0} t' "$T/out" | grep -Eq '^  flags: (.* )?short(,|$)' &&
	fail "the table shows a short figure"
grep -q '^not shown:' "$T/out" || fail "what is left out is not listed"
grep -Eq '^  [a-z].*: (skipped|left out): ' "$T/out" || fail "no reason for what is left out"
grep -q 'iobattery: battery: \[1/' "$T/out" || fail "no progress lines"
j="$T/o/iobattery-results.json"
[ -s "$j" ] || fail "no result file"
[ "$(jq -r .options.sizing "$j")" = planned ] || fail "the run was not planned"
n=$(jq '[.rows[] | select((.flags | index("not_measured")) | not)] | length' "$j")
[ "$n" -ge 3 ] || fail "fewer than three figures kept at 15 s"
bad=$(jq -r '.rows[] | select((.flags | index("not_measured")) | not)
	| select((.flags | index("short")) or (.flags | index("cache_inflated")))
	| "\(.workload) \(.phase) \(.flags)"' "$j")
[ -z "$bad" ] || fail "figures kept although short or cache-inflated: $bad"
jq -e '[.options | to_entries[] | select(.key | test("^step[0-9]+$"))
	| select(.value | test(": skipped: "))] | length > 0' "$j" > /dev/null ||
	fail "no step skipped with its reason at 15 s"
jq -e '.options.overhead_s and .options.wall_s and .options.probe_write_bps' "$j" \
	> /dev/null || fail "the probe or the overhead is not recorded"
# the wall time against the budget, in the result and under the table
[ "$(jq -r .options.budget_s "$j")" = 15.0 ] || fail "the budget is not recorded"
grep -Eq '^wall time [0-9.]+ s of a 15 s budget \([0-9]+%' "$T/out" ||
	fail "no wall time against the budget under the table"
# every step the plan kept says what it expected, also after the first pass re-planned
jq -e '[.options | to_entries[] | select(.key | test("^step[0-9]+$")) | .value
	| select(test(": expected [0-9.]+ s: "))] | length > 0' "$j" > /dev/null ||
	fail "no step of the plan with its expected time"
jq -e '[.rows[] | select(.workload == "dd" and .phase == "read")
	| .params.read_method] | length > 0 and all(. == "drop" or . == "direct")' "$j" \
	> /dev/null || fail "no read of the device, or one without its read method"
no_scratch "$T/w"
[ -z "$(ls "$T/w")" ] || fail "files left: $(ls "$T/w")"
exit 0
