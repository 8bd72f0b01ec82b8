# iobattery fsync against the installed pg_test_fsync, both with -s 1 on the same
# directory: the same sections, labels and line structure (columns of ops/sec and
# usecs/op), numbers aside; ops/sec = ops / elapsed exactly in the JSON; every key the
# rows carry is declared. As root, on a ramfs (which refuses O_DIRECT) too: the n/a*
# lines and pg_test_fsync's footnote. The runs go side by side: only the layout counts.
. tests/cli/lib
pg=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg" ] || skip "pg_test_fsync not installed (Debian's postgresql package)"
command -v python3 > /dev/null || skip "python3 missing"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
mkdir "$T/d" "$T/res" "$T/rf" || exit 1
ramfs=0
if is_root && mount -t ramfs ramfs "$T/rf" 2>/dev/null; then
	ramfs=1
	cleanup_hooks="umount '$T/rf' 2>/dev/null;"
fi

"$pg" -s 1 -f "$T/d/pg_test_fsync.out" > "$T/pg.txt" 2>&1 &
p1=$!
"$IOB" fsync -s 1 -f "$T/d" --no-store --format text,json --output-dir "$T/res" \
	> "$T/ours.txt" 2> "$T/ours.err" &
p2=$!
if [ "$ramfs" = 1 ]; then
	"$pg" -s 1 -f "$T/rf/pg.out" > "$T/pg_rf.txt" 2>&1 &
	p3=$!
	"$IOB" fsync -s 1 -f "$T/rf" --no-store > "$T/ours_rf.txt" 2>&1 &
	p4=$!
	wait "$p3" || fail "pg_test_fsync on ramfs failed"
	wait "$p4" || { cat "$T/ours_rf.txt" >&2; fail "iobattery fsync on ramfs failed"; }
fi
wait "$p1" || { cat "$T/pg.txt" >&2; fail "pg_test_fsync failed"; }
wait "$p2" || { cat "$T/ours.txt" "$T/ours.err" >&2; fail "iobattery fsync failed"; }

# a line with figures becomes its label and where its two columns start
norm() {
	awk '/ops\/sec/ { print substr($0, 1, 38) "|" index($0, "ops/sec") "|" \
		index($0, "usecs/op"); next } { print }' "$1"
}
# compare ours with pg_test_fsync's, line by line, for as many lines as it printed
same() { # PG OURS
	n=$(wc -l < "$1")
	[ "$n" -ge 30 ] || { cat "$1" >&2; fail "pg_test_fsync printed only $n lines"; }
	norm "$1" > "$T/a"
	norm "$2" | head -n "$n" > "$T/b"
	diff "$T/a" "$T/b" > "$T/diff" || { cat "$T/diff" >&2; fail "layout differs: $2"; }
	# after pg_test_fsync's last line come iobattery's own
	sed -n "$((n + 2))p" "$2" | grep -q '^iobattery, per op:' ||
		fail "no iobattery block after the pg_test_fsync lines in $2"
}
same "$T/pg.txt" "$T/ours.txt"
grep -q 'fsync_writethrough .* n/a$' "$T/ours.txt" || fail "fsync_writethrough is not n/a"
grep -q '^Recommendation: .* is the fastest durable method here' "$T/ours.txt" ||
	fail "no recommendation line"
grep -q 'PostgreSQL wal_sync_method = [a-z_]*; SQLite synchronous = [A-Z]*' "$T/ours.txt" ||
	fail "the recommendation names no wal_sync_method and SQLite level"
grep -q '^Device: ' "$T/ours.txt" || fail "no device line"
grep -q 'Only cutting the power shows what survives' "$T/ours.txt" ||
	fail "no statement of what cannot be proven"
if [ "$ramfs" = 1 ]; then
	grep -q 'n/a\*' "$T/pg_rf.txt" || fail "pg_test_fsync on ramfs printed no n/a*"
	same "$T/pg_rf.txt" "$T/ours_rf.txt"
	grep -q '^\* This file system and its mount options do not support direct' \
		"$T/ours_rf.txt" || fail "no footnote for n/a*"
fi

# the model: ops/sec = ops / elapsed (to the JSON's 15 digits), every line a row, the
# durability row with its verdict
python3 - "$T/res/iobattery-results.json" "$T/pg.txt" <<'EOF' || fail "the rows are wrong"
import json, re, sys
run = json.load(open(sys.argv[1]))
labels = [l[8:38].rstrip() for l in open(sys.argv[2]) if l.startswith('        ')]
rows = [r for r in run['rows'] if r['workload'] == 'fsync']
methods = [r for r in rows if r['phase'] != 'durability']
got = [r['params']['label'] for r in methods]
if got != labels:
    sys.exit('labels %r != pg_test_fsync\'s %r' % (got, labels))
for r in methods:
    if 'not_measured' in r['flags']:
        if r['params'].get('na') not in ('n/a', 'n/a*'):
            sys.exit('%s: not measured without n/a' % r['phase'])
        continue
    want = r['ops'] / (r['elapsed_ns'] / 1e9)
    if r['ops'] < 1 or abs(r['rate'] - want) > 1e-12 * want:
        sys.exit('%s: rate %r != ops/elapsed %r' % (r['phase'], r['rate'], want))
    usecs = [m['value'] for m in r['metrics'] if m['name'] == 'usecs_per_op'][0]
    if abs(usecs - r['elapsed_ns'] / 1e3 / r['ops']) > 1e-9 * usecs:
        sys.exit('%s: usecs_per_op %r' % (r['phase'], usecs))
    if r['latency']['n'] != r['ops']:
        sys.exit('%s: %d latencies for %d ops' % (r['phase'], r['latency']['n'], r['ops']))
d = [r for r in rows if r['phase'] == 'durability']
if len(d) != 1 or not d[0]['params'].get('wal_sync_method'):
    sys.exit('no durability row with a wal_sync_method')
best = d[0]['params']['best_method']
one = [r for r in methods if r['params']['test'] == 'one_write' and r['rate']]
if max(one, key=lambda r: r['rate'])['params']['method'] != best:
    sys.exit('the best method is not the fastest of one write')
EOF
unit=tests/unit/t_result_keys
if [ -x "$unit" ]; then
	expect_exit 0 "$unit" "$T/res/iobattery-results.json"
fi
exit 0
