# iozone under faults beyond the matrix's row per path (fault_matrix.sh): each sync the
# tests make (before a test, after it, timed by -e) names itself and leaves no durable
# figure; a failure under -w removes the file and the scratch directory; a short write is
# finished with the byte totals exact; a failed -b leaves an older workbook as it was.
. tests/cli/lib
shim=$PWD/tests/fault/iobfault.so
[ -f "$shim" ] || skip "the fault shim was not built (needs Linux and glibc)"
command -v python3 > /dev/null || skip "python3 missing"
cd "$T" || exit 1
mkdir w
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
ioz="iozone --no-store --no-device-probe --format json -s 64k -r 4k -f $T/w/iozone.tmp"

# fault SPEC WANT_EXIT ARGS...: run iozone under the shim; out.json, err
fault() {
	spec=$1 want=$2; shift 2
	# shellcheck disable=SC2086
	IOB_FAULT="$spec,path=iozone.tmp" LD_PRELOAD="$shim" "$IOB" $ioz "$@" \
		> out.json 2> err
	rc=$?
	[ $rc -eq "$want" ] || { cat err >&2; fail "$spec $*: exit $rc, not $want"; }
	grep -q '^iobfault: ' err || { cat err >&2; fail "$spec $*: the fault never struck"; }
	[ "$want" -eq 0 ] || [ -z "$(ls -A w)" ] || fail "$spec $*: left in w: $(ls -A w)"
}
# line TEXT: the failure message holds TEXT
line() {
	grep -F "iobattery: iozone: " err | grep -qF -- "$1" ||
		{ cat err >&2; fail "no message like: $1"; }
}
# figures PHASE: "buffered durable" of PHASE's row (None when absent)
figures() {
	python3 -c "
import json, sys
for r in json.load(open('out.json'))['rows']:
    if r['phase'] == sys.argv[1]:
        print(r.get('buffered_ns'), r.get('durable_ns'))" "$1"
}

# the write test's own fsync after it (iozone's second fsync of the file)
fault op=fsync,nth=2 1 -i 0
line "write failed: '$T/w/iobattery."
line "/iozone.tmp': fsync after the test: Input/output error after 65536 bytes written; the file was removed"
[ "$(figures write)" = "None None" ] || fail "figures after a failed fsync: $(figures write)"
# the rewrite's fsync before its test: the write test's figures stand
fault op=fsync,nth=3 1 -i 0
line "rewrite failed: "
line "fsync before the test: Input/output error after 0 bytes written"
set -- $(figures write)
[ "$1" != None ] && [ "$2" != None ] || fail "the write test lost its figures: $*"
# -e: the fsync inside the timer
fault op=fsync,nth=2 1 -i 0 -e
line "write failed: "
line "': fsync: Input/output error after 65536 bytes written"
[ "$(figures write)" = "None None" ] || fail "figures after a failed -e fsync: $(figures write)"
# ENOSPC in random write: the call and how far it got
fault op=write,err=ENOSPC,nth=40 1 -i 0 -i 2
line "random_write failed: "
line "': pwrite: No space left on device after 28672 bytes written"
# -w keeps nothing of a failed run (fault checks w is empty: no scratch directory)
fault op=write,nth=20 1 -i 0 -w
grep -q 'kept the files' err && fail "-w said it kept the files of a failed run"

# a short write is finished: exit 0, each pass 64 kB, the -w file whole
fault op=short,nth=3 0 -i 0 -i 1 -i 2 -i 9 -w -E
python3 - <<'EOF' || fail "byte totals after a short write"
import json
rows = json.load(open('out.json'))['rows']
bad = [(r['phase'], r['bytes']) for r in rows if r['bytes'] != 65536 or r['flags'].count('failed')]
if bad or len(rows) < 8:
    raise SystemExit('rows: %r' % bad)
EOF
[ "$(cat w/iobattery.*/iozone.tmp | wc -c)" -eq 65536 ] || fail "the -w file is not whole"
rm -rf w/iobattery.*

# -b: a fault leaves the workbook that was there as it was
if have_feature xlsxwriter; then
	head -c 1000 /dev/urandom > w/m.xlsx
	cp w/m.xlsx old.xlsx
	IOB_FAULT="op=write,err=ENOSPC,nth=2,path=w/m.xlsx" LD_PRELOAD="$shim" \
		"$IOB" iozone --no-store --no-device-probe -s 64k -r 4k -i 0 -b w/m.xlsx --force \
		> out 2>&1 && { cat out >&2; fail "-b: exit 0 after ENOSPC"; }
	grep -q "iobattery: iozone: cannot write the spreadsheet: 'w/m.xlsx': No space left on device" out ||
		{ cat out >&2; fail "-b: no message with the reason"; }
	cmp -s w/m.xlsx old.xlsx || fail "-b: the old workbook was changed"
	[ "$(ls -A w)" = m.xlsx ] || fail "-b: left: $(ls -A w)"
fi
exit 0
