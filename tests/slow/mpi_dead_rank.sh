# A rank SIGKILLed mid-phase (issue 23): it cannot remove its own scratch directory, and
# the survivors must not wait for it. Rank 0 sees a rank of its machine die while it
# waits at a gate (or is stopped by mpirun first), writes its result marked incomplete,
# and removes the dead rank's scratch directory by the owner's mark; nothing is left.
# A rank that falls silent (SIGSTOP) with IOBATTERY_RANK_SILENCE=2: rank 0 gives up on it
# and writes its result naming it. Without mpirun: the next run in a directory removes
# the scratch directory a killed run of this machine left, and nothing else: not a
# look-alike without the mark, not one whose owner lives, not one marked on another
# boot, not iozone -w's kept directory.
. tests/cli/lib
top=$PWD
cd "$T" || exit 1
mkdir res d d2
# wait_for GLOB N: until N paths match GLOB (the ranks made their directories)
wait_for() {
	i=0
	while [ "$(ls -d $1 2> /dev/null | wc -l)" -lt "$2" ] && [ $i -lt 300 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ "$(ls -d $1 2> /dev/null | wc -l)" -ge "$2" ] || fail "$1: fewer than $2 appeared"
}
owner_mark() { python3 -c 'import os, sys; print(os.getxattr(sys.argv[1],
	"user.iobattery.owner").decode())' "$1" 2> /dev/null; }

# the next run removes what a killed run left, by its mark (no launcher needed)
"$IOB" fsync -s 5 -f d2 --no-store --quiet > k.out 2>&1 &
p=$!
wait_for "d2/iobattery.*" 1
left=$(ls -d d2/iobattery.*)
kill -KILL $p
wait $p
[ -d "$left" ] || fail "the killed run removed its directory: nothing to test"
mark=$(owner_mark "$left")
[ -n "$mark" ] || skip "the scratch directory has no owner mark here (no user xattrs?)"
# look-alikes: no mark; a living owner (this shell); another boot's dead pid
mkdir d2/iobattery.nomark d2/iobattery.living d2/iobattery.another || exit 1
echo keep > d2/iobattery.nomark/f
set -- $mark
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.iobattery.owner",
	sys.argv[2].encode())' d2/iobattery.living "$1 $2 $$ $4" || fail "cannot mark"
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.iobattery.owner",
	sys.argv[2].encode())' d2/iobattery.another "not-this-boot $2 $3 $4" || fail "mark"
expect_exit 0 "$IOB" fsync -s 1 --blocks 8 -f d2 --no-store --quiet
expect_out "removed the scratch directory a killed run left: '$T/$left' (its process $p is gone)"
[ ! -e "$left" ] || fail "the killed run's directory is still there"
[ "$(ls d2 | tr '\n' ' ')" = "iobattery.another iobattery.living iobattery.nomark " ] ||
	fail "the next run removed what was not a killed run's: $(ls d2)"
[ "$(cat d2/iobattery.nomark/f)" = keep ] || fail "the look-alike was touched"
# iozone -w keeps its directory for the user: no mark, no sweep
expect_exit 0 "$IOB" iozone -s 64k -r 64k -i 0 -w -f "$T/d2/x" --no-store \
	--quiet
kept=$(ls -d d2/iobattery.* | grep -v 'another\|living\|nomark')
[ -n "$kept" ] || skip "iozone -w kept no scratch directory here"
[ -z "$(owner_mark "$kept")" ] || fail "the directory iozone -w kept still has the mark"

# under mpirun: rank 1 killed at a gate or mid-phase
cd "$top" && . tests/cli/mpi_lib && cd "$T" || exit 1
OMPI_MCA_odls_base_sigkill_timeout=3; export OMPI_MCA_odls_base_sigkill_timeout
env --default-signal=INT true 2>/dev/null || skip "env has no --default-signal"
# rank1_in_test: once both ranks of mpirun $mp are past set-up, in the first 5 s test
# (both test files laid out, 16 MiB), rank 1's pid into r1
rank1_in_test() {
	wait_for "d/iobattery.*" 2
	i=0
	while [ "$(find d -name pg_test_fsync.out -size 16384k | wc -l)" -lt 2 ] &&
		[ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 1
	r1=""
	for q in $(pgrep -P $mp); do
		tr '\0' '\n' < /proc/$q/environ 2>/dev/null |
			grep -qx "OMPI_COMM_WORLD_RANK=1\|PMI_RANK=1" && r1=$q
	done
	[ -n "$r1" ] || { kill $mp; fail "rank 1 not found among mpirun's children"; }
}

(mpi_exec 2 "$IOB" fsync -s 5 -f d --no-store --format json --output-dir res \
	> kill.out 2>&1) &
mp=$!
cleanup_hooks="kill $mp 2>/dev/null;"
rank1_in_test
kill -KILL "$r1"
wait $mp
rc=$?
[ $rc -ne 0 ] || fail "a killed rank, yet mpirun exited 0"
[ -z "$(ls d)" ] || { cat kill.out; fail "left after the killed rank: $(ls d)"; }
grep -q "removed the scratch directory a killed run left: .*(its process $r1 is gone)" \
	kill.out || { cat kill.out; fail "rank 0 did not remove the dead rank's directory"; }
jq_true res/iobattery-results.json '.incomplete and (.status != 0)'

# a rank that lives but falls silent (SIGSTOP: as a host behind a cut link): with
# IOBATTERY_RANK_SILENCE=2 rank 0 gives up on it at the phase's end gate and writes its
# result, marked incomplete and naming the rank, before the launcher ends the job
rm -rf res && mkdir res
(IOBATTERY_RANK_SILENCE=2 mpi_exec 2 "$IOB" fsync -s 5 -f d --no-store --format json \
	--output-dir res > stop.out 2>&1) &
mp=$!
cleanup_hooks="kill $mp 2>/dev/null;"
rank1_in_test
cleanup_hooks="kill -CONT $r1 2>/dev/null; kill $mp 2>/dev/null;"
kill -STOP "$r1"
wait $mp
rc=$?
kill -CONT "$r1" 2> /dev/null
[ $rc -ne 0 ] || fail "a silent rank, yet mpirun exited 0"
grep -q "stopping: rank 1 on .* sent no word for IOBATTERY_RANK_SILENCE (2 s)" stop.out ||
	{ cat stop.out; fail "rank 0 did not say that rank 1 fell silent"; }
jq_true res/iobattery-results.json '.incomplete and
	(.error | test("rank 1 sent no word within IOBATTERY_RANK_SILENCE"))'
exit 0
