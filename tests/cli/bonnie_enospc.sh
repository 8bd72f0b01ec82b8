# bonnie on a full file system: refused up front when the data set cannot fit; without
# the check, the phase that meets ENOSPC fails with a clear message, cleanup, exit 1.
. tests/cli/lib
is_root || skip "needs root to mount a tmpfs"
mnt="$T/mnt"
mkdir "$mnt"
mount -t tmpfs -o size=8m tmpfs "$mnt" 2>/dev/null || skip "cannot mount tmpfs"
cleanup_hooks="umount '$mnt' 2>/dev/null;"

expect_exit 2 "$IOB" bonnie -d "$mnt" -s 16 -r 8 -n 0 -f
expect_out "the data set does not fit"
[ -z "$(ls "$mnt")" ] || fail "created something despite the refusal"

expect_exit 1 "$IOB" bonnie -d "$mnt" -s 16 -r 8 -n 0 -f --no-space-check --quiet
expect_out "put_block failed"
expect_out "No space left on device"
[ -z "$(ls "$mnt")" ] || fail "files left on the tmpfs: $(ls -R "$mnt")"
exit 0
