# The layout as fio's: a new file its jobs only write is given its space without data
# (one fallocate, then the timed writes into reserved blocks), a file a job reads is
# filled with data first. With number_ios=1 only the first block is written in the step,
# so the rest of the write-only file reads as zeros, and the read file's does not.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1
expect_exit 0 "$IOB" job --no-store --quiet --name=w --rw=write --bs=4k --size=8m \
	--number_ios=1 --filename=wonly
[ "$(stat -c %s wonly)" = 8388608 ] || fail "the write-only file is not 8 MiB: $(stat -c %s wonly)"
dd if=wonly bs=1M skip=4 count=1 2> /dev/null | cmp -s - /dev/zero -n 1048576 ||
	fail "the write-only file was filled with data before its step (fio reserves it)"
expect_exit 0 "$IOB" job --no-store --quiet --name=rw --rw=randrw --bs=4k --size=8m \
	--number_ios=1 --filename=rfile
dd if=rfile bs=1M skip=4 count=1 2> /dev/null | cmp -s - /dev/zero -n 1048576 &&
	fail "a file a job reads was not filled with data"
exit 0
