# Paths the user did not hand over are never written (issue 23, cases 1-4): iozone -b
# refuses an existing file without --force and, before any I/O, anything that is not a
# regular file (a device node, a directory, a FIFO, a symbolic link); battery --fs
# refuses mkfs and mount options that name a file or a device; IOBATTERY_DB in a missing
# directory is refused and the directory is not made.
. tests/cli/lib
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir w o
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir store


if have_feature xlsxwriter; then
	io() { "$IOB" iozone --no-store --quiet -s 64k -r 4k -i 0 -f w/io "$@"; }
	printf 'precious\n' > o/text
	tree_snap outs o
	expect_exit 2 io -b o/text
	expect_out "refusing to overwrite an existing file: 'o/text': use --force"
	mkdir o/dir
	mkfifo o/fifo
	ln -s text o/link
	tree_snap outs o
	for p in o/dir o/fifo o/link; do
		expect_exit 2 io -b "$p"
		expect_out "not a regular file: '$p'"
		# refused before any I/O: no cell ran
		grep -q "KB" "$T/out" && fail "iozone -b $p ran the matrix"
	done
	expect_exit 2 io -b o/link --force
	expect_out "not a regular file: 'o/link'"
	tree_same outs o
	# a device node: never renamed over (a node of our own, not the machine's)
	if is_root && mknod o/null c 1 3 2>/dev/null; then
		expect_exit 2 io -b o/null --force
		[ -c o/null ] || fail "iozone -b replaced a device node"
		rm -f o/null
	fi
	no_scratch w
	# a new file is written; an existing regular one only with --force
	expect_exit 0 io -b o/new.xlsx
	[ -s o/new.xlsx ] || fail "no workbook written"
	expect_exit 2 io -b o/new.xlsx
	expect_exit 0 io -b o/text --force
	cmp -s o/text o/new.xlsx && fail "identical workbooks?"
	head -c 2 o/text | grep -q PK || fail "--force did not replace the file"
	[ "$(ls o | grep -c '\.xlsx\.\|text\.')" = 0 ] || fail "temporary workbook left: $(ls out)"
fi

# battery --fs: an option naming a file or a device is refused before anything is made
printf 'user data\n' > o/FILE
tree_snap fs "$T/o"
for spec in 'xfs:-l logdev=FILE' 'btrfs:FILE' 'ext4:-J device=o/FILE' 'ext4:-d o' \
	    'ext4:-z o/undo' 'btrfs:--rootdir=o' 'xfs:-d name=FILE' 'xfs:-r rtdev=FILE' \
	    'ext4@journal_path=o/FILE' 'xfs@noatime,logdev=FILE' 'ext4:-q -Xfoo'; do
	expect_exit 2 "$IOB" battery --no-store --dry-run --dir w --size 1m --fs "$spec"
	grep -q "^iobattery: battery: --fs: " "$T/out" || fail "--fs '$spec': no reason given"
done
tree_same fs "$T/o"
# (a --posix-only build refuses every --fs: file systems are made on Linux only)
if ! have_feature posix_only; then
	expect_exit 0 "$IOB" battery --no-store --dry-run --dir w --size 1m \
		--fs 'ext4:-b 4096 -O ^has_journal -E lazy_itable_init=0@noatime,xfs:-m crc=1'
	no_scratch w
fi

# IOBATTERY_DB in a directory that does not exist: refused up front, nothing made
expect_exit 2 env IOBATTERY_DB="$T/none/deeper/x.db" "$IOB" dd if=/dev/zero of=w/f bs=4k count=2
expect_out "the store's directory does not exist: '$T/none/deeper'"
[ -e "$T/none" ] && fail "the store's directory was made"
[ -e w/f ] && fail "dd ran although the store cannot be written"
# the default store's own directory is still made
expect_exit 0 env -u IOBATTERY_DB HOME="$T/home" "$IOB" dd if=/dev/zero of=w/f bs=4k count=2
[ -f "$T/home/.local/share/iobattery/results.db" ] || fail "the default store was not made"
exit 0
