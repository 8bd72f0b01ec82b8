# report: one self-contained HTML file with the grouped table, SVG charts and escaped
# strings; rendered by headless Chromium to a PNG that is not blank. Bad input exits 2
# and writes nothing.
. tests/cli/lib
D=$(pwd)/tests/data
cd "$T" || exit 1
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB

# a host name that is an attack on the page
sed 's/"host": "alpha"/"host": "<script>alert(1)<\/script>"/; s/"label": "ext4 baseline"/"label": "a\&b \\"q\\" <i>"/' \
	"$D/cmp-a.json" > evil.json
grep -q '<script>' evil.json || fail "test setup: no script in the host name"
expect_exit 0 "$IOB" import --no-files "$D/bonnie-103.csv"
expect_exit 2 "$IOB" report -o r.html evil.json "$D/bonnie-193c.csv"
[ -e r.html ] && fail "report written although an input is not a result file"
expect_exit 0 "$IOB" report -o r.html --title "t <b>" evil.json "$D/cmp-b.json" \
	"$D/cmp-e.json" "$D/cmp-c.json" 1 4
expect_out "report: r.html"
[ -s r.html ] || fail "no report written"

grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' r.html || fail "host name not escaped"
grep -q '<script' r.html && fail "a script element in the report"
grep -q 'a&amp;b &quot;q&quot; &lt;i&gt;' r.html || fail "label not escaped"
grep -q 't &lt;b&gt;' r.html || fail "title not escaped"
grep -Eq '<(link|img|iframe)|src=|url\(' r.html && fail "the report refers to outside resources"
n=$(grep -c '<svg' r.html)
[ "$n" -ge 8 ] || fail "expected SVG charts, found $n"
grep -q 'class="grouped"' r.html || fail "no grouped table"
grep -q 'not measured' r.html || fail "+++++ figures not shown as not measured"
grep -q 'not compared: cache-inflated vs not' r.html || fail "no refusal in the deltas"
grep -q 'inconsistent' r.html || fail "no inconsistent flag for the noisy run"
grep -q '<polyline' r.html || fail "no latency percentile plot"

# bad input: nothing written
expect_exit 2 "$IOB" report -o bad.html
expect_exit 2 "$IOB" report -o bad.html "$T/none.json"
[ -e bad.html ] && fail "report written despite bad input"
echo "my notes" > notes.html
expect_exit 2 "$IOB" report -o notes.html "$D/cmp-a.json"
expect_out "refusing to overwrite"
[ "$(cat notes.html)" = "my notes" ] || fail "user file changed"
expect_exit 0 "$IOB" report -o r.html "$D/cmp-a.json"	# our own report: may be replaced
expect_exit 2 "$IOB" report -o "$T/no/such/dir/r.html" "$D/cmp-a.json"
expect_exit 0 "$IOB" report -o r.html --title "t <b>" evil.json "$D/cmp-b.json" \
	"$D/cmp-e.json" "$D/cmp-c.json" 1 4

# render it
chrome=""
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && { chrome=$c; break; }
done
if [ -z "$chrome" ] && is_root && command -v apt-get >/dev/null 2>&1; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 &&
		chrome=chromium
fi
[ -n "$chrome" ] || skip "chromium is not installed and cannot be installed here"
mkdir prof || exit 1
timeout 120 $chrome --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$T/prof" --screenshot="$T/r.png" --window-size=1200,1600 \
	"file://$T/r.html" > chrome.log 2>&1
[ -s r.png ] || { cat chrome.log; fail "chromium wrote no screenshot"; }
[ "$(head -c 4 r.png | od -An -c | tr -d ' ')" = "211PNG" ] || fail "not a PNG"
size=$(wc -c < r.png)
# a blank 1200x1600 page compresses to a few KiB; tables, text and charts do not
[ "$size" -gt 40000 ] || fail "screenshot is nearly blank ($size bytes)"
if command -v python3 >/dev/null 2>&1; then
	colours=$(python3 "$D/../cli/png_colours.py" r.png) || fail "cannot decode the PNG"
	[ "$colours" -gt 20 ] || fail "screenshot has only $colours colours"
	echo "screenshot: $size bytes, $colours colours"
fi
exit 0
