# dd: writes and reads with each conv and flag; dd's lines and the extras are printed.
. tests/cli/lib
cd "$T" || exit 1

expect_exit 0 "$IOB" dd if=/dev/zero of=f bs=4k count=256
expect_out "256+0 records in"
expect_out "256+0 records out"
expect_out "1048576 bytes (1.0 MB, 1.0 MiB) copied"
expect_out "real"
expect_out "durable:"
expect_out "until fdatasync returned (issued by iobattery"
expect_out "latency: p50"
expect_out "cpu:"
[ "$(wc -c < f)" -eq 1048576 ] || fail "file size is not 1048576"
cmp -s f /dev/zero 2>/dev/null; [ $? -le 1 ] || fail "cmp failed"
[ -z "$(tr -d '\000' < f | head -c 1)" ] || fail "zero data expected"

# Rewriting a file iobattery made is allowed; each conv. A build without extended
# attributes cannot mark its files: there every rewrite needs --overwrite, and says so.
ow=""
if ! have_feature xattr; then
	expect_exit 2 "$IOB" dd if=/dev/zero of=f bs=64k count=16
	expect_out "this build cannot mark the files it makes"
	ow=--overwrite
fi
for c in fdatasync fsync notrunc fdatasync,notrunc; do
	expect_exit 0 "$IOB" dd $ow if=/dev/zero of=f bs=64k count=16 conv=$c
	expect_out "16+0 records out"
done
expect_out "until the fdatasync/fsync of conv= returned"

# oflag dsync/sync; direct where the file system allows O_DIRECT.
for fl in dsync sync; do
	expect_exit 0 "$IOB" dd if=/dev/zero of=g_$fl bs=64k count=4 oflag=$fl
done
if "$IOB" dd if=/dev/zero of=d bs=64k count=4 oflag=direct > "$T/out" 2>&1; then
	expect_out "4+0 records out"
	expect_exit 0 "$IOB" dd if=d of=/dev/null bs=64k iflag=direct
	expect_out "4+0 records in"
else
	grep -q "Invalid argument" "$T/out" || fail "oflag=direct failed for another reason"
fi

# Random data differs from zeros and is reproducible with the same seed.
expect_exit 0 "$IOB" dd if=/dev/zero of=r1 bs=4k count=8 --data random --seed 7
expect_exit 0 "$IOB" dd if=/dev/urandom of=r2 bs=4k count=8 --seed 7
cmp -s r1 r2 || fail "same seed gave different random data"
[ -n "$(tr -d '\000' < r1 | head -c 1)" ] || fail "random data is all zeros"

# Read test: from the cache (flagged) and after dropping it.
expect_exit 0 "$IOB" dd if=f of=/dev/null bs=64k
expect_out "16+0 records in"
expect_out "cache:"
expect_exit 0 "$IOB" dd if=f of=/dev/null bs=64k --drop-cache
expect_out "dropped"
# A partial last record, skip and count.
head -c 1000 /dev/zero > odd
expect_exit 0 "$IOB" dd if=odd of=/dev/null bs=512 --overwrite
expect_out "1+1 records in"
expect_exit 0 "$IOB" dd if=f of=/dev/null bs=4k skip=250 count=3
expect_out "3+0 records in"

# File to file with different ibs and obs (reblocking), seek.
expect_exit 0 "$IOB" dd if=f of=c bs=1k count=10 ibs=1k obs=4k
expect_out "10+0 records in"
expect_out "2+1 records out"
[ "$(wc -c < c)" -eq 10240 ] || fail "reblocked copy has the wrong size"
expect_exit 0 "$IOB" dd if=/dev/zero of=s bs=1k count=1 seek=3
[ "$(wc -c < s)" -eq 4096 ] || fail "seek=3 did not place the block at 3 KiB"

# dd's suffixes and products.
expect_exit 0 "$IOB" dd if=/dev/zero of=x bs=1K count=2x3
expect_out "6144 bytes"
expect_exit 0 "$IOB" dd $ow if=/dev/zero of=x bs=1b count=4
expect_out "2048 bytes"

# Machine formats.
expect_exit 0 "$IOB" dd if=/dev/zero of=j bs=4k count=4 --format json
expect_out '"schema_version": 1'
expect_out '"records_out_full"'
expect_exit 0 "$IOB" dd $ow if=/dev/zero of=j bs=4k count=4 --format csv
head -n 1 "$T/out" | grep -q workload || fail "csv has no header"
mkdir od
expect_exit 0 "$IOB" dd $ow if=/dev/zero of=j bs=4k count=4 --format text,json,csv --output-dir od
[ -s od/iobattery-results.json ] && [ -s od/iobattery-results.csv ] &&
	[ -s od/iobattery-results.txt ] || fail "--output-dir did not get every format"
grep -q '"fs_type"' od/iobattery-results.json || fail "environment missing from json"
# Repeats: one row each, on the same file.
expect_exit 0 "$IOB" dd if=/dev/zero of=rep bs=64k count=8 --repeat 3 --format csv
[ "$(grep -c ',dd,write,' "$T/out")" -eq 3 ] || fail "--repeat 3 did not give 3 rows"
expect_exit 0 "$IOB" cp --repeat 2 --format csv rep rep2
[ "$(grep -c ',cp,copy,' "$T/out")" -eq 2 ] || fail "cp --repeat 2 did not give 2 rows"
exit 0
