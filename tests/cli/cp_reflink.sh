# cp on a file system that shares blocks (XFS with reflink): copy_file_range returns at
# once; the row must say so instead of reporting a disk rate. A read/write copy on the same
# file system is a real copy and keeps its rate. Needs root, loop devices and mkfs.xfs.
. tests/cli/lib
is_root || skip "needs root to mount a loop device"
have_feature copy_file_range || skip "copy_file_range is not in this build"
have_feature fiemap || skip "FIEMAP (reflink detection) is not in this build"
command -v mkfs.xfs >/dev/null || skip "mkfs.xfs missing (xfsprogs)"
mnt="$T/m"
mkdir "$mnt"
truncate -s 1G "$T/img"
mkfs.xfs -q -m reflink=1 "$T/img" 2>/dev/null || skip "mkfs.xfs cannot make a reflink file system"
mount -o loop "$T/img" "$mnt" 2>/dev/null || skip "cannot mount a loop device"
cleanup_hooks="umount '$mnt' 2>/dev/null;"

expect_exit 0 "$IOB" dd if=/dev/zero of="$mnt/f" bs=1M count=128 --data random --no-store
expect_exit 0 "$IOB" cp --method copy_file_range --no-store "$mnt/f" "$mnt/g"
expect_out "(no disk rate: see below)"
expect_words "faster than memory copies"
expect_out "too_fast:"	# the flag by its one name (stats/flags.c)
cmp -s "$mnt/f" "$mnt/g" || fail "the reflinked copy differs"
expect_exit 0 "$IOB" cp --method copy_file_range --no-store --format json "$mnt/f" "$mnt/h"
expect_out '"too_fast"'
expect_exit 0 "$IOB" cp --method rw --no-store "$mnt/f" "$mnt/i"
if grep -q "too_fast" "$T/out"; then fail "a read/write copy was flagged too fast"; fi
cmp -s "$mnt/f" "$mnt/i" || fail "the rw copy differs"
exit 0
