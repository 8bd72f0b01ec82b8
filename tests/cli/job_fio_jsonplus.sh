# --format fio-json+ (and fio's --output-format=json+) is fio's json+: fio's JSON with
# each latency histogram's "bins", keyed by fio's bin values (the middle of each bin of
# fio's histogram, docs/methodology.md). The bins add up to the I/O count, every key is a
# value fio's layout can give, and fio_jsonplus_clat2csv (Debian's fio package) turns
# ours into its CSV, as it does fio's own json+.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
mkdir "$T/w" && cd "$T/w" || exit 1
cat > mix.fio <<'JOB'
[mixed]
size=1m
bs=4k
rw=randrw
rwmixread=50
fsync=8
JOB
"$IOB" job --no-store --quiet --output-format=json+ mix.fio > plus.json 2> err ||
	{ cat err; fail "job --output-format=json+ failed"; }
"$IOB" job --no-store --quiet --format fio-json mix.fio > plain.json 2> err ||
	{ cat err; fail "job --format fio-json failed"; }
python3 - plus.json plain.json <<'PY' || fail "json+ bins"
import json, sys
plus = json.load(open(sys.argv[1]))
plain = json.load(open(sys.argv[2]))
def fio_values():
    # fio's layout: 0..127 one each, then 64 bins per power of two, keyed by the middle
    out = set(range(128))
    for g in range(2, 29):
        e = g - 1
        for k in range(64):
            out.add((1 << (e + 6)) + (2 * k + 1) * (1 << (e - 1)))
    return out
vals = fio_values()
j = plus["jobs"][0]
for d in ("read", "write"):
    c = j[d]["clat_ns"]
    b = c["bins"]
    assert b, d
    assert sum(b.values()) == j[d]["total_ios"] == c["N"], (d, sum(b.values()), c["N"])
    keys = [int(k) for k in b]
    assert all(k in vals for k in keys), [k for k in keys if k not in vals]
    assert keys == sorted(keys), "bins out of order"
    assert min(keys) <= c["min"] * 1.02 + 1 and max(keys) >= c["max"] * 0.98, (keys[0], keys[-1], c)
assert "bins" not in j["trim"]["clat_ns"], "an empty direction has no bins (as fio)"
assert sum(j["sync"]["lat_ns"]["bins"].values()) == j["sync"]["total_ios"]
# plain fio-json has no bins; otherwise the same keys
assert "bins" not in plain["jobs"][0]["read"]["clat_ns"]
assert set(plain["jobs"][0]) == set(j), set(plain["jobs"][0]) ^ set(j)
PY
# the common --format spelling gives the same document shape
mkdir "$T/o" && "$IOB" job --no-store --quiet --format text,fio-json+ --output-dir "$T/o" mix.fio > /dev/null 2>&1 ||
	fail "--format text,fio-json+ failed"
[ -s "$T/o/iobattery-results.fio-plus.json" ] || { ls "$T/o"; fail "no fio-plus.json file"; }
expect_exit 2 "$IOB" job --no-store --quiet --output-format=json++ mix.fio
expect_out "unsupported --output-format"

c2c=$(command -v fio_jsonplus_clat2csv) || { echo "fio_jsonplus_clat2csv absent: fio's reader not run"; exit 0; }
python3 -c 'import six' 2> /dev/null || { echo "python3-six absent: fio's reader not run"; exit 0; }
python3 "$c2c" plus.json out.csv > c2c.txt 2>&1 ||
	{ cat c2c.txt; fail "fio_jsonplus_clat2csv refuses our json+"; }
[ -s out_job0.csv ] || { ls; cat c2c.txt; fail "fio_jsonplus_clat2csv wrote no CSV"; }
# its own check: the bins it rebuilds from the CSV are the json+'s
python3 "$c2c" --validate plus.json out.csv > c2c.txt 2>&1 ||
	{ cat c2c.txt; fail "fio_jsonplus_clat2csv --validate fails on ours"; }
grep -q 'out_job0.csv validated' c2c.txt || { cat c2c.txt; fail "not validated"; }
python3 - out_job0.csv plus.json <<'PY' || fail "fio_jsonplus_clat2csv's CSV is not our bins"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
head = [h.strip() for h in rows[0]]
j = json.load(open(sys.argv[2]))["jobs"][0]
for d in ("read", "write"):
    col = head.index(d + "_clat_ns_count")
    got = {int(r[0]): int(r[col]) for r in rows[1:] if len(r) > col and r[col].strip()}
    want = {int(k): v for k, v in j[d]["clat_ns"]["bins"].items()}
    assert got == want, d
    last = [r for r in rows[1:] if len(r) > col and r[col].strip()][-1]
    assert abs(float(last[col + 2]) - 1.0) < 1e-9, last  # its cumulative share
PY
exit 0
