# The battery across two ranks: each runs the same steps, sized by hand, in its own
# scratch directory; one result on rank 0 whose rows hold both ranks, dd's and cp's
# bytes and operations the sum of theirs; the text table and the progress lines once;
# a dry run probes on rank 0 alone (its phases pass no gate) and prints the plan once;
# ENOSPC on one rank stops every rank, rank 0 writing what was measured; ENOSPC on both
# (rank 1 first) the same, rank 0 writing no late progress message into freed memory;
# nothing left; the file-system matrix and --cleanup refuse mpirun (exit 2).
# A real planned run on two ranks sharing one file system: mpi_battery_planned.sh.
. tests/cli/lib
. tests/cli/mpi_lib
shim=$PWD/tests/fault/iobfault.so
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
mkdir "$T/w" || exit 1
cd "$T" || exit 1
mpi_run 2 "$IOB" battery -d "$T/w" --size 4m --steps dd,cp --no-store --format json \
	--quiet > b.json 2> err || { cat err; fail "battery on 2 ranks exited $?"; }
jq_true b.json '(.ranks | length) == 2 and .options.sizing == "hand"'
# dd write bs=1k and bs=1M, dd read (dropped, O_DIRECT), cp: every row of both ranks
jq_true b.json '([.rows[] | select(.workload == "dd" or .workload == "cp")] | length) >= 4'
jq_true b.json 'all(.rows[]; (.ranks | length) == 2 and .bytes == ([.ranks[].bytes] | add)
	and .ops == ([.ranks[].ops] | add))'
jq_true b.json 'all(.rows[] | select(.workload == "dd"); .bytes == 2 * 4194304)'
jq_true b.json '[.rows[] | select(.workload == "dd") | .phase] | index("write") != null
	and index("read") != null'
no_scratch "$T/w"
[ -z "$(ls "$T/w")" ] || fail "left in the target: $(ls "$T/w")"
# the text: the battery's table and the ranks' table once, rank 0's progress lines only
mpi_run 2 "$IOB" battery -d "$T/w" --size 2m --steps dd-1m --no-store > t.out 2> t.err ||
	{ cat t.err; fail "battery (text) on 2 ranks exited $?"; }
[ "$(grep -c '^figure  *rate ' t.out)" = 1 ] || { cat t.out; fail "not one table"; }
grep -q '^2 ranks on ' t.out || { cat t.out; fail "no table of the ranks"; }
[ "$(grep -c 'battery: \[1/1\] dd write bs=1M' t.err)" = 1 ] ||
	{ cat t.err; fail "progress lines not from rank 0 alone"; }
grep -q 'rank 1' t.err && { cat t.err; fail "rank 1 spoke"; }
no_scratch "$T/w"
# a dry run: rank 0 probes alone, every rank learns the plan; printed once
mpi_run 2 "$IOB" battery -d "$T/w" --budget 1m --dry-run --steps dd-1m --no-store \
	> d.out 2> d.err || { cat d.err; fail "dry run exited $?"; }
[ "$(grep -c '^plan for ' d.out)" = 1 ] || { cat d.out d.err; fail "the plan not once"; }
grep -q '^probe ' d.out || { cat d.out; fail "no probe in the dry run"; }
no_scratch "$T/w"
[ -z "$(ls "$T/w")" ] || fail "left in the target: $(ls "$T/w")"
# ENOSPC on rank 1 in cp (the shim, on rank 1 only): every rank stops at that phase's
# end, rank 0 writes the rows so far marked incomplete, nothing is left
if [ -f "$shim" ]; then
	cat > wrap.sh <<-EOF2
	#!/bin/sh
	if [ "\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-}}" = 1 ]; then
		IOB_FAULT="op=write,err=ENOSPC,nth=3,path=tstfile2"; LD_PRELOAD="$shim"
		export IOB_FAULT LD_PRELOAD
	fi
	exec "\$@"
	EOF2
	chmod +x wrap.sh || exit 1
	expect_exit 1 mpi_run 2 ./wrap.sh "$IOB" battery -d "$T/w" --size 4m --steps dd,cp,bonnie \
		--no-store --format json --quiet --output-dir "$T"
	expect_out "stopping every rank: rank 1 on"
	jq_true iobattery-results.json '.incomplete and all(.rows[]; (.ranks | length) == 2)
		and (.rows[-1].workload == "cp") and any(.rows[-1].flags[]; . == "failed")'
	no_scratch "$T/w"
	[ -z "$(ls "$T/w")" ] || fail "left in the target after ENOSPC: $(ls "$T/w")"
	# ENOSPC on both ranks in cp, rank 1 a little before rank 0: rank 1's last progress
	# message may come after the stopping end gate, and rank 0 must have stopped
	# listening into its phase's table before freeing it (it once went on: a write
	# into freed memory at its last gate, which the sanitizers report, make check
	# SAN=1, in most runs, and which crashed a run's cleanup)
	cat > wrap2.sh <<-EOF2
	#!/bin/sh
	n=300
	[ "\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-}}" = 1 ] && n=250
	IOB_FAULT="op=write,err=ENOSPC,nth=\$n,path=tstfile2"; LD_PRELOAD="$shim"
	export IOB_FAULT LD_PRELOAD
	exec "\$@"
	EOF2
	chmod +x wrap2.sh || exit 1
	rm -f iobattery-results.json
	expect_exit 1 mpi_run 2 ./wrap2.sh "$IOB" battery -d "$T/w" --size 64m \
		--steps dd-1m,cp --no-store --format json --quiet --output-dir "$T"
	expect_out "stopping every rank: rank"
	grep -q 'AddressSanitizer\|invalid pointer\|Signal:' "$T/out" &&
		{ sed 's/^/  | /' "$T/out" | head -n 40; fail "rank 0 broke after both failed"; }
	jq_true iobattery-results.json '.incomplete and (.rows[-1].workload == "cp") and
		all(.rows[-1].ranks[]; any(.flags[]; . == "failed"))'
	no_scratch "$T/w"
	[ -z "$(ls "$T/w")" ] || fail "left in the target after ENOSPC: $(ls "$T/w")"
fi
# what is one machine's refuses, every rank with exit 2, rank 0 saying why
for a in "--fs ext4" "--destroy-data-on /dev/null" "--cleanup" "--fs-size 1g"; do
	# shellcheck disable=SC2086
	expect_exit 2 mpi_run 2 "$IOB" battery -d "$T/w" $a
	expect_out "battery: ${a%% *} does not run under mpirun: '"
	[ "$(grep -c 'does not run under mpirun' "$T/out")" = 1 ] || fail "said twice: $a"
done
expect_exit 2 mpi_run 2 "$IOB" battery -d "$T/w" --size 4m --watch
expect_out "--watch does not run under mpirun"
no_scratch "$T/w"
[ -z "$(ls "$T/w")" ] || fail "left in the target: $(ls "$T/w")"
exit 0
