# Other workloads across ranks: two ranks each run iozone's automatic grid on their own
# file (every cell's row holds both ranks, its bytes the sum of theirs, nothing left);
# the battery's small form, run, is one machine's and refuses mpirun (the battery itself
# runs across ranks: mpi_battery.sh).
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
expect_exit 2 mpi_run 2 "$IOB" run -d "$T"
expect_out "does not run under mpirun"
no_scratch "$T"
[ -z "$(ls | grep -v '^i\.json$\|^err$\|^out$')" ] || fail "left behind: $(ls)"
exit 0
