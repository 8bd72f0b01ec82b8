# battery --fs where nothing fits (issue 23, case 15, root): the matrix is planned before
# the first image, mkfs or wipe, so a run that cannot hold a step is refused with exit 2
# and one line, and nothing is made or written: a --destroy-data-on device (a loop device
# of the test's own, filled with a pattern) too small for the probe of a planned battery
# or for a hand-sized one, a budget too short for the matrix on a device that is large
# enough, and the same on loop images (--fs-size). The pattern is whole after each; no
# scratch directory, image, loop device or mount is left.
. tests/cli/lib
need_fs_matrix mkfs.ext4 losetup sha256sum
cd "$T" || exit 1
mkdir w
small="" big=""
cleanup_hooks='[ -n "$small" ] && losetup -d "$small" 2>/dev/null;
[ -n "$big" ] && losetup -d "$big" 2>/dev/null;'
# every byte of each device a pattern of the test's
yes "iobattery hostile_wipe small" | head -c $((64 << 20)) > small.img &&
	yes "iobattery hostile_wipe big" | head -c $((256 << 20)) > big.img ||
	fail "cannot write the images"
small=$(losetup -f --show small.img 2> /dev/null) || skip "cannot attach a loop device"
big=$(losetup -f --show big.img 2> /dev/null) || skip "cannot attach a loop device"
sum_small=$(sha256sum < "$small") sum_big=$(sha256sum < "$big")

untouched() { # WHEN
	[ "$(sha256sum < "$small")" = "$sum_small" ] || fail "$1: the 64 MiB device was written"
	[ "$(sha256sum < "$big")" = "$sum_big" ] || fail "$1: the 256 MiB device was written"
	[ -z "$(ls w)" ] || fail "$1: something was made: $(ls w)"
	losetup -a | grep -F "$T/w" && fail "$1: a loop device over an image is left"
	grep -F " $T/" /proc/self/mounts && fail "$1: a mount is left"
	return 0
}

# a planned battery: its probe alone writes 192 MiB, more than 64 MiB can hold
expect_exit 2 "$IOB" battery -d w --fs ext4 --destroy-data-on "$small" --force-wipe "$small" \
	--no-store
expect_out "battery: nothing fits --destroy-data-on: '$small': a file system of 64 MiB"
expect_out "cannot hold the probe of a planned battery, which writes 192 MiB"
expect_out "nothing was written to it"
[ "$(grep -c . "$T/out")" = 1 ] || { cat "$T/out"; fail "more than one line"; }
untouched "planned on 64 MiB"

# hand-sized: no step of --size 256m fits 64 MiB
expect_exit 2 "$IOB" battery -d w --fs ext4 --destroy-data-on "$small" --force-wipe "$small" \
	--size 256m --no-store
expect_out "holds no step of --size 256 MiB"
expect_out "(dd write bs=1k: needs 256 MiB, 64 MiB free)"
untouched "hand-sized on 64 MiB"

# a device large enough, a budget too short for two file systems of a second each
expect_exit 2 "$IOB" battery -d w --fs ext4,ext4:-m0 --destroy-data-on "$big" \
	--force-wipe "$big" --budget 3s --no-store
expect_out "battery: --budget too short for the file-system matrix: '3s': 2 passes"
untouched "a short budget on 256 MiB"

# the same on loop images of our own: nothing is made, no scratch directory
expect_exit 2 "$IOB" battery -d w --fs ext4 --fs-size 100m --no-store
expect_out "battery: nothing fits --fs-size: '100 MiB'"
expect_exit 2 "$IOB" battery -d w --fs ext4,ext4:-m0 --fs-size 300m --budget 2s --dry-run \
	--no-store
expect_out "--budget too short"
untouched "loop images"

# what fits is not refused: the hand-sized battery on the 256 MiB device wipes and runs
expect_exit 0 "$IOB" battery -d w --fs ext4 --destroy-data-on "$big" --force-wipe "$big" \
	--size 4m --steps dd-1m --no-store --quiet
[ "$(sha256sum < "$big")" != "$sum_big" ] || fail "the run that fits did not write the device"
no_scratch w
exit 0
