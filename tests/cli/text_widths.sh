# The battery's text reads in an 80-column terminal: the tables of a two-file-system
# battery's text (results show of tests/data/battery-2fs.json) fit 80 columns, none of
# their lines wraps in an 80-column tmux pane, and no line of the text is over 100; a
# row's own lines are wrapped at 80 (a dd on the null engine, with its flags). Each configuration has its heading with its file
# system, every flag the JSON carries is shown by its name, byte rates are all in one
# unit family (MB/s), and a line break inside a value never prints as \x0a.
. tests/cli/lib
fx=tests/data/battery-2fs.json
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
expect_exit 0 "$IOB" import "$fx"
expect_exit 0 "$IOB" results show 1
cp "$T/out" "$T/show"
awk 'length($0) > 100 { print NR ": " length($0) ": " $0; bad = 1 } END { exit bad }' \
	"$T/show" || fail "lines wider than 100 columns"
# the configurations' tables, from the first heading on, fit 80 columns
sed -n '/^== /,$p' "$T/show" > "$T/tables"
awk 'length($0) > 80 { print NR ": " length($0) ": " $0; bad = 1 } END { exit bad }' \
	"$T/tables" || fail "table lines wider than 80 columns"
grep -q '^== ext4 ==$' "$T/show" || fail "no ext4 heading"
grep -q '^== xfs ==$' "$T/show" || fail "no xfs heading"
sed -n '/^== xfs ==$/{n;p;}' "$T/show" | grep -q '^file system xfs ' ||
	fail "the xfs heading does not say 'file system xfs'"
grep -c '^bonnie ' "$T/show" | grep -qx 2 || fail "bonnie's rows not once per configuration"
grep -F -q '\x0a' "$T/show" && fail "a line break printed as \\x0a"
grep -E -q 'MiB/s|KiB/s|K/sec' "$T/show" && fail "more than one unit family in the tables"
# every flag of the JSON rows, by its name, as often as the rows carry it
for fl in short steal device_idle writeback_pending; do
	want=$(grep -c "^ *\"$fl\"" "$fx")
	got=$(grep '^  flags: ' "$T/show" | grep -o "\b$fl\b" | wc -l)
	[ "$want" = "$got" ] || fail "flag $fl: $want rows in the JSON, $got in the text"
done
# a row's own lines (flags in words, the ceilings behind them, CPU, latency, notes) are
# wrapped at 80 columns: a dd on the null engine carries the longest of them
expect_exit 0 "$IOB" dd if=/dev/zero of="$T/dd" bs=512 count=200000 --engine null --no-store
awk 'length($0) > 80 { print NR ": " length($0) ": " $0; bad = 1 } END { exit bad }' \
	"$T/out" || fail "a dd row's lines wider than 80 columns"
expect_words "tool_bound: within 10% of the tool's own limit at these settings"
rm -f "$T/dd"
# the same text in a real 80-column terminal: no line wraps (a wrapped line is two
# screen lines that capture-pane -J joins into one)
command -v tmux > /dev/null || skip "tmux is not installed (scripts/install-deps test)"
sock="$T/tmux.sock"
cleanup_hooks="tmux -S '$sock' kill-server > /dev/null 2>&1;"
tmux -S "$sock" new-session -d -x 80 -y 50 "cat '$T/tables'; sleep 30" ||
	skip "tmux cannot start a session here"
sleep 1
cols=$(tmux -S "$sock" display-message -p '#{pane_width}')
[ "$cols" = 80 ] || skip "the pane is $cols columns, not 80"
tmux -S "$sock" capture-pane -p -S - > "$T/screen" || fail "capture-pane failed"
tmux -S "$sock" capture-pane -p -J -S - > "$T/joined" || fail "capture-pane -J failed"
[ "$(grep -c . "$T/screen")" = "$(grep -c . "$T/joined")" ] ||
	{ diff "$T/screen" "$T/joined" | head >&2; fail "lines wrap in an 80-column pane"; }
grep -q '^== xfs ==' "$T/screen" || fail "the pane does not show the text"
exit 0
