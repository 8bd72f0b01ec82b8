# Bad bonnie input: one clear line, exit 2, nothing created.
. tests/cli/lib
mkdir "$T/d" || exit 1
bad() {
	msg=$1; shift
	expect_exit 2 "$IOB" bonnie -d "$T/d" -r 8 "$@"
	expect_out "$msg"
	[ "$(wc -l < "$T/out")" -eq 1 ] || fail "more than one line for: $*"
	[ -z "$(ls "$T/d")" ] || fail "created something for: $*"
}
bad "size smaller than the chunk" -s 4k:8k
bad "must be a power of two from 256 to 1048576" -s 64:1000
bad "must be a power of two from 256 to 1048576" -s 64:128
bad "must be a power of two from 256 to 1048576" -s 64:2m
bad "the maximum is below the minimum" -n 1:0:5
bad "bad size: '64x'" -s 64x
bad "bad number of files: '5q'" -n 5q
bad "bad RAM size" -r 1z
bad "unknown option: '-Q'" -Q
bad "unexpected operand" junk
bad "nothing to do" -s 0 -n 0
bad "bad --char-method" --char-method byte
expect_exit 2 "$IOB" bonnie -d "$T/nonexistent" -s 16 -n 0
expect_out "cannot use directory: '$T/nonexistent'"
touch "$T/file"
expect_exit 2 "$IOB" bonnie -d "$T/file" -s 16 -n 0
expect_out "not a directory"
if ! is_root; then
	mkdir "$T/ro" && chmod 500 "$T/ro"
	expect_exit 2 "$IOB" bonnie -d "$T/ro" -s 16 -n 0
	expect_out "cannot write in directory"
fi
# A data set that cannot fit (a petabyte).
bad "the data set does not fit" -s 1000000000 -n 0
exit 0
