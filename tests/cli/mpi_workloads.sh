# Other workloads across ranks: two ranks each run iozone's automatic grid on their own
# file (every cell's row holds both ranks, its bytes the sum of theirs, nothing left);
# the default job, run, on two ranks: every step on each in its own scratch directory,
# one table and the ranks' table from rank 0, one iobattery-results.json whose rows
# hold both ranks (the battery's own tests across ranks: tests/slow/mpi_battery.sh).
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
mpi_run 2 "$IOB" iozone -a -s 1m -r 64k -i 0 -i 1 --no-store --format json --quiet \
	> i.json 2> err || { cat err; fail "iozone on 2 ranks exited $?"; }
jq_true i.json '(.rows | length) >= 4 and all(.rows[]; (.ranks | length) == 2 and
	.bytes == ([.ranks[].bytes] | add) and .bytes == 2 * 1048576)'
jq_true i.json '[.rows[].phase] | index("write") != null and index("read") != null'
no_scratch "$T"
[ -z "$(ls | grep -v '^i\.json$\|^err$')" ] || fail "left behind: $(ls)"
mkdir w o || exit 1
cd o || exit 1
mpi_run 2 "$IOB" run -d "$T/w" --size 1m --no-store > r.out 2> r.err ||
	{ cat r.err; fail "run on 2 ranks exited $?"; }
cd "$T" || exit 1
[ "$(grep -c '^figure  *rate ' o/r.out)" = 1 ] || { cat o/r.out; fail "not one table"; }
grep -q '^2 ranks on ' o/r.out || { cat o/r.out; fail "no table of the ranks"; }
[ "$(grep -c '^results: ' o/r.out)" = 1 ] || fail "the result file not named once"
[ "$(grep -c 'battery: \[1/' o/r.err)" = 1 ] || { cat o/r.err; fail "progress not once"; }
j=o/iobattery-results.json
jq_true "$j" '(.ranks | length) == 2 and .workload == "run" and (.rows | length) > 20'
for w in dd cp bonnie iozone postmark db job; do
	jq_true "$j" "any(.rows[]; .workload == \"$w\")"
done
# every row of both ranks; dd's, cp's and iozone's bytes the sum of theirs, 1 MiB each
jq_true "$j" 'all(.rows[]; (.ranks | length) == 2 and .bytes == ([.ranks[].bytes] | add)
	and .ops == ([.ranks[].ops] | add))'
jq_true "$j" 'all(.rows[] | select(.workload == "dd" or .workload == "cp");
	.bytes == 2 * 1048576)'
[ "$(ls o)" = "iobattery-results.json
r.err
r.out" ] || fail "not only rank 0's result file: $(ls o)"
no_scratch "$T/w"
[ -z "$(ls w)" ] || fail "left in the target: $(ls w)"
rm -r o w
[ -z "$(ls | grep -v '^i\.json$\|^err$\|^out$')" ] || fail "left behind: $(ls)"
exit 0
