# A full file system in the middle of a write: the bytes written so far, the file
# removed, exit 1. Needs root to mount a small tmpfs.
. tests/cli/lib
is_root || skip "needs root to mount a tmpfs"
mnt="$T/mnt"
mkdir "$mnt"
mount -t tmpfs -o size=8m tmpfs "$mnt" 2>/dev/null || skip "cannot mount tmpfs"
cleanup_hooks="umount '$mnt' 2>/dev/null;"

# The free-space check refuses up front.
expect_exit 2 "$IOB" dd if=/dev/zero of="$mnt/f" bs=1M count=20
expect_out "not enough free space"
[ ! -e "$mnt/f" ] || fail "file created despite the refusal"

# Without the check the write meets ENOSPC half-way.
expect_exit 1 "$IOB" dd if=/dev/zero of="$mnt/f" bs=1M count=20 --no-space-check
expect_out "No space left on device after"
expect_out "bytes written"
expect_out "the output file was removed"
[ ! -e "$mnt/f" ] || fail "the partial file was left behind"
[ -z "$(ls "$mnt")" ] || fail "files left on the tmpfs: $(ls "$mnt")"

# cp into the full file system: the partial copy removed too.
head -c 12m /dev/zero > "$T/src"
expect_exit 1 "$IOB" cp --no-space-check "$T/src" "$mnt/copy"
expect_out "No space left on device"
[ -z "$(ls "$mnt")" ] || fail "partial copy left on the tmpfs"
exit 0
