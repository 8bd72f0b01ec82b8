# --stonewall: every rank's phase stops at the wall (synchronous writes that would take
# hours), the row says how much each rank did before it; with --wearout every rank then
# does as much as the busiest, so the ranks' byte counts come out equal. Alone, the wall
# works as well. Bonnie refuses the option.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
big=10000000
mpi_run 2 "$IOB" dd if=/dev/zero of=f bs=4k count=$big oflag=dsync --stonewall 0.5 \
	--no-space-check --no-store --format json --quiet > s.json 2> err ||
	{ cat err; fail "stonewall run exited $?"; }
r='.rows[0]'
jq_true s.json "all($r.ranks[]; .bytes < $big * 4096 and .stonewall_bytes > 0)"
jq_true s.json "any($r.metrics[]; .name == \"stonewall_s\") and
	any($r.metrics[]; .name == \"stonewall_rate\") and .options.stonewall_seconds == \"0.5\""
jq_true s.json "($r.flags | index(\"incomplete\")) == null"
rm -f f.*

mpi_run 2 "$IOB" dd if=/dev/zero of=f bs=4k count=$big oflag=dsync --stonewall 0.5 \
	--wearout --no-space-check --no-store --format json --quiet > w.json 2> err ||
	{ cat err; fail "wearout run exited $?"; }
jq_true w.json "($r.ranks[0].bytes == $r.ranks[1].bytes) and
	$r.ranks[0].bytes == ([$r.ranks[].stonewall_bytes] | max)"
[ "$(wc -c < f.0)" = "$(wc -c < f.1)" ] || fail "after the wear-out the files differ"

"$IOB" dd if=/dev/zero of=one bs=4k count=$big oflag=dsync --stonewall 0.3 \
	--no-space-check --no-store --format json --quiet > one.json 2> err ||
	{ cat err; fail "a single process with --stonewall exited $?"; }
jq_true one.json "$r.bytes < $big * 4096 and $r.bytes > 0"

expect_exit 2 "$IOB" bonnie -d . --stonewall 1
expect_out "--stonewall is not supported by bonnie"
expect_exit 2 "$IOB" dd if=/dev/zero of=x bs=4k count=1 --wearout
expect_out "--wearout needs --stonewall"
exit 0
