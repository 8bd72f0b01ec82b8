# Every row says which configuration it belongs to: in the CSV (columns fs,
# mkfs_options, mount_options, kernel, device), in the text (a heading per file system)
# and in results show of a battery, which prints the battery's own text.
. tests/cli/lib
fx=tests/data/battery-2fs.json
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
expect_exit 0 "$IOB" import "$fx"
expect_exit 0 "$IOB" results export 1 --format csv
head -n 1 "$T/out" | grep -q ',note,fs,mkfs_options,mount_options,kernel,device$' ||
	fail "CSV header lacks the configuration: $(head -n 1 "$T/out")"
# the last five fields of each record (a quoted field may span lines: joined first; no
# field of the fixture's rows holds a comma)
tail -n +2 "$T/out" | awk '{ rec = rec $0; q += gsub(/"/, "\"", $0)
	if (q % 2 == 0) { print rec; rec = ""; q = 0 } else rec = rec " " }' |
	awk -F, '{ print $(NF-4) "|" $(NF-1) "|" $NF }' | sort | uniq -c > "$T/conf"
grep -q ' ext4|6.18.44-fc-v669|loop over a file on vda$' "$T/conf" || { cat "$T/conf" >&2; fail "no ext4 rows"; }
grep -q ' xfs|6.18.44-fc-v669|loop over a file on vda$' "$T/conf" || { cat "$T/conf" >&2; fail "no xfs rows"; }
[ "$(wc -l < "$T/conf")" = 2 ] || { cat "$T/conf" >&2; fail "a row without its configuration"; }
# results show of a battery: the battery's text, not the tools' outputs run together
expect_exit 0 "$IOB" results show 1
grep -q 'records in' "$T/out" && fail "results show prints dd's closing lines, not the battery's text"
grep -q '^== ext4 ==$' "$T/out" || fail "results show has no ext4 heading"
grep -q '^file system ext4 ' "$T/out" || fail "results show does not name the file system"
grep -q 'data directory ?' "$T/out" && fail "a header of placeholders"
exit 0
