# report: the quick battery's human output has no exponent (text and HTML); the report
# opens with a summary, draws a bar chart only where two or more runs have the figure
# (none for one run, whose figures are a table and whose latencies are percentile
# curves per workload), gives every chart a text alternative, and fits the window: at
# 1400 and 800 pixels Chromium lays the page out no wider than the viewport (measured on
# an instrumented copy: the report itself holds no script). --open starts xdg-open only
# where there is a display. -o into a missing directory, onto /dev/full or into a full
# file system: a clear message, a non-zero exit, nothing half-written.
. tests/cli/lib
D=$(pwd)/tests/data
cd "$T" || exit 1
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB

# ---- numbers: the quick battery, its text and its report --------------------------
expect_exit 0 "$IOB" run --size 1m --quiet
cp "$T/out" run.txt
grep -q '^dd ' run.txt || fail "no table from the quick battery"
grep -En '[0-9]e\+[0-9]' run.txt && fail "exponent in the quick battery's table"
expect_exit 0 "$IOB" results show 1
cp "$T/out" show.txt
# a battery's stored text is the battery's own, as the run printed it
grep -v '^results: ' run.txt > run-text.txt	# where run wrote its JSON: not the text
cmp -s run-text.txt show.txt || { diff run-text.txt show.txt | head -20 >&2; fail "results show differs from the run's text"; }
grep -q '^bonnie ' show.txt || fail "results show lacks the bonnie rows"
grep -En '[0-9]e\+[0-9]' show.txt && fail "exponent in the text of the quick battery"
expect_exit 0 "$IOB" report --no-store -o one.html iobattery-results.json
# the text of the page (tags and the style sheet removed)
sed -e 's/<style>.*<\/style>//' -e 's/<[^>]*>/ /g' one.html > one.txt
grep -En '[0-9](\.[0-9]+)?e[+-]?[0-9]' one.txt && fail "exponent in the report's text"
grep -Eq 'rows/s|[kMG]B/s|MiB/s' one.txt || fail "no prefixed units in the report"

# ---- structure --------------------------------------------------------------------
grep -q '<section class="summary" id="summary"><h2>Summary</h2>' one.html ||
	fail "no summary"
grep -q '<b>Trust:</b>' one.html || fail "the summary says nothing about trust"
grep -q 'ran under 0.5 s' one.html || fail "the summary does not explain the short flag"
grep -q 'chart bars' one.html && fail "a bar chart for a single run"
grep -q 'class="figures"' one.html || fail "no figures table for a single run"
n=$(grep -c 'class="chart lat"' one.html)
[ "$n" -ge 4 ] || fail "expected a latency chart per workload, found $n"
grep -q '<polyline' one.html || fail "no percentile curve"
grep -q '<script' one.html && fail "a script in the report"

IOBATTERY_DB="$T/store2.db"	# ids 1 .. 4: the import's runs
expect_exit 0 "$IOB" import "$D/bonnie-103.csv"
expect_exit 0 "$IOB" report -o many.html "$D/cmp-a.json" "$D/cmp-b.json" "$D/cmp-e.json" \
	"$D/cmp-c.json" 1 4
grep -q 'id="summary"' many.html || fail "no summary in the multi-run report"
grep -q 'against A: better in' many.html || fail "the summary lacks the comparisons"
# every bar chart has two or more bars; every chart has a title and a description
python3 - many.html one.html <<'EOF' || fail "chart check failed"
import re, sys
for path in sys.argv[1:]:
    html = open(path).read()
    charts = re.findall(r'<svg [^>]*class="chart ([a-z]+)"[^>]*>(.*?)</svg>', html, re.S)
    for kind, body in charts:
        if not re.match(r'\s*<title>[^<]+</title>\s*<desc>[^<]+</desc>', body):
            sys.exit("%s: a %s chart without <title> and <desc>" % (path, kind))
        if kind == "bars":
            bars = len(re.findall(r'<rect [^>]*class="bar ', body))
            if bars < 2:
                sys.exit("%s: a bar chart with %d bar(s)" % (path, bars))
            if len(re.findall(r'<rect [^>]*>\s*<title>', body)) != bars:
                sys.exit("%s: a bar without a hover value" % path)
    if path.endswith("many.html") and sum(k == "bars" for k, _ in charts) < 4:
        sys.exit("%s: expected bar charts for the figures runs share" % path)
    print("%s: %d charts" % (path, len(charts)))
