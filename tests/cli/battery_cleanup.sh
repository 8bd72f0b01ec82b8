# battery (root): a device target is refused while it holds a file system or is mounted,
# accepted when --force-wipe names it again; after SIGKILL in the middle of a matrix,
# `battery --cleanup` removes the mount, the loop device and the scratch directory the
# killed run left, and nothing that is not marked as ours (a look-alike directory, a
# loop device of the test's own).
. tests/cli/lib
need_fs_matrix mkfs.ext4 mkfs.xfs losetup
mkdir "$T/w" "$T/m" || exit 1

# a loop device the test made, holding ext4
truncate -s 96m "$T/dev.img" && mkfs.ext4 -q -F "$T/dev.img" || fail "cannot make ext4"
L=$(losetup -f --show "$T/dev.img") || skip "cannot attach a loop device"
cleanup_hooks="umount '$T/m' 2>/dev/null; losetup -d '$L' 2>/dev/null;"

expect_exit 2 "$IOB" battery -d "$T/w" --fs ext4 --destroy-data-on "$L" --size 4m --no-store
expect_out "refusing --destroy-data-on: '$L': it holds an ext2/3/4 file system"
mount "$L" "$T/m" || fail "cannot mount the test's device"
echo mine > "$T/m/file"
expect_exit 2 "$IOB" battery -d "$T/w" --fs ext4 --destroy-data-on "$L" --force-wipe "$L" \
	--size 4m --no-store
expect_out "it is mounted (at $T/m)"
[ "$(cat "$T/m/file")" = mine ] || fail "the mounted device was touched"
umount "$T/m" || fail "umount"
[ -z "$(ls "$T/w")" ] || fail "a refused run made something: $(ls "$T/w")"
# named again: it is wiped and measured
expect_exit 0 "$IOB" battery -d "$T/w" --fs ext4 --destroy-data-on "$L" --force-wipe "$L" \
	--size 4m --no-store --quiet
grep -F " $T/" /proc/self/mounts && fail "a mount is left after the device run"

# look-alikes that are not ours: a directory named like a scratch directory, and the
# test's own loop device (no mark)
mkdir "$T/w/iobattery.decoy1" && echo keep > "$T/w/iobattery.decoy1/f" || exit 1

"$IOB" battery -d "$T/w" --fs ext4,xfs --fs-size 1g --size 256m --no-store --quiet \
	> "$T/kill.out" 2>&1 &
pid=$!
i=0
while ! grep -q " $T/w/iobattery\.[^/]*/mnt-1 " /proc/self/mounts && [ $i -lt 300 ]; do
	kill -0 $pid 2> /dev/null || break
	sleep 0.1
	i=$((i + 1))
done
grep -q " $T/w/iobattery\.[^/]*/mnt-1 " /proc/self/mounts ||
	{ kill $pid; cat "$T/kill.out"; fail "the first file system never came up"; }
sleep 0.3
kill -KILL $pid
wait $pid
grep -q " $T/w/iobattery\.[^/]*/mnt-" /proc/self/mounts ||
	skip "the killed run had unmounted already (it raced the kill)"

expect_exit 0 "$IOB" battery --cleanup -d "$T/w"
expect_out "removed mount: $T/w/iobattery."
expect_out "removed scratch directory: $T/w/iobattery."
grep -F " $T/w/" /proc/self/mounts && fail "a mount is left after --cleanup"
losetup -a | grep -F "$T/w/" && fail "a loop device is left after --cleanup"
[ "$(ls "$T/w")" = iobattery.decoy1 ] || fail "after --cleanup: $(ls "$T/w")"
[ "$(cat "$T/w/iobattery.decoy1/f")" = keep ] || fail "the look-alike directory was touched"
losetup "$L" > /dev/null 2>&1 || fail "the test's own loop device was detached"
expect_exit 0 "$IOB" battery --cleanup -d "$T/w"
expect_out "nothing to clean up"
exit 0
