# cp: every method copies the bytes exactly and names itself; bad input exits 2.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1
"$IOB" dd if=/dev/zero of=src bs=64k count=40 --data random --quiet >/dev/null || fail "dd"

# auto picks copy_file_range where the build has it, else the read/write loop; a method
# the build lacks (./configure --posix-only, a BSD) is refused, not attempted
auto=rw
have_feature copy_file_range && auto=copy_file_range
for m in auto rw copy_file_range sendfile; do
	if [ $m != auto ] && [ $m != rw ] && ! have_feature $m; then
		expect_exit 2 "$IOB" cp --method $m src dst_$m
		expect_out "method not in this build: '$m'"
		[ ! -e dst_$m ] || fail "method $m: a file was made"
		continue
	fi
	expect_exit 0 "$IOB" cp --method $m src dst_$m
	cmp -s src dst_$m || fail "method $m: the copy differs from the source"
	case $m in
	auto) expect_out "copied by $auto" ;;
	*) expect_out "copied by $m" ;;
	esac
	expect_out "durable:"
	expect_out "source cache:"
done
expect_exit 0 "$IOB" cp --method rw --buffer 4k src dst_small
expect_out "with a 4096-byte buffer"
cmp -s src dst_small || fail "4k buffer copy differs"
# Into a directory, as cp does; a file iobattery made may be copied over.
mkdir sub
expect_exit 0 "$IOB" cp src sub
cmp -s src sub/src || fail "copy into a directory"
# without extended attributes a build cannot tell its own files: --overwrite then
ow=""
have_feature xattr || ow=--overwrite
expect_exit 0 "$IOB" cp $ow src sub
expect_exit 0 "$IOB" cp $ow --format json src dst_rw
expect_out "\"method\": \"$auto\""

# Bad input.
echo user > userfile
expect_exit 2 "$IOB" cp src userfile
expect_out "refusing to overwrite a file iobattery did not create"
[ "$(cat userfile)" = user ] || fail "user file modified"
expect_exit 2 "$IOB" cp nosuch dst
expect_out "cannot read source"
expect_exit 2 "$IOB" cp src
expect_out "missing operand"
expect_exit 2 "$IOB" cp --method bogus src d2
expect_out "unknown method"
[ ! -e d2 ] || fail "created a file on bad input"
expect_exit 2 "$IOB" cp src src
expect_exit 2 "$IOB" cp --engine null src d3
expect_out "does no I/O"
exit 0
