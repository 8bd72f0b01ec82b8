# battery --fs faults (root): the backing file runs out of space (images on a small
# tmpfs, --no-space-check): that phase fails with the reason and the matrix goes on with
# the next file system; a mkfs that fails: that file system is skipped with mkfs's words
# and the next one runs. Nothing is left either way.
. tests/cli/lib
need_fs_matrix mkfs.ext4 mkfs.xfs losetup jq
mkdir "$T/small" "$T/w" "$T/o" || exit 1
mount -t tmpfs -o size=300m tmpfs "$T/small" || skip "cannot mount a tmpfs"
cleanup_hooks="umount -l '$T/small' 2>/dev/null;"

leftovers() {
	losetup -a | grep -F "$T/" && fail "$1: a loop device is left"
	grep -F " $T/" /proc/self/mounts | grep -v " $T/small " && fail "$1: a mount is left"
	no_scratch "$2"
}

# images of 1 GiB on 300 MiB: the copy of a 200 MiB file cannot fit
expect_exit 1 "$IOB" battery -d "$T/small" --fs 'ext4,ext4:-m 0' --fs-size 1g \
	--no-space-check --size 200m --no-store --quiet --format json --output-dir "$T/o"
j="$T/o/iobattery-results.json"
jq -e '[.rows[] | select(.params.fs_config == "ext4" and (.flags | index("failed")))
	| .error] | length > 0 and all(. != null)' "$j" > /dev/null ||
	fail "no failed phase with its reason on the first file system"
jq -e '[.rows[] | select(.params.fs_config == "ext4:-m 0" and .workload == "dd")]
	| length > 0' "$j" > /dev/null || fail "the matrix did not go on to the second file system"
leftovers "after ENOSPC" "$T/small"
[ -z "$(ls "$T/small")" ] || fail "files left on the small file system: $(ls "$T/small")"

# a mkfs that fails: skipped with mkfs's message, the next file system runs
expect_exit 1 "$IOB" battery -d "$T/w" --fs 'ext4:-b 3,xfs' --fs-size 512m --size 4m \
	--no-store
expect_out "battery: ext4:-b 3 skipped: "
grep -q "ext4:-b 3 skipped: .*block" "$T/out" || fail "mkfs's own words are not in the message"
expect_out "== xfs =="
leftovers "after a failed mkfs" "$T/w"
exit 0
