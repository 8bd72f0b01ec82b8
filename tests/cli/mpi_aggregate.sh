# Two and four ranks write their own files and read them back: one result from rank 0
# whose totals are exactly the sums of the ranks', whose time is IOR's (latest stop -
# earliest start) and rate all bytes over it, whose histogram holds every request, with
# each rank's host and figures; the text is printed once.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
for n in 2 4; do
	mpi_run $n "$IOB" dd if=/dev/zero of=f bs=64k count=48 --no-store --format json \
		--quiet > w$n.json 2> err || { cat err; fail "$n ranks: dd write exited $?"; }
	size=$((n * 48 * 65536))
	r='.rows[0]'
	jq_true w$n.json "$r.bytes == $size and ([$r.ranks[].bytes] | add) == $r.bytes"
	jq_true w$n.json "([$r.ranks[].ops] | add) == $r.ops and $r.ops == $n * 48"
	jq_true w$n.json "(($r.ranks | map(.stop_ns) | max) - ($r.ranks | map(.start_ns) |
		min)) == $r.elapsed_ns and ($r.ranks | map(.start_ns) | min) == 0"
	jq_true w$n.json "(($r.rate - $r.bytes * 1000 / $r.elapsed_ns) | fabs) < 1e-6 * $r.rate"
	jq_true w$n.json "$r.latency.n == $r.ops and
		([$r.latency.histogram[][1]] | add) == $r.latency.n"
	jq_true w$n.json "$r.params.rank_count == \"$n\" and (.ranks | length) == $n and
		all(.ranks[]; .env.host != null) and ($r.ranks | length) == $n"
	jq_true w$n.json "any($r.metrics[]; .name == \"rank_first_done_rate\") and
		any($r.metrics[]; .name == \"rank_rate_sd\")"
	i=0
	while [ $i -lt $n ]; do
		[ "$(wc -c < f.$i)" -eq $((48 * 65536)) ] || fail "f.$i: not 48 blocks"
		i=$((i + 1))
	done
	[ ! -e f ] || fail "a rank wrote of=f itself instead of its own f.RANK"
	mpi_run $n "$IOB" dd if=f of=/dev/null bs=64k --no-store --format json --quiet \
		> r$n.json 2> err || { cat err; fail "$n ranks: dd read exited $?"; }
	jq_true r$n.json ".rows[0].phase == \"read\" and .rows[0].bytes == $size"
	rm -f f.*
done

# cp copies each rank's SRC.RANK to DST.RANK; db runs each rank's database in its own
# scratch directory; both give one merged result
head -c 1048576 /dev/urandom > src.0 && cp src.0 src.1 || fail "sources"
mpi_run 2 "$IOB" cp src dst --no-store --format json --quiet > cp.json 2> err ||
	{ cat err; fail "cp exited $?"; }
jq_true cp.json '.rows[0].bytes == 2097152 and (.rows[0].ranks | length) == 2'
cmp -s src.1 dst.1 || fail "rank 1's copy differs from its source"
mkdir dbd
mpi_run 2 "$IOB" db -n 200 dbd --no-store --format json --quiet > db.json 2> err ||
	{ cat err; fail "db exited $?"; }
jq_true db.json '(.rows[] | select(.phase == "build")).ops == 400'
[ -z "$(ls dbd)" ] || fail "db left: $(ls dbd)"

# the text once, from rank 0, with the ranks' table
mpi_run 2 "$IOB" dd if=/dev/zero of=t bs=64k count=8 --no-store > out 2> err ||
	{ cat err; fail "dd text exited $?"; }
[ "$(grep -c 'records out' out)" -eq 1 ] || { cat out; fail "the text is not printed once"; }
grep -q "^2 ranks on 1 host" out || { cat out; fail "no ranks block"; }

# rank 0's progress line, where mpirun runs on a terminal (script(1) gives it one): the
# aggregate rate and how many ranks have finished; the wall makes the phase last 1.5 s
if command -v script > /dev/null && [ "$MPI_IMPL" = openmpi ]; then
	script -qc "'$MPIRUN' --oversubscribe -np 2 '$IOB' dd if=/dev/zero of=p bs=4k \
		count=100000000 oflag=dsync --no-space-check --stonewall 1.5 --no-store" \
		"$T/tty.txt" > /dev/null 2>&1 < /dev/null || fail "dd under script exited $?"
	tr '\r' '\n' < "$T/tty.txt" | grep -aq "MB/s.*all ranks, [0-2]/2 done" ||
		{ cat -v "$T/tty.txt" | head -n 20; fail "no progress line with the ranks"; }
	rm -f p.*
fi

# the store keeps the per-rank tables
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
mpi_run 2 "$IOB" dd if=/dev/zero of=s bs=64k count=8 --quiet > /dev/null 2> err ||
	{ cat err; fail "dd into the store exited $?"; }
command -v sqlite3 > /dev/null || exit 0
[ "$(sqlite3 "$IOBATTERY_DB" 'SELECT COUNT(*) FROM run_ranks')" = 2 ] ||
	fail "run_ranks does not hold the 2 ranks"
[ "$(sqlite3 "$IOBATTERY_DB" 'SELECT SUM(bytes) FROM row_ranks')" = $((2 * 8 * 65536)) ] ||
	fail "row_ranks does not hold the ranks' bytes"
exit 0
