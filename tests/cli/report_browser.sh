# report in a real browser: the report of two small battery runs labelled ext4 and xfs
# (dd, iozone and the job at --size 4M; fsync and the rest skipped), rendered by headless
# Chromium, checked from the DOM it builds: the verdict comes first, every results row
# carries its configuration, each run's trust count equals its JSON's rows without a flag,
# every flag in the JSON appears by its name with its legend entry, the skipped steps are
# named, iozone's table has a cell per measured iozone row, the viewport is set; and the
# PDF Chromium prints is within the 15-page goal. The checker must see a row without its
# configuration (a doctored copy).
. tests/cli/lib
cd "$T" || exit 1
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && { chrome=$c; break; }
done
[ -n "$chrome" ] || skip "chromium is not installed (scripts/install-deps test)"
command -v pdfinfo >/dev/null 2>&1 || skip "pdfinfo is not installed (poppler-utils)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

for fs in ext4 xfs; do
	mkdir "$fs" || exit 1
	expect_exit 0 "$IOB" battery -d "$T/$fs" --size 4M --steps dd,iozone,job,fsync \
		--label "$fs" --no-store --format json --output-dir "$T/$fs" -q
	[ -s "$fs/iobattery-results.json" ] || fail "no result for $fs"
done
expect_exit 0 "$IOB" report --no-store -o r.html ext4/iobattery-results.json \
	xfs/iobattery-results.json
grep -q 'verdict for a database server' "$T/out" || fail "report prints no verdict first"

mkdir prof || exit 1
chrome() {
	timeout 120 $chrome --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --no-first-run --disable-sync \
		--user-data-dir="$T/prof" "$@" 2> chrome.log
}
chrome --window-size=1400,900 --dump-dom "file://$T/r.html" > dom.html
[ -s dom.html ] || { cat chrome.log; fail "chromium dumped no DOM"; }

# what the JSON says: per run its rows, its rows without a flag, its flags, its iozone
# cells (measured iozone rows)
for fs in ext4 xfs; do
	jq -r '[(.rows|length), ([.rows[]|select((.flags//[])|length==0)]|length),
		([.rows[]|select(.workload=="iozone" and ((.flags//[])|index("failed")|not)
		  and ((.flags//[])|index("not_measured")|not))]|length)] | @tsv' \
		"$fs/iobattery-results.json" > "$fs.want"
	jq -r '.rows[].flags[]?' "$fs/iobattery-results.json"
done | sort -u > flags.want

cat > check.py <<'EOF'
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(s):
        super().__init__()
        s.stack, s.rows, s.trust, s.legend, s.cellflags = [], [], [], set(), set()
        s.skipped, s.ioz, s.viewport, s.first_h2, s.text = [], 0, False, None, None
    def handle_starttag(s, tag, a):
        a = dict(a)
        cls = (a.get('class') or '').split()
        if tag == 'meta' and a.get('name') == 'viewport':
            s.viewport = 'width=device-width' in (a.get('content') or '')
        if tag == 'h2' and s.first_h2 is None:
            s.first_h2 = ''
            s.text = 'h2'
        if tag == 'table':
            s.stack.append(cls)
        if tag == 'tbody' and s.stack:
            s.stack[-1] = s.stack[-1] + ['__body']
        if tag == 'tr' and s.stack and '__body' in s.stack[-1]:
            t = s.stack[-1]
            if (('figures' in t or 'grouped' in t or 'battery' in t or 'verdict' in t)
                    and 'machine' not in cls and 'lead' not in cls):
                s.rows.append(a.get('data-conf') or '')
        if tag == 'td' and s.stack and 'ioz' in s.stack[-1] and 'n' in cls:
            s.ioz += 1
        if tag == 'span' and 'trust' in cls:
            s.trust.append((int(a['data-rows']), int(a['data-clean'])))
        if tag == 'dt' and a.get('data-flag'):
            s.legend.add(a['data-flag'])
        if tag == 'span' and 'flag' in cls and a.get('data-flag'):
            s.cellflags.add(a['data-flag'])
        if tag == 'li' and 'skipped' in cls:
            s.skipped.append('')
            s.text = 'li'
    def handle_endtag(s, tag):
        if tag == 'table' and s.stack:
            s.stack.pop()
        if tag in ('h2', 'li'):
            s.text = None
    def handle_data(s, d):
        if s.text == 'h2':
            s.first_h2 += d
        elif s.text == 'li':
            s.skipped[-1] += d

p = P()
p.feed(open(sys.argv[1]).read())
bad = []
if not p.viewport:
    bad.append('no viewport')
if p.first_h2 != 'For a database server':
    bad.append('the first section is %r, not the verdict' % p.first_h2)
if not p.rows or not all(p.rows):
    bad.append('%d of %d results rows carry no configuration' % (p.rows.count(''), len(p.rows)))
if not set(p.rows) <= {'ext4', 'xfs', 'A: ext4', 'B: xfs'}:
    bad.append('rows name other configurations: %s' % sorted(set(p.rows)))
want = [tuple(map(int, open(f).read().split())) for f in ('ext4.want', 'xfs.want')]
if p.trust != [(w[0], w[1]) for w in want]:
    bad.append('trust counts %s, the JSON has (rows, unflagged) %s' % (p.trust, want))
if p.ioz != sum(w[2] for w in want):
    bad.append('iozone tables have %d cells, the JSON %d cells' % (p.ioz, sum(w[2] for w in want)))
for fl in open('flags.want').read().split():
    if fl not in p.legend:
        bad.append('flag %s has no legend entry' % fl)
    if fl not in p.cellflags and fl != 'imported':
        bad.append('flag %s is in no cell' % fl)
for step in ('fsync', 'bonnie', 'postmark'):
    if not any(step in s and 'skipped' in s for s in p.skipped):
        bad.append('skipped step %s not named: %s' % (step, p.skipped))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
EOF
python3 check.py dom.html > check.out || { cat check.out; fail "the report's DOM"; }
# the checker sees a row without its configuration
# the first row of the results' grouped table (runs named "A: ext4" ...)
sed '0,/<tr data-conf="A: [^"]*">/s//<tr>/' dom.html > doctored.html
python3 check.py doctored.html > check.out && fail "the checker misses a row without configuration"
grep -q 'carry no configuration' check.out || fail "doctored: $(cat check.out)"

chrome --print-to-pdf="$T/r.pdf" --no-pdf-header-footer "file://$T/r.html" > /dev/null
pages=$(pdfinfo r.pdf 2>/dev/null | sed -n 's/^Pages: *//p')
[ -n "$pages" ] || { cat chrome.log; fail "no PDF"; }
echo "report of two configurations: $pages A4 pages"
[ "$pages" -le 15 ] || fail "the report prints to $pages pages, the goal is 15"
exit 0
