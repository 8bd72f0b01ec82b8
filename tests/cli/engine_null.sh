# The null engine: no I/O, so the figures are the tool's own cost per call; the records
# still add up as dd's.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1
expect_exit 0 "$IOB" dd if=/dev/zero of=f bs=1k count=100000 --engine null
expect_out "100000+0 records out"
expect_out "102400000 bytes"
[ "$(wc -c < f)" -eq 0 ] || fail "the null engine wrote data"
expect_exit 2 "$IOB" dd if=/dev/zero of=g bs=1k count=1 --engine bogus
expect_out "unknown engine"
exit 0
