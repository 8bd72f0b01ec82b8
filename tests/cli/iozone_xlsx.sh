# iozone -b: a real .xlsx workbook, read back by openpyxl: one sheet per pass with the
# record sizes across and the file sizes down, the same kB/s as the text table, a cell
# iozone skips empty, and an environment sheet. -b also prints the -R blocks.
. tests/cli/lib
"$IOB" iozone -b "$T/x.xlsx" -s 64k -i 0 --no-store > "$T/o" 2>&1
if grep -q 'not built in' "$T/o"; then
	skip "built without libxlsxwriter"
fi
py=""
for p in python3 /usr/bin/python3; do	# Debian's python3-openpyxl is for Debian's python
	"$p" -c 'import openpyxl' 2> /dev/null && { py=$p; break; }
done
[ -n "$py" ] || skip "python3-openpyxl is not installed"
mkdir "$T/w" && cd "$T/w" || exit 1
rm -f "$T/x.xlsx"
# 16 MB and 32 MB files: the 32 MB row has no records under 64 kB (null engine: quick)
expect_exit 0 "$IOB" iozone -a -n 16m -g 32m -i 0 -i 1 -+n --engine null -b "$T/m.xlsx" \
	--no-store --quiet
cp "$T/out" "$T/text"
grep -q '"Writer report"' "$T/text" || fail "-b did not print the -R blocks"
[ -s "$T/m.xlsx" ] || fail "no workbook written"
"$py" - "$T/m.xlsx" "$T/text" << 'PY' || fail "the workbook does not hold the text's numbers"
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
assert wb.sheetnames == ["Writer", "Reader", "Environment"], wb.sheetnames
# the text table: kB reclen write read
text = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 4 and all(x.rstrip("*").isdigit() for x in f):
        text[(int(f[0]), int(f[1]))] = (int(f[2].rstrip("*")), int(f[3].rstrip("*")))
assert len(text) == 13 + 9, len(text)
for col, name in ((0, "Writer"), (1, "Reader")):
    ws = wb[name]
    assert ws.cell(1, 1).value.startswith(name), ws.cell(1, 1).value
    recs = [ws.cell(2, c).value for c in range(2, 15)]
    assert recs == [4 << i for i in range(13)], recs
    assert [ws.cell(r, 1).value for r in (3, 4)] == [16384, 32768]
    for r, fkb in ((3, 16384), (4, 32768)):
        for c, rkb in enumerate(recs, start=2):
            v = ws.cell(r, c).value
            if (fkb, rkb) in text:
                assert v == text[(fkb, rkb)][col], (name, fkb, rkb, v)
            else:
                assert v is None, (name, fkb, rkb, v)  # skipped: empty, not 0
env = wb["Environment"]
keys = [env.cell(r, 1).value for r in range(1, env.max_row + 1)]
assert "command line" in keys and "file system" in keys, keys
PY
exit 0
