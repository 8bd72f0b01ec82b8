# The battery planned across two ranks, for real (no --size: rank 0 probes alone, plans
# from the ranks' least room, re-plans after each step and sends every plan; the dry run
# and the hand-sized runs are mpi_battery.sh's), in one small ext4 both ranks share, on a
# loop device this test makes, throttled to 100 MB/s by a blkio cgroup that only the
# ranks join (so that a second of dd is 100 MB, not the gigabytes of an unthrottled
# disk). The budget wants more than the disk holds: the shared free space bounds the
# plan, which must fit both ranks' files together (each rank's dd file and its copy),
# not one rank's alone, which two ranks would overfill (ENOSPC in cp). Checks: exit 0,
# sizing "planned", the plan printed once by rank 0 with the free space split between
# the 2 ranks, each progress line once, every row of both ranks with bytes and
# operations their sums, the same planned size on both ranks (dd's file and cp's copy),
# 2 ranks x 2 files within the free space, no failed row, nothing left on the file
# system. Needs root, loop devices, mkfs.ext4, MPI and a blkio throttle (cgroup v1
# blkio, or v2 with io in the root's subtree_control); skips otherwise. About 15 s; it
# writes about 1 GB.
. tests/cli/lib
need_fs_matrix losetup mkfs.ext4 mount umount
. tests/cli/mpi_lib
loop="" mnt="$T/mnt" cg=""
cleanup_hooks='umount "$mnt" 2>/dev/null; [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null;
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null;'
truncate -s 1G "$T/img" || fail "cannot make an image"
loop=$(losetup -f --show --direct-io=on "$T/img" 2> /dev/null) ||
	loop=$(losetup -f --show "$T/img" 2> /dev/null) || skip "cannot attach a loop device"
mkfs.ext4 -q -F "$loop" > /dev/null 2>&1 || fail "mkfs.ext4 on $loop"
mkdir "$mnt" && mount "$loop" "$mnt" || fail "cannot mount $loop"
dev=$(cat "/sys/block/${loop#/dev/}/dev") || fail "no device number for $loop"
rate=100000000
# the throttle: a cgroup of this test's own, its rule on this loop device alone
if [ -f /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
	cg=/sys/fs/cgroup/blkio/iobattery-test.$$
	mkdir "$cg" 2> /dev/null || { cg=""; skip "cannot make a blkio cgroup"; }
	echo "$dev $rate" > "$cg/blkio.throttle.write_bps_device" &&
		echo "$dev $rate" > "$cg/blkio.throttle.read_bps_device" ||
		skip "cannot throttle $loop in a blkio cgroup"
elif grep -qw io /sys/fs/cgroup/cgroup.subtree_control 2> /dev/null; then
	cg=/sys/fs/cgroup/iobattery-test.$$
	mkdir "$cg" 2> /dev/null || { cg=""; skip "cannot make a cgroup"; }
	echo "$dev rbps=$rate wbps=$rate" > "$cg/io.max" ||
		skip "cannot throttle $loop in a cgroup"
else
	skip "no blkio throttle here (cgroup v1 blkio, or v2 with the io controller)"
fi
# a process may join it (a container may forbid moving processes between cgroups)
sh -c 'echo $$ > "$1/cgroup.procs"' sh "$cg" 2> /dev/null ||
	skip "cannot move a process into the cgroup $cg"
# each rank joins the throttled cgroup, then is the battery
cat > "$T/slow.sh" <<-EOF
	#!/bin/sh
	echo \$\$ > "$cg/cgroup.procs" || exit 1
	exec "\$@"
	EOF
chmod +x "$T/slow.sh" || exit 1
# shellcheck disable=SC2046
set -- $(stat -f -c '%a %S' "$mnt") || fail "no free space of $mnt"
free=$(($1 * $2))
cd "$T" || exit 1
mpi_run 2 ./slow.sh "$IOB" battery -d "$mnt" --budget 30s --steps dd-1m,cp --no-store \
	--format json > b.json 2> err
rc=$?
[ "$rc" = 0 ] || { cat err; fail "the planned battery on 2 ranks exited $rc"; }
jq_true b.json '.options.sizing == "planned" and (.ranks | length) == 2 and
	(.incomplete | not)'
# rows: dd write bs=1M and cp, both ranks in each, the totals their sums, nothing failed
jq_true b.json '[.rows[] | select(.workload == "dd" and .phase == "write")] | length == 1'
jq_true b.json '[.rows[] | select(.workload == "cp" and .phase == "copy")] | length == 1'
jq_true b.json 'all(.rows[]; (.ranks | length) == 2 and .bytes == ([.ranks[].bytes] | add)
	and .ops == ([.ranks[].ops] | add) and (.flags | index("failed") | not)
	and .error == null)'
# the plan went to every rank: one size on both, the copy of dd's file on each
s=$(jq '.rows[] | select(.workload == "dd" and .phase == "write") |
	if .ranks[0].bytes == .ranks[1].bytes then .ranks[0].bytes else -1 end' b.json)
[ "$s" -gt 0 ] || { jq -c '.rows[].ranks' b.json; fail "the ranks wrote other sizes"; }
jq_true b.json "all(.rows[] | select(.workload == \"cp\"); all(.ranks[]; .bytes == $s))"
# both ranks' files at once fit the free space: each rank's file and its copy
[ $((4 * s)) -le "$free" ] ||
	fail "2 ranks x 2 files of $s bytes do not fit the $free bytes free"
# rank 0 alone printed: the plan once, with the free space split between the ranks
[ "$(grep -c '^plan for ' err)" = 1 ] || { cat err; fail "the plan not once"; }
line=$(grep '^plan for ' err)
split='MiB free for each of the 2 ranks sharing the file system)$'
half=$(echo "$line" | sed -n "s/.* \([0-9][0-9]*\) $split/\1/p")
[ -n "$half" ] || { cat err; fail "the plan does not split the free space: $line"; }
want=$((free / 2 / 1048576))
[ "$half" -ge $((want - 2)) ] && [ "$half" -le $((want + 2)) ] ||
	fail "the plan says $half MiB a rank, half the free space is $want MiB"
[ "$(grep -c 'battery: \[1/2\] dd write bs=1M' err)" = 1 ] ||
	{ cat err; fail "dd's progress line not once"; }
[ "$(grep -c 'battery: \[2/2\] cp' err)" = 1 ] || { cat err; fail "cp's progress line not once"; }
grep -q 'rank 1' err && { cat err; fail "rank 1 spoke"; }
no_scratch "$mnt"
[ "$(ls "$mnt")" = lost+found ] || fail "left in the target: $(ls "$mnt")"
exit 0
