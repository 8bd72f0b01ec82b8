# Refused up front with one clear line, or a failure that says what was done (issue 23,
# cases 9-20): iozone sizes that would wrap the free-space sum or the record orders;
# extreme pareto and zipf; offset past 2^63; iodepth above the request pool; an existing
# write_iolog; threads the system refuses; --fs-size 0; fsync's "kept" line only for a
# file that is there; messages and --showcmd without raw control characters; a directory
# as job file; results list on a damaged store. Nothing is left behind.
. tests/cli/lib
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir w keep
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir store
tree_snap keep keep

# 9: sizes that wrapped the free-space sum (SIGSEGV, scratch directory left)
for a in "-s 18014398509481983k" "-t 2 -s 8e" "-s 16t --no-space-check"; do
	# shellcheck disable=SC2086
	expect_exit 2 timeout 60 "$IOB" iozone --no-store --quiet -i 0 -f w/iz $a
	grep -q "^iobattery: iozone: " "$T/out" || fail "iozone $a: no reason"
done
no_scratch w

# 10: pareto:1e-17 and zipf at an extreme theta draw offsets without undefined casts
# (the sanitizer build aborted); 11: offset=2^64-1 wrapped to an empty run with exit 0
job() { "$IOB" job --no-store -d w --name=a --size=256k --bs=4k "$@"; }
expect_exit 0 job --rw=randread --ioengine=null --random_distribution=pareto:1e-17
expect_exit 0 job --rw=randread --ioengine=null --random_distribution=zipf:100
expect_exit 2 job --rw=write --offset=18446744073709551615
expect_out "pass the largest file offset"
# 12: iodepth above the request pool, refused before any layout
expect_exit 2 job --rw=write --iodepth=5000
expect_out "must be at most 4096"
no_scratch w
# 13: an existing write_iolog, refused before the data file is made
printf 'keep me\n' > keep/log
tree_snap keep keep
expect_exit 2 job --rw=write --filename="$T/w/data" --write_iolog="$T/keep/log"
expect_out "write_iolog: the request log exists"
[ -e w/data ] && fail "the data file was made before the iolog was refused"
tree_same keep keep
# 14: threads the system cannot start: said once, exit 1, nothing left
# (not under the sanitizers: their shadow memory cannot be mapped within ulimit -v)
if ! san_build && (ulimit -v 300000 2>/dev/null); then
	(ulimit -v 300000; "$IOB" job --no-store -d w --name=a --size=64k --rw=write \
		--ioengine=null --numjobs=512) > t14.out 2>&1
	rc=$?
	if grep -q "cannot start the step's 512 threads" t14.out; then
		[ $rc -eq 1 ] || fail "threads refused: exit $rc"
	elif [ $rc -ne 0 ]; then
		sed 's/^/  | /' t14.out | tail -5 >&2
		fail "numjobs=512 under ulimit -v failed without saying why (exit $rc)"
	fi
	no_scratch w
fi

# 15: --fs-size 0 is given, and too small (it was taken as the 8 GiB default)
# (a --posix-only build refuses --fs itself first: file systems are made on Linux only)
if ! have_feature posix_only; then
	expect_exit 2 "$IOB" battery --no-store --dry-run -d w --fs ext4 --fs-size 0
	expect_out "--fs-size too small"
fi

# 17: the crash test in a scratch directory does not claim to keep a file it removed
expect_exit 0 "$IOB" fsync --no-store -s 1 -f w --blocks 8 --verify-journal "$T/j17"
grep -q "kept '" "$T/out" && fail "fsync says it kept a file it removed"
no_scratch w

# 19: job-file text in messages and --showcmd: no raw ESC; values quoted for the shell
printf '[a]\nrw=wr\033[2Jite\nsize=64k\n' > esc.fio
expect_exit 2 "$IOB" job --no-store -d w esc.fio
no_ctrl "$T/out"
expect_out 'wr\x1b[2Jite'
printf '[a]\nrw=write\nsize=64k\ndescription=x $(touch %s/pwned) y\nfilename=z\033[2J\n' "$T" \
	> sc.fio
expect_exit 0 "$IOB" job --showcmd sc.fio
no_ctrl "$T/out"
sh -c "set -- $(sed 's/^fio //' "$T/out")" 2>/dev/null
[ -e "$T/pwned" ] && fail "--showcmd printed a command substitution that runs"
# 20: a directory as a job file or include says so
mkdir dir.fio
expect_exit 2 "$IOB" job --no-store dir.fio
expect_out "job: 'dir.fio': Is a directory"
# 20: results list on a damaged store says why
expect_exit 0 "$IOB" dd if=/dev/zero of=w/f bs=4k count=2
rm -f w/f
size=$(stat -c %s "$IOBATTERY_DB")
dd if=/dev/zero bs=1 count=$((size - 4096)) 2>/dev/null | tr '\0' 'U' |
	dd of="$IOBATTERY_DB" bs=4096 seek=1 conv=notrunc 2>/dev/null
expect_exit 1 "$IOB" results list
grep -q "^iobattery: results: " "$T/out" || fail "results list on a damaged store: silent"
tree_same keep keep
exit 0
