#!/bin/sh
# bench/same_results.sh - a refactor's "no behaviour change" check: the result JSON of dd,
# bonnie, job (psync and null) and the text of a battery dry run, from two binaries on the
# same directory, compared after masking what differs between any two runs of one binary
# (ids, dates, seeds, paths of temporary directories, command lines, every measured number:
# a number is compared by its presence only, a string by its value; the sampled series,
# system figures and the flags they raise by their keys only).
#   bench/same_results.sh BASE_BINARY [NEW_BINARY]   (NEW defaults to ./iobattery)
# Prints one line per output, "same" or the paths that differ; exits 1 when any differs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: bench/same_results.sh BASE_BINARY [NEW_BINARY]}
new=${2:-$top/iobattery}
work=$(mktemp -d "${TMPDIR:-/tmp}/iob-same.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

# outputs BINARY OUTDIR: each command's JSON (or text) into OUTDIR
outputs() {
	o=$2
	d=$work/d
	mkdir -p "$o" "$d"
	IOBATTERY_DB=$d/store.db; export IOBATTERY_DB
	"$1" dd if=/dev/zero of="$d/f" bs=64k count=200 --format json > "$o/dd.json" 2>&1
	"$1" bonnie -d "$d" -s 16 -r 8 -n 1 --format json > "$o/bonnie.json" 2>&1
	"$1" job --name=r --rw=randread --bs=4k --size=4m --filename="$d/jf" \
		--ioengine=psync --format json > "$o/job.json" 2>&1
	"$1" job --name=n --rw=randread --bs=4k --size=4m --ioengine=null \
		--format json > "$o/jobnull.json" 2>&1
	# a fixed size and a budget that fits every step: the plan then does not hang on the
	# probe's figures (the planner itself is checked on fixed inputs by t_battery_plan)
	"$1" battery -d "$d" --budget 60m --size 64M --dry-run 2>&1 | sed 1,2d > "$o/battery.txt"
	rm -rf "$d"
}
outputs "$base" "$work/a"
outputs "$new" "$work/b"
python3 - "$work/a" "$work/b" <<'PY'
import json, re, sys
a, b = sys.argv[1], sys.argv[2]
MASK = {'id', 'run_id', 'date', 'command_line', 'target', 'tool_version', 'host', 'seed'}
# measured from the system while the phase ran: which keys, not their values or lengths
SAMPLED = {'series', 'system', 'flags'}
def norm(x, key=''):
    if key in SAMPLED:
        return sorted(x) if isinstance(x, dict) else 'sampled'
    if isinstance(x, dict):
        return {k: norm(v, k) for k, v in x.items()}
    if isinstance(x, list):
        return [norm(v, key) for v in x]
    if isinstance(x, bool):
        return x
    if x is None or isinstance(x, (int, float)):
        return 'number'
    if key in MASK:
        return 'masked'
    return re.sub(r'iob(attery|-same)[.A-Za-z0-9_/-]*', 'TMP', x)
def diff(x, y, path, out):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                out.append(path + '/' + k + ' only in ' + ('new' if k in y else 'base'))
            else:
                diff(x[k], y[k], path + '/' + k, out)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y)):
            diff(p, q, '%s/%d' % (path, i), out)
    elif x != y:
        out.append('%s: %s != %s' % (path, str(x)[:60], str(y)[:60]))
bad = 0
for f in ('dd.json', 'bonnie.json', 'job.json', 'jobnull.json'):
    try:
        x = norm(json.load(open(a + '/' + f))); y = norm(json.load(open(b + '/' + f)))
    except ValueError as e:
        print(f, 'not JSON:', e); bad = 1; continue
    out = []
    diff(x, y, '', out)
    # histograms: bucket lists differ in length with the measured latencies
    out = [o for o in out if '/histogram' not in o]
    print(f, 'same' if not out else 'DIFFERS:\n  ' + '\n  '.join(out[:20]))
    bad |= bool(out)
def text(p):
    s = open(p).read()
    s = re.sub(r'[0-9]+([.,][0-9]+)?', 'N', s)
    return re.sub(r'/\S*iob\S*', 'TMP', s)
t = text(a + '/battery.txt') == text(b + '/battery.txt')
print('battery dry run (text, numbers masked)', 'same' if t else 'DIFFERS')
sys.exit(1 if bad or not t else 0)
PY
