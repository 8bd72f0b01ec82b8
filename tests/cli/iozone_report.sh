# iozone in the report: per pass iozone's own table (file size by record size, kB/s, cache
# cells marked) beside a heat map (cache cells hatched), no 3-D surface (issue 25: they
# were mostly empty), no script; the cells stay out of the generic bar
# charts; Chromium renders the page to a PNG that is not blank. Two runs with different
# file sizes: compare refuses to line their cells up.
. tests/cli/lib
D=$(pwd)/tests/data
mkdir "$T/w" && cd "$T/w" || exit 1
expect_exit 0 "$IOB" iozone -n 64k -g 256k -y 16k -q 64k -i 0 -i 1 --no-store --quiet \
	--format json --output-dir "$T"
mv "$T/iobattery-results.json" "$T/a.json"
expect_exit 0 "$IOB" iozone -s 128k -r 64k -i 0 --no-store --quiet --format json \
	--output-dir "$T"
mv "$T/iobattery-results.json" "$T/b.json"
expect_exit 0 "$IOB" iozone -s 256k -r 64k -i 0 --no-store --quiet --format json \
	--output-dir "$T"
mv "$T/iobattery-results.json" "$T/c.json"
expect_exit 0 "$IOB" report --no-store -o "$T/r.html" "$T/a.json" "$T/b.json"
r=$T/r.html
[ "$(grep -c 'class="chart ioz-heat"' "$r")" = 6 ] || fail "expected 4 heat maps for A, 2 for B"
[ "$(grep -c '<table class="ioz"' "$r")" = 6 ] || fail "expected 6 iozone tables beside the maps"
grep -q 'class="chart ioz-surface"' "$r" && fail "a 3-D surface"
grep -q '<td class="n cache">' "$r" || fail "no cache cell marked in the iozone table"
grep -q 'fill="url(#ioz-hatch-' "$r" || fail "no hatched cache cell"
grep -q 'cache cliff:' "$r" || fail "no cache cliff line"
grep -q '<script' "$r" && fail "a script in the report"
grep -q 'class="ttl">iozone write' "$r" && fail "iozone cells drawn as bar charts"
# the same cells line up; a different file size is refused with the reason
expect_exit 0 "$IOB" compare --no-store "$T/b.json" "$T/c.json"
expect_out "different file sizes"

chrome=""
for c in chromium chromium-browser google-chrome; do
	command -v $c > /dev/null 2>&1 && { chrome=$c; break; }
done
[ -n "$chrome" ] || skip "chromium is not installed"
mkdir "$T/prof" || exit 1
timeout 120 $chrome --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$T/prof" --screenshot="$T/r.png" --window-size=1000,1400 \
	"file://$r" > "$T/chrome.log" 2>&1
[ -s "$T/r.png" ] || { cat "$T/chrome.log"; fail "chromium wrote no screenshot"; }
colours=$(python3 "$D/../cli/png_colours.py" "$T/r.png") || fail "cannot decode the PNG"
# the heat maps' colour ramp and the hatching give many colours; text alone does not
[ "$colours" -gt 40 ] || fail "screenshot has only $colours colours"
exit 0