EOF

# ---- layout in Chromium -------------------------------------------------------------
chrome=""
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && { chrome=$c; break; }
done
[ -n "$chrome" ] || skip "chromium is not installed"
mkdir prof || exit 1
# width FILE PIXELS: "scrollWidth clientWidth" of the page laid out at that window width,
# from a copy with one line of script that writes them into the DOM Chromium dumps
width() {
	sed 's|</body>|<script>document.body.setAttribute("data-w", document.documentElement.scrollWidth + " " + document.documentElement.clientWidth)</script></body>|' \
		"$1" > "$1.m.html"
	timeout 120 $chrome --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/prof" --window-size="$2,900" --dump-dom "file://$T/$1.m.html" \
		2> chrome.log | sed -n 's/.*data-w="\([0-9]* [0-9]*\)".*/\1/p'
}
# the measurement sees an overflow when there is one
sed 's|<h1>|<div style="width:3000px">wide</div><h1>|' one.html > wide.html
set -- $(width wide.html 800)
[ $# -eq 2 ] || { cat chrome.log; fail "cannot measure the page width"; }
[ "$1" -gt "$2" ] || fail "the measurement does not see a 3000-pixel element ($1 vs $2)"
for f in one.html many.html; do
	for px in 1400 800; do
		set -- $(width $f $px)
		[ $# -eq 2 ] || { cat chrome.log; fail "cannot measure $f at $px"; }
		[ "$1" -le "$2" ] || fail "$f at $px pixels scrolls sideways: $1 wide, viewport $2"
		echo "$f at $px: page $1, viewport $2"
	done
done

# ---- --open --------------------------------------------------------------------------
mkdir bin || exit 1
printf '#!/bin/sh\necho "$@" > "%s/opened"\n' "$T" > bin/xdg-open
chmod +x bin/xdg-open
env -u DISPLAY -u WAYLAND_DISPLAY PATH="$T/bin:$PATH" \
	"$IOB" report --no-store --open -o o.html iobattery-results.json > "$T/out" 2>&1 ||
	fail "report --open without a display"
expect_out "no display"
[ -e opened ] && fail "xdg-open started without a display"
DISPLAY=:99 PATH="$T/bin:$PATH" expect_exit 0 "$IOB" report --no-store --open -o o.html \
	iobattery-results.json
expect_out "opening with xdg-open"
i=0
while [ ! -s opened ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat opened 2>/dev/null)" = "$T/o.html" ] || fail "xdg-open not given the report"
DISPLAY=:99 PATH="$T/none" expect_exit 1 "$IOB" report --no-store --open -o o.html \
	iobattery-results.json
expect_out "cannot start the browser: 'xdg-open'"

# ---- bad output -------------------------------------------------------------------------
expect_exit 2 "$IOB" report --no-store -o "$T/no/such/dir/r.html" iobattery-results.json
expect_out "cannot write: '$T/no/such/dir/r.html'"
expect_exit 2 "$IOB" report --no-store -o /dev/full iobattery-results.json
expect_out "not a regular file: '/dev/full'"
if is_root && mkdir mnt && mount -t tmpfs -o size=16k tmpfs mnt 2>/dev/null; then
	cleanup_hooks="umount '$T/mnt' 2>/dev/null;"
	printf '<!DOCTYPE html>\n<!-- iobattery report -->\nold\n' > mnt/r.html
	expect_exit 1 "$IOB" report --no-store -o mnt/r.html iobattery-results.json
	expect_out "No space left on device"
	[ "$(ls mnt)" = "r.html" ] || fail "a temporary file left on the full file system"
	grep -q '^old$' mnt/r.html || fail "the old report was damaged"
	umount mnt
fi
exit 0
