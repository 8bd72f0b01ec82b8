# --units: the tables' and the verdict's byte rates in one family, decimal MB/s by
# default or binary MiB/s; a bad value is a usage error (exit 2).
. tests/cli/lib
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
expect_exit 0 "$IOB" import tests/data/battery-2fs.json
expect_exit 0 "$IOB" results show 1
awk '/^figure /{t=1; next} /^\(/{t=0} t' "$T/out" > "$T/dec"
grep -q ' MB/s ' "$T/dec" || fail "no MB/s by default"
grep -q 'MiB/s\|KiB/s\|K/sec' "$T/dec" && fail "binary units in the decimal tables"
expect_exit 0 "$IOB" results show 1 --units binary
awk '/^figure /{t=1; next} /^\(/{t=0} t' "$T/out" > "$T/bin"
grep -q ' MiB/s ' "$T/bin" || fail "no MiB/s with --units binary"
grep -q ' [kMG]\?B/s ' "$T/bin" && fail "decimal units in the binary tables"
grep -q '^dd write bs=1K  *126 MiB/s' "$T/bin" || fail "133 MB/s is not 126 MiB/s"
# the verdict's figures too (the block above the first table)
sed -n '1,/^== /p' "$T/out" > "$T/verdict"
grep -q 'ext4 99.5 MiB/s' "$T/verdict" || { cat "$T/verdict"; fail "the verdict is not in MiB/s"; }
grep -q ' [kMG]\?B/s' "$T/verdict" && fail "decimal units in the binary verdict"
expect_exit 2 "$IOB" results show 1 --units furlongs
expect_out "bad value for --units"
expect_exit 2 "$IOB" dd --units furlongs if=/dev/zero of="$T/f" bs=4k count=1
[ -e "$T/f" ] && fail "dd wrote with a bad --units"
exit 0
