# battery: bad input is one clear line, exit 2, and nothing is created (no scratch
# directory, no image, no loop device); --dry-run probes, prints the plan, and leaves
# nothing behind.
. tests/cli/lib
mkdir "$T/w" || exit 1
echo data > "$T/w/user-file"

bad() { # WHAT-TO-FIND ARGS...: exit 2, one line naming it, nothing made in $T/w
	msg=$1; shift
	expect_exit 2 "$IOB" battery -d "$T/w" --no-store "$@"
	expect_out "$msg"
	[ "$(wc -l < "$T/out")" -eq 1 ] || { cat "$T/out"; fail "more than one line for: $*"; }
	grep -q '^iobattery: ' "$T/out" || fail "not an iobattery message: $(cat "$T/out")"
	[ "$(ls "$T/w")" = user-file ] || fail "something was created for: $* ($(ls "$T/w"))"
}

bad "bad --budget: '0'" --budget 0
bad "bad --budget: '3'" --budget 3
bad "bad --budget: '5x'" --budget 5x
bad "bad --size: '0'" --size 0
bad "bad --size: 'big'" --size big
bad "unexpected operand" extra
bad "not a writable directory" -d "$T/none"
bad "--fs-size needs --fs" --fs-size 1g
bad "--destroy-data-on needs --fs" --destroy-data-on "$T/w/user-file"
if is_root; then
	bad "unknown file system: 'zfs'" --fs ext4,zfs
	bad "given twice: 'ext4'" --fs ext4,xfs,ext4
	bad "empty options" --fs 'xfs@'
fi
if is_root && have_feature posix_only; then	# no loop devices or mkfs in such a build
	bad "file systems are made on Linux only: 'xfs'" --fs xfs --fs-size 100m
elif is_root; then
	bad "--fs-size too small" --fs xfs --fs-size 100m
	bad "--fs-size larger than the free space" --fs ext4 --fs-size 64t
	bad "not a block device" --fs ext4 --destroy-data-on "$T/w/user-file"
	bad "--force-wipe must name the --destroy-data-on device again" --fs ext4 \
		--destroy-data-on /dev/null --force-wipe /dev/zero
else
	bad "--fs needs root" --fs ext4
fi
bad "the null engine moves no data" --engine null
bad "--steps: unknown step: 'bogus'" --steps dd,bogus
bad "--steps: no step given: ','" --steps ,
bad "bad --job-engine: 'mmap'" --job-engine mmap
expect_exit 2 "$IOB" run -d "$T/w" --budget 3 --no-store --no-json
expect_out "bad --budget: '3'"
losetup -a 2>/dev/null | grep -q "$T" && fail "a loop device over a file of the test"

# the dry run: the probe in a scratch directory, the plan on stdout, nothing left
expect_exit 0 "$IOB" battery -d "$T/w" --budget 1m --dry-run --no-store
expect_out "plan for "
expect_out "dd write bs=1M"
expect_out "expected "
grep -Eq '^  (bonnie|postmark|iozone|db sqlite) ' "$T/out" || fail "no step lines in the plan"
[ "$(ls "$T/w")" = user-file ] || fail "the dry run left: $(ls "$T/w")"
[ "$(cat "$T/w/user-file")" = data ] || fail "the user's file changed"

# nothing fits a second: every step says why, the run fails and writes nothing
expect_exit 1 "$IOB" battery -d "$T/w" --budget 1s --no-store --quiet
expect_out "nothing can be measured honestly"
[ "$(ls "$T/w")" = user-file ] || fail "a failed run left: $(ls "$T/w")"
exit 0
