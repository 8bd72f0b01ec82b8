# fsync on two ranks (pg_test_fsync's tests at a second each, the smallest -s): one
# result whose every measured row counts the syncs of both ranks (ops the sum of the
# ranks'), its rate by IOR's rule (all ops over the span of the ranks), usecs_per_op the
# ranks' mean (each rank's is 1e6 over its own rate), the methods this system lacks
# still not measured, the durability row the best of the merged rows, and each rank's scratch directory removed.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
mpi_run 2 "$IOB" fsync -s 1 --no-store --format json --quiet > f.json 2> err ||
	{ cat err; fail "fsync on 2 ranks exited $?"; }
jq_true f.json '(.ranks | length) == 2'
timed='(.rows[] | select(.phase != "durability" and (.flags | index("not_measured")) == null))'
jq_true f.json "[$timed] | length >= 10"
jq_true f.json "all($timed; (.ranks | length) == 2 and .ops == ([.ranks[].ops] | add) and
	all(.ranks[]; .ops > 0) and ((.rate * .elapsed_ns / 1e9 - .ops) | fabs) < 1e-6 * .ops)"
sync='(.rows[] | select(.phase | test("^(open_datasync|fdatasync|fsync|open_sync)_1w$")))'
jq_true f.json "[$sync] | length >= 3"
jq_true f.json "all($sync; ((.metrics[] | select(.name == \"usecs_per_op\") | .value) -
	([.ranks[] | 1e6 / .rate] | add / 2) | fabs) < 1e-6 * ([.ranks[] | 1e6 / .rate] | add))"
# the durability row names the fastest merged one-write method and gives its merged rate
# (it held rank 0's own before the merge)
one='[.rows[] | select(.params.test == "one_write" and .ops > 0)]'
jq_true f.json "($one | max_by(.rate)) as \$b | .rows[] | select(.phase == \"durability\") |
	.rate == \$b.rate and .params.best_method == \$b.params.method"
# a method Linux lacks is said so on both ranks, not merged into a figure
if [ "$(uname -s)" = Linux ]; then
	jq_true f.json 'all(.rows[] | select(.phase | startswith("fsync_writethrough"));
		(.flags | index("not_measured")) != null and .ops == 0)'
fi
[ -z "$(ls | grep -v '^f\.json$\|^err$')" ] || fail "left behind: $(ls)"
exit 0
