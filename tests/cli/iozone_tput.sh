# iozone -t: workers released together, iozone's Children see / Parent sees lines, and
# stonewalling: when the first worker finishes the others stop counting (readers stop
# reading); -x turns it off and every worker counts its whole file. -d delays worker 2 by
# a second, so that worker 1 is surely done before it starts; -F puts each file in a
# scratch directory beside its name.
. tests/cli/lib
mkdir "$T/w" "$T/d1" "$T/d2" && cd "$T/w" || exit 1

run() { # NAME ARGS...: the run as JSON in $T/NAME.json, its text in $T/NAME.txt
	name=$1; shift
	expect_exit 0 "$IOB" iozone -t 2 -s 256k -r 64k -i 0 -i 1 -+n "$@" --no-store \
		--format text,json --output-dir "$T" --quiet
	mv "$T/iobattery-results.json" "$T/$name.json"
	mv "$T/iobattery-results.txt" "$T/$name.txt"
}
run sw -d 1000000
run nosw -d 1000000 -x
grep -q 'Children see throughput for  2 initial writers' "$T/sw.txt" || fail "no Children line"
grep -q 'Parent sees throughput for  2 readers' "$T/sw.txt" || fail "no Parent line"
grep -q 'Min xfer' "$T/sw.txt" || fail "no Min xfer line"
grep -q 'Children see: the sum of each worker' "$T/sw.txt" || fail "no sentence on the lines"
python3 - "$T/sw.json" "$T/nosw.json" << 'PY' || fail "stonewalling"
import json, sys
sw, nosw = (json.load(open(p)) for p in sys.argv[1:3])
def m(w, name):
    return next(x["value"] for x in w["metrics"] if x["name"] == name)
rows = {w["phase"]: w for w in sw["rows"]}
# worker 2 starts a second late: worker 1 is done, so worker 2 counts nothing
for ph in ("write", "read"):
    w = rows[ph]
    assert w["params"]["stonewall"] == "1"
    assert m(w, "stonewalled") == 1, ph
    assert m(w, "worker1_xfer") == 256 and m(w, "worker2_xfer") == 0, ph
    assert m(w, "min_xfer") == 0
    assert abs(w["rate"] - m(w, "worker1_rate") - m(w, "worker2_rate")) < 1e-6 * w["rate"]
# the writer goes on writing uncounted (the file must be whole); the reader stops
assert rows["write"]["bytes"] == 2 * 262144
assert rows["read"]["bytes"] == 262144
for w in nosw["rows"]:
    assert w["params"]["stonewall"] == "0"
    assert m(w, "stonewalled") == 0
    assert m(w, "worker1_xfer") == 256 and m(w, "worker2_xfer") == 256
    assert w["bytes"] == 2 * 262144
PY

# -F: one file per worker, each in a scratch directory beside its name (kept by -w)
expect_exit 0 "$IOB" iozone -t 2 -F "$T/d1/f1" "$T/d2/f2" -s 64k -r 64k -i 0 -w \
	--no-store --quiet
set -- "$T"/d1/iobattery.*/f1 "$T"/d2/iobattery.*/f2
[ -f "$1" ] && [ -f "$2" ] || fail "the -F files are not where they were asked"
[ -z "$(ls -A)" ] || fail "files made in the current directory: $(ls -A)"
exit 0
