# SIGINT in the middle of a job: it stops, the partial figures are written and marked
# interrupted, the scratch directory and a named new file are removed, exit 130.
# O_DIRECT with a block size the device cannot take is reported as such (exit 1).
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
mkdir "$T/w" && cd "$T/w" || exit 1

"$IOB" job --no-store --quiet --format json --name=long --rw=randrw --bs=4k --size=8m \
	--runtime=60 --time_based > "$T/out.json" 2> "$T/err" &
pid=$!
i=0
while ! ls -d iobattery.* > /dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$T/err"; fail "exit status $rc, expected 130"; }
grep -q "interrupted" "$T/err" || { cat "$T/err"; fail "no word of the interruption"; }
python3 - "$T/out.json" <<'PY' || fail "the partial figures are not marked"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["incomplete"] is True
rows = [r for r in d["rows"] if r["phase"] in ("read", "write")]
assert rows and all("incomplete" in r["flags"] for r in rows), rows
assert all(r["ops"] > 0 for r in rows)
assert all(r["elapsed_ns"] < 30e9 for r in rows)
PY
no_scratch .

# a named new file made for the run goes too when interrupted
"$IOB" job --no-store --quiet --name=n --rw=write --bs=4k --size=4m --filename=named.bin \
	--runtime=60 --time_based > /dev/null 2>&1 &
pid=$!
i=0
while [ ! -s named.bin ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.5
kill -INT $pid
wait $pid
[ $? -eq 130 ] || fail "named file run: not 130"
[ ! -e named.bin ] || fail "the interrupted run's new file was left behind"

# O_DIRECT alignment: 1000-byte requests cannot go to the device
"$IOB" job --no-store --name=odd --rw=randread --bs=1000 --size=1m --direct=1 \
	> "$T/out" 2>&1
rc=$?
if grep -q "cannot open" "$T/out"; then
	echo "skip the O_DIRECT part: the file system refuses O_DIRECT"
else
	[ $rc -eq 1 ] || { cat "$T/out"; fail "misaligned O_DIRECT: exit $rc, expected 1"; }
	grep -q "O_DIRECT needs offsets, sizes and buffers aligned" "$T/out" ||
		{ cat "$T/out"; fail "the alignment is not named"; }
fi
no_scratch .
[ -z "$(ls)" ] || fail "left behind: $(ls)"
exit 0
