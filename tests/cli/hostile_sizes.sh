# Sizes times counts that pass 2^64 (or the largest file offset) are refused before any
# I/O: dd seek=/skip= times the block size, bonnie -s times 1 MiB. Exit 2, the operand
# named, the existing file untouched and nothing written beside it.
. tests/cli/lib
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir w
head -c 1048576 /dev/urandom > w/f
sum=$(cksum < w/f)
tree_snap w "$T/w"

# seek= 2^44 blocks of 1 MiB wraps to offset 0: refused, the start of f not overwritten
expect_exit 2 "$IOB" dd --no-store if=/dev/zero of=w/f seek=17592186044416 bs=1M count=1 \
	conv=notrunc --overwrite
expect_out "dd: offset too large: 'seek=17592186044416'"
[ "$(cksum < w/f)" = "$sum" ] || fail "seek= wrapped and overwrote the file"
expect_exit 2 "$IOB" dd --no-store if=w/f of=/dev/null skip=18446744073709551615 bs=2
expect_out "dd: offset too large: 'skip=18446744073709551615'"
# the end of the output (seek + count) past 2^63
expect_exit 2 "$IOB" dd --no-store if=/dev/zero of=w/f seek=8796093022207 bs=1M count=2 \
	conv=notrunc --overwrite
expect_out "offset too large"
tree_same w "$T/w"

# bonnie -s 2^44+1 MiB wrapped to 1 MiB and was measured and stored as a 16 EiB run
expect_exit 2 "$IOB" bonnie --no-store -s 17592186044417 -n 0 -d "$T/w" -r 0 -f \
	--no-space-check
expect_out "bonnie: bad size: '17592186044417': too large"
expect_exit 2 "$IOB" bonnie --no-store -s 131072t -c 64 -n 0 -d "$T/w" -r 0 -f --no-space-check
expect_out "too large"
no_scratch "$T/w"
tree_same w "$T/w"
exit 0
