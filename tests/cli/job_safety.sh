# What `iobattery job` may touch, and bad input: each refusal is one line naming the job
# file (or argument), section and line, exits 2 and creates nothing. An existing file is
# read but written only with --overwrite; a symbolic link and a device are refused; a
# file with holes is not read; a loop device made here is written only when
# --destroy-data-on names it and it holds no signature. The user's files come out
# untouched.
. tests/cli/lib
data=$PWD/tests/data/jobs
mkdir "$T/w" && cd "$T/w" || exit 1
echo "the user's own file" > keep.txt
sum0=$(cksum keep.txt)

refused() { # TEXT ARGS...: exit 2, the message holds TEXT, nothing new in .
	t=$1; shift
	before=$(ls)
	expect_exit 2 "$IOB" job --no-store "$@"
	expect_out "$t"
	no_scratch .
	[ "$(ls)" = "$before" ] || fail "files were created: $(ls)"
}
refused "line 3, section [a]: unknown option 'foo'" "$data/bad/unknown-option.fio"
refused "section [a]: invalid 'bs=0'" --name=a --rw=read --bs=0 --size=1m
refused "invalid 'iodepth=0'" --name=a --rw=read --iodepth=0 --size=1m
refused "invalid 'numjobs=-1'" --name=a --rw=read --numjobs=-1 --size=1m
refused "invalid 'rwmixread=150'" --name=a --rw=randrw --rwmixread=150 --size=1m
refused "the files do not fit" --name=a --rw=read --size=100t
refused "no job section called 'nope'" "$data/rand-read.fio" --section nope
refused "size= is required" --name=a --rw=read
refused "refusing to write a file iobattery did not create: '$T/w/keep.txt': use --overwrite" \
	--name=a --rw=write --size=4k --filename="$T/w/keep.txt"
refused "shorter" --name=a --rw=read --size=1m --filename="$T/w/keep.txt"
ln -s keep.txt link
refused "refusing to follow a symbolic link" --name=a --rw=read --size=4k --filename=link
rm link
refused "refusing to use the block device '/dev/loop0'" --name=a --rw=read --size=4k \
	--filename=/dev/loop0
[ "$(cksum keep.txt)" = "$sum0" ] || fail "the user's file changed"

# an existing file is read as it is, and written with --overwrite (then kept)
dd if=/dev/urandom of=data.bin bs=64k count=4 2> /dev/null
sum1=$(cksum data.bin)
expect_exit 0 "$IOB" job --no-store -q --name=r --rw=randread --size=256k --filename=data.bin
[ "$(cksum data.bin)" = "$sum1" ] || fail "a read job changed the file"
expect_exit 0 "$IOB" job --no-store -q --name=w --rw=randwrite --size=256k --filename=data.bin \
	--overwrite
[ -f data.bin ] || fail "--overwrite removed the user's file"
[ "$(cksum data.bin)" != "$sum1" ] || fail "--overwrite wrote nothing"
# a named new file is made, kept afterwards and may be written again
expect_exit 0 "$IOB" job --no-store -q --name=n --rw=write --size=64k --filename=new.bin
[ "$(wc -c < new.bin)" = 65536 ] || fail "the named new file is not 64 KiB"
# holes: reading them measures nothing
truncate -s 1m sparse.bin
expect_exit 2 "$IOB" job --no-store --name=h --rw=randread --size=1m --filename=sparse.bin
expect_out "has holes"
rm -f data.bin new.bin sparse.bin
no_scratch .

# a loop device: refused without --destroy-data-on or with a signature on it
if is_root && command -v losetup > /dev/null 2>&1; then
	loop=""
	cleanup_hooks='[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null;'
	truncate -s 16M "$T/img" || fail "cannot make an image"
	loop=$(losetup -f --show "$T/img" 2>/dev/null) || loop=""
	if [ -n "$loop" ]; then
		expect_exit 2 "$IOB" job --no-store --name=d --rw=write --size=1m --filename="$loop"
		expect_out "--destroy-data-on $loop"
		expect_exit 2 "$IOB" job --no-store --name=d --rw=write --size=1m --filename="$loop" \
			--destroy-data-on /dev/null
		expect_exit 0 "$IOB" job --no-store -q --name=d --rw=write --bs=64k --size=1m \
			--filename="$loop" --destroy-data-on "$loop"
		printf 'XFSB' | dd of="$loop" conv=notrunc 2> /dev/null
		sync
		expect_exit 2 "$IOB" job --no-store --name=d --rw=write --size=1m --filename="$loop" \
			--destroy-data-on "$loop"
		expect_out "xfs signature"
		losetup -d "$loop"
		loop=""
	else
		echo "skip the loop device part: cannot attach one"
	fi
else
	echo "skip the loop device part: needs root and losetup"
fi
[ "$(cksum keep.txt)" = "$sum0" ] || fail "the user's file changed"
exit 0
