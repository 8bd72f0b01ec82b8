# iobattery verify --result derives a sustained row's own figures again from the series
# the result holds (the knee's intervals: knee_series): a result as written passes; a
# burst_rate edited by hand fails naming it, though the digest was made again; a series
# edited into a cliff fails naming knee_found (the figures say no knee, the series has
# one). The cliff's own figures (cliff_bytes ...) are checked on a real cliff in
# tests/cli/sustained_cliff.sh.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
command -v jq > /dev/null || skip "jq missing"

expect_exit 0 "$IOB" sustained -d "$T" --size 96m --bs 1m --step 0.01 --hold 1000 \
	--no-store --format json --quiet
mv "$T/out" "$T/r.json"
jq -e '.rows[0] | .params.knee_series == "true" and (.series.t_ns | length) >= 1 and
	([.metrics[] | select(.name == "intervals")][0].value == (.series.t_ns | length))' \
	"$T/r.json" > /dev/null ||
	fail "no knee series: $(jq -c '.rows[0] | [.params, .series.t_ns]' "$T/r.json")"
expect_exit 0 "$IOB" verify --result "$T/r.json"
expect_out "every one follows"

# edit: a python expression on row r (the sustained row); then the digest made again, so
# that only the figures can fail
edit() {
	result_edit "$T/r.json" "$T/e.json" "r = d['rows'][0]
m = {x['name']: x for x in r['metrics']}
$1"
}

edit "m['burst_rate']['value'] *= 1.2"
expect_exit 1 "$IOB" verify --result "$T/e.json"
expect_out "rows[0] sustained write: metrics.burst_rate: is"
grep -q ": digest:" "$T/out" && fail "the digest made again still fails"

# a series of 8 intervals of 10 ms, the last 4 at a quarter of the bytes: a cliff the
# figures lack
edit "s = r['series']; s['t_ns'] = [(i + 1) * 10000000 for i in range(8)]
s['bytes'] = [8388608] * 4 + [2097152] * 4
s['ops'] = [x // 1048576 for x in s['bytes']]
for k in list(s):
    if k not in ('t_ns', 'bytes', 'ops', 'interval_ns', 'devices'):
        s[k] = [None] * 8
r['params']['hold'] = '2'"
expect_exit 1 "$IOB" verify --result "$T/e.json"
expect_out "rows[0] sustained write: metrics.knee_found: is 0, its data give 1"
exit 0
