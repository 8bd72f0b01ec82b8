# import: the seeds' Bonnie++ CSV lines (1.03, 1.93c, also quoted and wrapped in mail),
# Debian's bonnie++ 2.00a lines, PostMark reports, dd and time output; '+++++' becomes
# not measured; junk is reported by line number; a bad file means nothing is written.
. tests/cli/lib
D=tests/data
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
mkdir "$T/res" || exit 1

expect_exit 0 "$IOB" import --verbose -o "$T/res" --label seeds $D/bonnie-103.csv $D/bonnie-193c.csv \
	$D/bonnie-193c-mail.txt $D/bonnie-200a.csv $D/postmark-seed.txt $D/postmark-151.txt \
	$D/postmark-terse.txt $D/dd-time-bsd.txt $D/time-bash.txt $D/dd-bsd-read.txt
expect_out "imported: bonnie++ 1.0x 'localhost.localdomain' from $D/bonnie-103.csv:1"
expect_out "imported: bonnie++ 1.93c 'sc400.e--station.com' from $D/bonnie-193c-mail.txt:34"
expect_out "imported: bonnie++ 2.00a 'vm' from $D/bonnie-200a.csv:1"
expect_out "imported: postmark 1.51"
expect_out "store id 21"
set -- "$T"/res/iobattery-import-*.json
[ $# -eq 21 ] || fail "expected 21 result files, got $#"

f="$T/res/iobattery-import-imp-b44be2361e541dc7.json"	# the first 1.03 line
grep -q '"imported": true' "$f" || fail "run not marked imported"
grep -q '"not_measured"' "$f" || fail "+++++ not marked not measured"
grep -q '"rate": 24983' "$f" || fail "per-character output figure lost"
grep -q '"char_method": "putc"' "$f" || fail "1.03 char method"

"$IOB" results list --label seeds > "$T/list" 2>&1 || fail "results list"
[ "$(grep -c imported "$T/list")" -eq 21 ] || fail "21 imported runs expected in the store"

# importing again: same ids, nothing duplicated
expect_exit 0 "$IOB" import --verbose -o "$T/res" $D/bonnie-200a.csv
expect_out "(already there), store id 8 (already stored)"

# junk: reported by line number, nothing to import, nothing written
mkdir "$T/junk" || exit 1
expect_exit 2 "$IOB" import --verbose -o "$T/junk" $D/junk.txt
expect_out "skipped line 1: '$D/junk.txt'"
expect_out "skipped line 3: '$D/junk.txt': bonnie++ 1.9x csv line with"
expect_out "nothing to import"
# a good file and a missing one: nothing written
expect_exit 2 "$IOB" import --verbose -o "$T/junk" --no-store $D/bonnie-103.csv "$T/missing.txt"
expect_out "cannot read: '$T/missing.txt'"
[ -z "$(ls "$T/junk")" ] || fail "files written although an input was missing"
head -c 20000 /dev/urandom > "$T/random.bin"
expect_exit 2 "$IOB" import --verbose -o "$T/junk" --no-store "$T/random.bin"
expect_exit 2 "$IOB" import
expect_exit 2 "$IOB" import --verbose -o "$T/nodir" $D/bonnie-103.csv
exit 0
