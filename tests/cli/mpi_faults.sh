# Faults across ranks: a rank that cannot start stops every rank before anything is
# written; a rank that meets ENOSPC stops the others at the phase's end gate with a
# message naming it, every rank removes its file and rank 0 writes a result marked
# incomplete; a rank killed mid-phase and SIGINT to mpirun end the run with rank 0's
# result marked incomplete and the survivors' files removed.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
mkdir res

# 1. rank 1's output is a file of the user's: every rank refuses, nothing is created
echo "user data" > f.1
expect_exit 2 mpi_run 2 "$IOB" dd if=/dev/zero of=f bs=4k count=4 --no-store
expect_out "refusing to overwrite a file iobattery did not create: 'f.1'"
expect_out "rank 1 on"
[ ! -e f.0 ] || fail "rank 0 wrote although rank 1 could not start"
[ "$(cat f.1)" = "user data" ] || fail "the user's file changed"
rm -f f.1

# wait_for FILE: until FILE holds data (the phase is running)
wait_for() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$1" ] || fail "$1 never got data"
}
# rank_pid MPIRUN R: the pid of rank R among mpirun's children
rank_pid() {
	for p in $(pgrep -P "$1"); do
		tr '\0' '\n' < /proc/$p/environ 2>/dev/null |
			grep -qx "OMPI_COMM_WORLD_RANK=$2\|PMI_RANK=$2" && { echo $p; return; }
	done
}

# 2. ENOSPC on a small tmpfs that cannot hold both ranks' files
if is_root && mkdir mnt && mount -t tmpfs -o size=8m tmpfs mnt 2>/dev/null; then
	cleanup_hooks="umount '$T/mnt' 2>/dev/null;"
	expect_exit 1 mpi_run 2 "$IOB" dd if=/dev/zero of=mnt/f bs=64k count=100 \
		--no-space-check --no-store --format json --output-dir res
	expect_out "stopping every rank: rank"
	expect_out "No space left on device"
	[ -z "$(ls mnt)" ] || fail "files left on the full file system: $(ls mnt)"
	jq_true res/iobattery-results.json '.incomplete and
		any(.rows[0].flags[]; . == "failed") and (.rows[0].ranks | length) == 2'
	jq_true res/iobattery-results.json '.rows[0].error | test("No space left")'
	umount mnt
	cleanup_hooks=""
	rm -f res/*
fi

# 3. rank 1 killed mid-phase: rank 0 removes its file and writes what it has. mpirun
# sends SIGTERM a timeout after SIGCONT and SIGKILL a timeout later; a synchronous write
# can outlast its default second on a busy disk, so the test gives three.
OMPI_MCA_odls_base_sigkill_timeout=3; export OMPI_MCA_odls_base_sigkill_timeout
env --default-signal=INT true 2>/dev/null || skip "env has no --default-signal"
(mpi_exec 2 "$IOB" dd if=/dev/zero of=k bs=4k count=10000000 oflag=dsync --no-space-check \
	--no-store --format json --output-dir res > kill.out 2>&1) &
mp=$!
cleanup_hooks="kill $mp 2>/dev/null;"
wait_for k.0
wait_for k.1
r1=$(rank_pid $mp 1)
[ -n "$r1" ] || { kill $mp; fail "rank 1 not found among mpirun's children"; }
kill -9 "$r1"
wait $mp
rc=$?
[ $rc -ne 0 ] || fail "a killed rank, yet mpirun exited 0"
[ ! -e k.0 ] || { cat kill.out; fail "rank 0 left its file when rank 1 died"; }
jq_true res/iobattery-results.json '.incomplete and any(.rows[0].flags[]; . == "incomplete")'
rm -f k.1 out/*

# 4. SIGINT to mpirun: every rank stops and removes its file
(mpi_exec 2 "$IOB" dd if=/dev/zero of=s bs=4k count=10000000 oflag=dsync --no-space-check \
	--no-store --format json --output-dir res > int.out 2>&1) &
mp=$!
cleanup_hooks="kill $mp 2>/dev/null;"
wait_for s.0
wait_for s.1
kill -INT $mp
wait $mp
rc=$?
[ $rc -ne 0 ] || fail "SIGINT, yet mpirun exited 0"
[ ! -e s.0 ] && [ ! -e s.1 ] || { cat int.out; fail "files left after SIGINT: $(ls s.*)"; }
jq_true res/iobattery-results.json '.incomplete'
exit 0
