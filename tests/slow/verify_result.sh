# iobattery verify --result: every workload's result (dd, cp, bonnie, postmark, iozone,
# db, fsync, job, sustained, dd --verify, the battery; a two-rank run where MPI is here;
# --repeat) passes: its digest matches and every summary figure follows from its data,
# and the streaming loader reads each into the run the tree reads (fuzz_result_stream).
# A figure edited by hand fails, named; a figure edited with the digest made again still
# fails on the re-derivation; a result that is not one is bad input (exit 2).
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
mkdir "$T/w" "$T/res" || exit 1

res() { # NAME CMD...: CMD --format json into $T/res/NAME.json
	name=$1; shift
	"$@" --format json --no-store > "$T/res/$name.json" 2> "$T/err"
	st=$?
	[ $st = 0 ] || { cat "$T/err" >&2; fail "$name: '$*' exited $st"; }
}

res dd "$IOB" dd if=/dev/zero of="$T/w/f" bs=64k count=64 conv=fdatasync --quiet
res dd_read "$IOB" dd if="$T/w/f" of=/dev/null bs=64k --quiet
res dd_repeat "$IOB" dd if=/dev/zero of="$T/w/g" bs=64k count=32 --repeat 3 --quiet
res cp "$IOB" cp "$T/w/f" "$T/w/f2" --quiet
res bonnie "$IOB" bonnie -d "$T/w" -s 8 -r 4 -n 0 -f --quiet
printf 'set location %s\nset number 50\nset transactions 100\nrun\nquit\n' "$T/w" > "$T/pm"
res postmark "$IOB" postmark "$T/pm" --quiet
res iozone "$IOB" iozone -s 256k -r 16k -i 0 -i 1 -i 2 -f "$T/w/iozone.tmp" \
	--no-device-probe --quiet
res db "$IOB" db --rows 2000 --quiet "$T/w"
res fsync "$IOB" fsync -s 1 -f "$T/w/fs" --quiet
res job "$IOB" job --name=j --rw=randrw --bs=4k --size=1m --filename="$T/w/j" --quiet
res sustained "$IOB" sustained -d "$T/w" --size 16m --step 0.05 --quiet
res dd_verify "$IOB" dd if=/dev/zero of="$T/w/v" bs=64k count=32 --verify --quiet
res battery "$IOB" battery -d "$T/w" --size 4m --steps dd,cp,bonnie --budget 10s --quiet
if [ -x "$IOB" ] && "$IOB" --version | grep -Eq '^built with:(.* )?mpi( |$)' &&
   (. tests/cli/mpi_lib) > /dev/null 2>&1; then
	. tests/cli/mpi_lib
	mpi_run 2 "$IOB" dd if=/dev/zero of="$T/w/m" bs=64k count=32 --no-store \
		--format json --quiet > "$T/res/mpi_dd.json" 2> "$T/err" ||
		{ cat "$T/err" >&2; fail "two-rank dd exited $?"; }
	grep -q '"rank_count"' "$T/res/mpi_dd.json" || fail "the two-rank run has no ranks"
else
	echo "note: no MPI here: the two-rank result is not checked"
fi

[ -n "${VR_KEEP:-}" ] && cp "$T"/res/*.json "$VR_KEEP/"
# the streaming loader takes each and gives the tree's run (tests/cli/result_stream.sh)
for f in "$T"/res/*.json; do
	RESULT_STREAM_MUST_TAKE=1 tests/fuzz/bin/result_stream "$f" > "$T/out" 2>&1 ||
		{ cat "$T/out" >&2; fail "$(basename "$f"): the stream and the tree differ"; }
done
for f in "$T"/res/*.json; do
	expect_exit 0 "$IOB" verify --result "$f"
	expect_out "ok: digest matches"
done

# one figure edited by hand: named, exit 1
python3 - "$T/res/dd.json" "$T/edited.json" <<'PY' || fail "edit"
import json, sys
d = json.load(open(sys.argv[1]))
d['rows'][0]['rate'] *= 1.5
json.dump(d, open(sys.argv[2], 'w'), indent=2)
PY
expect_exit 1 "$IOB" verify --result "$T/edited.json"
expect_out "edited.json: rows[0] dd write: rate: is"
expect_out "edited.json: digest: differs"

# a percentile edited and the digest made again: the digest passes, the figure does not
"$IOB" verify --result "$T/res/bonnie.json" > /dev/null || fail "bonnie result"
result_edit "$T/res/bonnie.json" "$T/redigest.json" "for r in d['rows']:
    if r.get('latency'):
        r['latency']['p99_ns'] += 1000
        break"
expect_exit 1 "$IOB" verify --result "$T/redigest.json"
expect_out "latency.p99_ns: is"
grep -q ": digest:" "$T/out" && fail "the digest made again still fails"

# not a result: bad input
printf '{"tool": "iobattery"' > "$T/broken.json"
expect_exit 2 "$IOB" verify --result "$T/broken.json"
expect_exit 2 "$IOB" verify --result "$T/nonexistent.json"
exit 0
