# --format fio-json is fio's --output-format=json: a reader of fio JSON (the keys fio-plot
# reads, tests/cli/fio_json_reader.py) reads iobattery's; when fio is installed, fio's
# document of the same job has the same keys, and the reader accepts it too.
# --output-format=json (fio's own spelling) gives the same document.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
reader=$PWD/tests/cli/fio_json_reader.py
mkdir "$T/w" && cd "$T/w" || exit 1
cat > mix.fio <<'JOB'
[global]
size=2m
bs=4k
[rr]
rw=randread
iodepth=4
[mixed]
stonewall
rw=randrw
rwmixread=70
fsync=16
numjobs=2
group_reporting
JOB
"$IOB" job --no-store --quiet --format fio-json mix.fio > ours.json 2> err ||
	{ cat err; fail "job failed"; }
python3 "$reader" ours.json > ours.txt || { cat ours.json; fail "the fio JSON reader refuses ours"; }
grep -q '^rr read rw=randread bs=4k iodepth=4 ' ours.txt || { cat ours.txt; fail "rr not read back"; }
grep -q '^mixed write rw=randrw .* numjobs=2 ' ours.txt || { cat ours.txt; fail "mixed not read back"; }
python3 - ours.json <<'PY' || fail "fio-json figures"
import json, sys
j = json.load(open(sys.argv[1]))
rr, mixed = j["jobs"]
assert rr["groupid"] == 0 and mixed["groupid"] == 1, (rr["groupid"], mixed["groupid"])
assert rr["read"]["total_ios"] == 512 and rr["read"]["io_bytes"] == 2097152
assert mixed["read"]["io_bytes"] + mixed["write"]["io_bytes"] == 2 * 2097152
assert mixed["sync"]["total_ios"] > 0 and "percentile" in mixed["sync"]["lat_ns"]
assert j["global options"] == {"size": "2m", "bs": "4k"}, j["global options"]
assert rr["job options"] == {"rw": "randread", "iodepth": "4"}, rr["job options"]
assert abs(sum(rr["iodepth_level"].values()) - 100) < 0.5
PY
"$IOB" job --no-store --quiet --output-format=json mix.fio > fioname.json 2> err ||
	{ cat err; fail "--output-format=json failed"; }
python3 "$reader" fioname.json > /dev/null || fail "--output-format=json is not fio's JSON"
if command -v fio > /dev/null 2>&1; then
	mkdir fio && (cd fio && fio --output-format=json --output=../theirs.json ../mix.fio > /dev/null 2>&1) ||
		fail "fio failed"
	python3 "$reader" theirs.json > /dev/null || fail "the reader refuses fio's own JSON"
	# a build without device statistics (--posix-only) has an empty disk_util
	dk=1; have_feature diskstats || dk=0
	python3 - theirs.json ours.json $dk <<'PY' || fail "fio's keys and ours differ"
import json, sys
def keys(o, p=""):
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            out.add(p + "/" + k)
            if k not in ("percentile", "job options", "global options"):
                out |= keys(v, p + "/" + k)
    elif isinstance(o, list) and o:
        out |= keys(o[0], p + "[]")
    return out
a, b = (keys(json.load(open(f))) for f in sys.argv[1:3])
if sys.argv[3] == "0":
    a = {k for k in a if not k.startswith("/disk_util[]")}
if a != b:
    print("only fio:", sorted(a - b), "only ours:", sorted(b - a))
    sys.exit(1)
PY
fi
no_scratch .
exit 0
