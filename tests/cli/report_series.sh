# The report's time-series charts: two runs of the same dd phases give per phase the
# rate, p99, device %util and aqu-sz, dirty/writeback charts with both runs overlaid (in
# their two colours), a CPU stacked area per run and the wait-state bars; Chromium's
# rendered DOM holds them and its screenshot of them is not blank. A run without series
# (--no-sample) gets no such section.
. tests/cli/lib
cd "$T" || exit 1
for run in a b; do
	"$IOB" dd if=/dev/zero of=f$run bs=1M count=48 conv=fdatasync --interval 100ms \
		--format json --no-store --label "run $run" > w$run.json 2> err ||
		{ cat err; fail "dd write $run"; }
	"$IOB" dd if=f$run of=/dev/null bs=1M --drop-cache --interval 100ms --format json \
		--no-store > r$run.json 2> err || { cat err; fail "dd read $run"; }
done
"$IOB" dd if=/dev/zero of=fc bs=1M count=8 --no-sample --format json --no-store > c.json ||
	fail "dd --no-sample"
expect_exit 0 "$IOB" report --no-store -o r.html wa.json wb.json ra.json rb.json
grep -q '<h2>Inside the phases</h2>' r.html || fail "no time-series section"
n=$(grep -c 'class="chart series"' r.html)
# write and read: rate, p99, util, aqu-sz, dirty and one CPU chart per run
[ "$n" -ge 14 ] || fail "expected at least 14 series charts, found $n"
if have_feature waitstate; then
	grep -q 'class="chart waits"' r.html || fail "no wait-state bars"
fi
sec=$(sed -n '/<h2>Inside the phases/,/<h2>Deltas\|<h2>Notes\|<h2>Environment/p' r.html)
printf '%s\n' "$sec" | grep -q 'class="line k0"' || fail "run A is not drawn"
printf '%s\n' "$sec" | grep -q 'class="line k1"' || fail "run B is not overlaid"
if have_feature procstat; then
	printf '%s\n' "$sec" | grep -q 'stroke-dasharray' || fail "no writeback line"
fi
printf '%s\n' "$sec" | grep -q 'dd write bs=1M' || fail "no chart for the write phase"
grep -q '<script' r.html && fail "a script element in the report"
expect_exit 0 "$IOB" report --no-store -o c.html c.json
grep -q 'Inside the phases' c.html && fail "series charts for a run without series"

chrome=""
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && { chrome=$c; break; }
done
[ -n "$chrome" ] || skip "chromium is not installed"
mkdir prof || exit 1
# only the series section, so the screenshot shows the charts
{ sed -n '1,/<body>/p' r.html; printf '%s\n' "$sec" | sed '$d'; echo '</body></html>'; } > s.html
flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync
	--user-data-dir=$T/prof"
# shellcheck disable=SC2086
timeout 120 $chrome $flags --dump-dom "file://$T/r.html" > dom.html 2> chrome.log
[ -s dom.html ] || { cat chrome.log; fail "chromium rendered nothing"; }
nd=$(grep -o 'class="chart series"' dom.html | wc -l)
[ "$nd" -eq "$n" ] || fail "the rendered page has $nd series charts, the file $n"
grep -q '<polyline' dom.html || fail "no lines in the rendered page"
# shellcheck disable=SC2086
timeout 120 $chrome $flags --screenshot="$T/s.png" --window-size=1000,1400 \
	"file://$T/s.html" > chrome.log 2>&1
[ -s s.png ] || { cat chrome.log; fail "chromium wrote no screenshot"; }
if command -v python3 > /dev/null 2>&1; then
	colours=$(python3 "$OLDPWD/tests/cli/png_colours.py" s.png) || fail "cannot decode the PNG"
	# two run colours, four CPU colours, the wait bars, grey grid and text
	[ "$colours" -gt 20 ] || fail "the charts' screenshot has only $colours colours"
	echo "series screenshot: $(wc -c < s.png) bytes, $colours colours"
fi
exit 0
