# iozone: a small grid through the real binary: one row per pass of each cell with the
# byte totals exact, iozone's table (two header rows, a line per cell with its kB and
# reclen), the -R blocks (record sizes across, file sizes down, a cell iozone skips
# blank, never 0), the tidy CSV, and -w keeping the file in its scratch directory.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1

# 64k..256k files by 16k..64k records: 3 x 3 cells, write and read (no re- passes)
expect_exit 0 "$IOB" iozone -n 64k -g 256k -y 16k -q 64k -i 0 -i 1 -+n --no-store \
	--format text,json --output-dir "$T" --quiet
cp "$T/iobattery-results.txt" "$T/table.txt"
python3 - "$T/iobattery-results.json" << 'PY' || fail "the rows are not the grid's"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
cells = [(f, r) for f in (64, 128, 256) for r in (16, 32, 64)]
want = [(f, r, p) for f, r in cells for p in ("write", "read")]
got = [(int(w["params"]["file_kb"]), int(w["params"]["reclen_kb"]), w["phase"]) for w in rows]
assert got == want, got
for w in rows:
    f, r = int(w["params"]["file_kb"]), int(w["params"]["reclen_kb"])
    assert w["bytes"] == f * 1024, (w["phase"], f, r, w["bytes"])
    assert w["ops"] >= f // r, w
    assert w["rate_unit"] == "kB/s"
    assert w["latency"]["n"] == f // r, w["latency"]
    assert "p99_ns" in w["latency"]
    assert any(m["name"] == "ram_speed" for m in w["metrics"])
    if w["phase"] == "read":
        assert 0 <= w["cache_pct"] <= 100 and "cache:" in w["note"]
assert d["options"]["page_cache_bytes"]
PY
grep -q '^ *kB  reclen    write  rewrite    read    reread    read     write' "$T/table.txt" ||
	{ cat "$T/table.txt"; fail "no iozone header row"; }
grep -q 'random    random     bkwd    record    stride' "$T/table.txt" || fail "no top header"
n=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' "$T/table.txt")
[ "$n" = 9 ] || { cat "$T/table.txt"; fail "expected 9 table lines, got $n"; }
# the table as iozone's own readers (report.pl, iozone_visualizer.pl, iozone2csv) take
# it: after the "kB  reclen" header row, every line up to the first blank one holds
# only digits and blanks, file kB first, reclen second, then one figure per measured
# pass; nothing of ours (a cache mark, a note) inside that block
awk '/^ +kB +reclen +write/ { inb = 1; next }
     inb && /^$/ { inb = 0; done = 1; next }
     inb { if ($0 !~ /^[ 0-9]+$/ || NF != 4) { print "not iozone: " $0; bad++ } else rows++ }
     END { if (!done || bad || rows != 9) { print "rows " rows ", bad " bad; exit 1 } }' \
	"$T/table.txt" || { cat "$T/table.txt"; fail "iozone's table shape broken"; }
grep -q '\*' "$T/table.txt" && grep -E '^ +[0-9]+ +[0-9]+ .*\*' "$T/table.txt" &&
	fail "a cache mark inside the table"
# the cells that measured RAM are listed after the table, each by file and record size
grep -E '^	RAM, not the device: [0-9]+ of 18 cells' "$T/table.txt" > /dev/null ||
	fail "no RAM legend"
m=$(sed -n 's/^	RAM, not the device: \([0-9]*\) of.*/\1/p' "$T/table.txt")
listed=$(grep '^	  cell [0-9]* kB/[0-9]* kB:' "$T/table.txt" | tr ' ' '\n' |
	grep -cxE 'write|read')
[ "$listed" = "$m" ] || { cat "$T/table.txt"; fail "legend lists $listed cells, says $m"; }
grep -qE '^ {13}256 {6}64 ' "$T/table.txt" || fail "kB and reclen not in iozone's widths"
grep -q 'iozone test complete.' "$T/table.txt" || fail "no closing line"
grep -q 'cache cliff' "$T/table.txt" || fail "no cache cliff line"
no_scratch .
[ -z "$(ls)" ] || fail "files left behind: $(ls)"

# -R: a 16 MB file has every record, a 32 MB one starts at 64 kB (iozone's crossover):
# its row leaves the four small records blank (""), never 0; the null engine moves no
# data, so this is quick
expect_exit 0 "$IOB" iozone -a -n 16m -g 32m -i 0 -R --engine null --no-store --quiet
expect_out 'Excel output is below:'
expect_out '"Writer report"'
expect_out '"Re-writer report"'
grep -A4 '"Writer report"' "$T/out" > "$T/block"
head -n 2 "$T/block" | tail -n 1 | grep -q '^        "4"  "8"  "16"  "32"  "64"  "128"' ||
	{ cat "$T/block"; fail "record sizes not across the top"; }
grep -qE '^"16384"  ( [0-9]+ ){13}$' "$T/block" || { cat "$T/block"; fail "16 MB row"; }
grep -qE '^"32768"  ( "" ){4}( [0-9]+ ){9}$' "$T/block" ||
	{ cat "$T/block"; fail "32 MB row: skipped cells are not blank"; }
grep -q ' 0 ' "$T/block" && fail "a 0 in the report block"

# CSV: the tidy long table
expect_exit 0 "$IOB" iozone -s 128k -r 32k -r 64k -i 0 --format csv --no-store --quiet
head -n 1 "$T/out" |
	grep -qx 'test,pass,file_kb,reclen_kb,kb_per_s,repeat,workers,cache_pct,ram_speed,flags' ||
	fail "csv header: $(head -n 1 "$T/out")"
[ "$(grep -c '^0,write,128,32,[0-9.]*,0,1,' "$T/out")" = 1 ] || { cat "$T/out"; fail "csv row"; }
[ "$(grep -c '^0,rewrite,128,64,' "$T/out")" = 1 ] || fail "csv rewrite row"
[ "$(wc -l < "$T/out")" = 5 ] || fail "csv: expected 4 rows"

# -w keeps the last file, in a scratch directory beside -f's name
mkdir "$T/k"
expect_exit 0 "$IOB" iozone -s 64k -r 64k -i 0 -w -f "$T/k/my.tmp" --no-store --quiet
expect_out "kept the files in"
set -- "$T"/k/iobattery.*/my.tmp
[ -f "$1" ] || fail "-w did not keep the file"
[ "$(wc -c < "$1")" = 65536 ] || fail "kept file has the wrong size"
exit 0
