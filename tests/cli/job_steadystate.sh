# fio's steady state: steadystate (ss), ss_dur, ss_ramp. A criterion met in the first
# window stops the job there, well before its runtime, attained (ss_attained 1 on its
# rows, fio JSON's steadystate object as fio writes it); a window longer than the job
# never fills: not attained, the job runs its course. Bad values are usage errors.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
mkdir "$T/w" && cd "$T/w" || exit 1
# one second's window, any deviation within 100%: attained after ss_ramp + 1 s, not 30 s
"$IOB" job --no-store --quiet --format text,json,fio-json --output-dir . --name=s --rw=randread \
	--bs=4k --size=1m --time_based --runtime=30 --rate_iops=500 --ss=iops:100% --ss_dur=1 \
	--ss_ramp=1 > out 2>&1 || { cat out; fail "steady-state job failed"; }
python3 - iobattery-results.json iobattery-results.fio.json <<'PY' || fail "attained"
import json, sys
ours = json.load(open(sys.argv[1]))
fio = json.load(open(sys.argv[2]))
r = [w for w in ours["rows"] if w["phase"] == "read"][0]
m = {x["name"]: x["value"] for x in r["metrics"]}
assert m["ss_attained"] == 1 and m["ss_duration"] == 1, m
assert r["params"]["ss"] == "iops:100.000000%", r["params"]
n = [int(x) for x in r["params"]["ss_iops_data"].split(",")]
assert len(n) == 1 and n[0] > 0, n
assert r["elapsed_ns"] < 10e9, r["elapsed_ns"]          # stopped, not 30 s
ss = fio["jobs"][0]["steadystate"]
assert ss["ss"] == "iops:100.000000%" and ss["attained"] == 1 and ss["duration"] == 1, ss
assert ss["criterion"].endswith("%") and ss["data"]["iops"] == n, ss
assert ss["data"]["iops_mean"] == n[0] and ss["data"]["bw"][0] == 4096 * n[0], ss
assert fio["jobs"][0]["job options"]["steadystate"] == "iops:100%"
PY
# fio's summary line, after the latency line of the job's block
grep -A1 '     latency   : target=' iobattery-results.txt |
	grep -qE '^  steadystate  : attained=yes, bw=.*, iops=[0-9.k]+, iops mean dev=[0-9.]+%$' ||
	{ cat iobattery-results.txt; fail "no steadystate line in fio's summary"; }
# a 5 s window in a 1 s job: never judged, not attained, the job runs its second
"$IOB" job --no-store --quiet --format json --output-dir . --name=n --rw=randread --bs=4k \
	--size=1m --time_based --runtime=1 --ss=bw_slope:0.1% --ss_dur=5 > out 2>&1 ||
	{ cat out; fail "job failed"; }
python3 - iobattery-results.json <<'PY' || fail "not attained"
import json, sys
r = [w for w in json.load(open(sys.argv[1]))["rows"] if w["phase"] == "read"][0]
m = {x["name"]: x["value"] for x in r["metrics"]}
assert m["ss_attained"] == 0 and m["ss_duration"] == 5, m
assert r["elapsed_ns"] >= 0.9e9, r["elapsed_ns"]
PY
# no steadystate: no ss keys
"$IOB" job --no-store --quiet --format json --output-dir . --name=p --rw=read --bs=4k \
	--size=64k > out 2>&1 || { cat out; fail "plain job failed"; }
grep -q '"ss_attained"' iobattery-results.json && fail "ss keys without steadystate"
# fio 3.42's latency criterion: each second's mean completion latency
"$IOB" job --no-store --quiet --format fio-json --output-dir . --name=l --rw=randread \
	--bs=4k --size=1m --time_based --runtime=30 --rate_iops=500 --ss=lat:100% --ss_dur=1 \
	> out 2>&1 || { cat out; fail "latency steady-state job failed"; }
python3 - iobattery-results.fio.json <<'PY' || fail "latency criterion"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
ss = j["steadystate"]
assert ss["ss"] == "lat:100.000000%" and ss["attained"] == 1, ss
lat = ss["data"]["lat_ns"]
assert len(lat) == 1 and lat[0] > 0 and ss["data"]["lat_mean"] == lat[0], ss
assert j["read"]["clat_ns"]["min"] <= lat[0] <= j["read"]["clat_ns"]["max"], (lat, j["read"]["clat_ns"])
assert j["read"]["runtime"] < 10000, j["read"]["runtime"]
PY
for bad in --ss=iops --ss=latency:2% --ss=iops:-1 --ss=iops:x% --ss_dur=1q; do
	expect_exit 2 "$IOB" job --no-store --quiet --name=b --rw=read --bs=4k --size=64k $bad
done
exit 0
