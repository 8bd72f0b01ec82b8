# An MPMD launch (mpirun -np 1 A : -np 1 B) whose ranks were given different commands
# (issue 23, case 16): refused on every rank with exit 2 before anything is written, rank
# 0 saying which rank runs what: other operands, another workload, a command that is no
# workload (--version) on either side, no command at all. The ranks never wait for ever
# for one that runs something else (each launch is bounded by timeout, which would fail
# it). The same words through another path to the binary are one command and run.
. tests/cli/lib
. tests/cli/mpi_lib
mkdir "$T/w" && cd "$T/w" || exit 1
np=-np
[ "$MPI_IMPL" = openmpi ] || np=-n
over=""
[ "$MPI_IMPL" = openmpi ] && over=--oversubscribe
# mpmd WORDS-OF-RANK-0... : WORDS-OF-RANK-1...: one rank each, 120 s at most
mpmd() {
	a="" b="" side=0
	for w in "$@"; do
		if [ "$w" = : ] && [ $side = 0 ]; then side=1; continue; fi
		if [ $side = 0 ]; then a="$a '$w'"; else b="$b '$w'"; fi
	done
	eval "timeout 120 \"\$MPIRUN\" $over $np 1 $a : $np 1 $b"
}

# other operands: exit 2, the message names both commands, no file made
expect_exit 2 mpmd "$IOB" dd if=/dev/zero of=a bs=4k count=4 --no-store : \
	"$IOB" dd if=/dev/zero of=b bs=4k count=8 --no-store
expect_out "iobattery: ranks started with different commands (mpirun ... : ...): rank 1 on"
expect_out "runs 'dd if=/dev/zero of=b bs=4k count=8 --no-store', rank 0 'dd if=/dev/zero of=a"
expect_out "every rank must run the same command"
[ "$(grep -c "ranks started with different commands" "$T/out")" = 1 ] ||
	fail "the refusal was not said once (by rank 0)"
[ -z "$(ls)" ] || fail "a refused launch made files: $(ls)"

# another workload
expect_exit 2 mpmd "$IOB" dd if=/dev/zero of=a bs=4k count=4 --no-store : \
	"$IOB" fsync -s 1 -f . --no-store
expect_out "rank 1 on"
expect_out "runs 'fsync -s 1 -f . --no-store'"

# a command that is no workload, on rank 1 and on rank 0 (it never joined the world:
# the other rank waited in MPI_Init or a collective until killed)
expect_exit 2 mpmd "$IOB" dd if=/dev/zero of=a bs=4k count=4 --no-store : "$IOB" --version
expect_out "rank 1 on"
expect_out "runs '--version'"
expect_exit 2 mpmd "$IOB" --version : "$IOB" dd if=/dev/zero of=a bs=4k count=4 --no-store
expect_out "rank 0 '--version'"
expect_exit 2 mpmd "$IOB" dd if=/dev/zero of=a bs=4k count=4 --no-store : "$IOB"
expect_out "runs ''"
[ -z "$(ls)" ] || fail "a refused launch made files: $(ls)"

# one command through two paths to the binary: it runs
ln -s "$IOB" "$T/iob-link"
expect_exit 0 mpmd "$IOB" dd if=/dev/zero of=f bs=4k count=4 --no-store : \
	"$T/iob-link" dd if=/dev/zero of=f bs=4k count=4 --no-store
[ -s f.0 ] && [ -s f.1 ] || fail "the ranks of one command did not both write"
# every rank runs --version: rank 0 alone prints it
expect_exit 0 mpi_run 2 "$IOB" --version
[ "$(grep -c '^iobattery ' "$T/out")" = 1 ] || fail "--version not printed once"
exit 0
