# iozone --verify: every record the engine writes carries a header, and a verify row per
# cell reads the file back before iozone removes it (before fwrite when fwrite follows).
# Clean runs find nothing (a grid of four cells with every table test, throughput mode);
# a record the fault shim corrupts on its way to the file fails the run (exit 1) and is
# named with its offset in the message, the text, the JSON and the CSV, while damage a
# later pass overwrote is rightly not reported; a file kept with -w is checked again by
# 'iobattery verify' (with the journal too) and damage put into it is found; what cannot
# be checked is refused (exit 2) before anything is made.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
shim=$PWD/tests/fault/iobfault.so
cd "$T" || exit 1
mkdir w
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
ioz="iozone --no-store --no-device-probe -f $T/w/iozone.tmp"

# rows CHECK ARGS...: the JSON of an iozone run (exit 0) held to the python CHECK, which
# sees rows (the run's rows), v (its verify rows) and m(row) (a row's metrics)
rows() {
	check=$1; shift
	# shellcheck disable=SC2086
	"$IOB" $ioz "$@" --format json > out.json 2> err ||
		{ cat err >&2; fail "iozone $* exited $?"; }
	python3 - "$check" <<'EOF' || { cat err >&2; fail "iozone $*: rows are wrong"; }
import json, sys
rows = json.load(open('out.json'))['rows']
v = [r for r in rows if r['phase'] == 'verify']
def m(r):
    return {x['name']: x['value'] for x in r['metrics']}
exec(sys.argv[1])
EOF
	[ -n "${keep:-}" ] || [ -z "$(ls -A w)" ] || fail "iozone $*: left in w: $(ls -A w)"
}

# a grid of four cells with the table tests: a clean check per cell, after the last test
# that writes through the engine and before fwrite rewrites the file through stdio
rows '
assert len(v) == 4, "%d verify rows" % len(v)
for r in v:
    fk, rk = int(r["params"]["file_kb"]), int(r["params"]["reclen_kb"])
    assert m(r)["verify_blocks"] == fk // rk and m(r)["verify_bad_blocks"] == 0, m(r)
    assert m(r)["verify_ok"] == fk // rk and r["bytes"] == fk * 1024, r
    assert "failed" not in r["flags"] and r["rate_unit"] == "MB/s", r
    assert r["params"]["detail"] == "%d kB/%d kB, read back" % (fk, rk), r["params"]
phases = [r["phase"] for r in rows]
for k in range(4):
    cell = phases[k * 14:(k + 1) * 14]
    assert cell.index("verify") == cell.index("fwrite") - 1, cell
    assert cell.index("verify") > cell.index("record_rewrite"), cell
assert all(r["params"].get("verify") == "true" for r in rows), "a row not marked verify"
assert not any("failed" in r["flags"] for r in rows), "a row failed"
' -s 128k -s 256k -r 16k -r 32k --verify
# throughput mode: one check of every worker's file
rows '
assert len(v) == 1 and m(v[0])["verify_files"] == 3 and m(v[0])["verify_blocks"] == 48, m(v[0])
assert m(v[0])["verify_bad_blocks"] == 0 and v[0]["params"]["workers"] == "3", v[0]
' -t 3 -s 256k -r 16k -i 0 -i 2 -i 8 -i 9 --verify

# the text: the table keeps its line and its end; the check as every workload prints it
expect_exit 0 "$IOB" $ioz -s 256k -r 16k -i 0 -i 1 --verify
expect_out "Verify mode: every record written through the engine carries a header"
grep -Eq '^ +256 +16 +[0-9]' "$T/out" || { cat "$T/out" >&2; fail "the table lost its line"; }
expect_out "iozone test complete."
expect_out "iozone verify: 16 blocks in 1 file (256 KiB) read back in "
expect_out ": all as written"
expect_exit 0 "$IOB" $ioz -s 128k -s 256k -r 16k --verify-after-drop
expect_out "iozone verify: 2 cells, 24 blocks in 2 files (384 KiB) read back in "
expect_out ", read after dropping the page cache"

if [ -f "$shim" ]; then
	# corrupt SPEC WANT ARGS...: iozone under the shim's op=corrupt on the test file,
	# --format F given in ARGS; out, err
	corrupt() {
		spec=$1 want=$2; shift 2
		# shellcheck disable=SC2086
		IOB_FAULT="op=corrupt,$spec,path=iozone.tmp" LD_PRELOAD="$shim" "$IOB" $ioz "$@" \
			> out 2> err
		rc=$?
		[ $rc -eq "$want" ] || { cat err >&2; fail "corrupt $spec $*: exit $rc, not $want"; }
		grep -q '^iobfault: write corrupted' err ||
			{ cat err >&2; fail "corrupt $spec $*: the shim never struck"; }
		[ -z "$(ls -A w)" ] || fail "corrupt $spec $*: left in w: $(ls -A w)"
	}
	# the 21st write is the rewrite's 5th record (the write test made 16): at 64 KiB,
	# its middle byte 8 KiB in
	corrupt nth=21 1 -s 256k -r 16k -i 0 --verify --format json
	grep -qF "iobattery: iozone: verify failed: bad blocks: corrupted 1 (first at offset 65536 of '$T/w/iobattery." err ||
		{ cat err >&2; fail "no message naming the corrupted record"; }
	grep -qF "/iozone.tmp', byte 73728)" err || { cat err >&2; fail "the bad byte"; }
	python3 - <<'EOF' || fail "the JSON of the corrupted run"
import json
rows = json.load(open('out'))['rows']
v = [r for r in rows if r['phase'] == 'verify']
assert len(v) == 1 and 'failed' in v[0]['flags'], v
m = {x['name']: x['value'] for x in v[0]['metrics']}
assert m['verify_corrupted'] == 1 and m['verify_first_corrupted'] == 65536, m
assert m['verify_bad_blocks'] == 1 and m['verify_ok'] == 15, m
assert v[0]['error'].startswith('bad blocks: corrupted 1 (first at offset 65536'), v[0]
assert not any('failed' in r['flags'] for r in rows if r['phase'] != 'verify'), rows
EOF
	corrupt nth=21 1 -s 256k -r 16k -i 0 --verify
	grep -q "^iozone verify: 16 blocks in 1 file (256 KiB) read back in .*: 1 bad$" out ||
		{ cat out >&2; fail "the text of the corrupted run"; }
	grep -q "^  corrupted: 1 block, the first at offset 65536$" out ||
		{ cat out >&2; fail "the text's corrupted line"; }
	# two cells, the second's rewrite hit (writes 33 to 48): the one bad cell in full
	corrupt nth=40 1 -s 128k -s 256k -r 16k -i 0 --verify
	grep -q "^iozone verify: 2 cells, 24 blocks in 2 files (384 KiB) read back .*: 1 bad in 1 cell$" out ||
		{ cat out >&2; fail "the text of two cells, one bad"; }
	grep -q "^  the 256 kB file in 16 kB records:$" out || { cat out >&2; fail "the bad cell"; }
	grep -q "^  corrupted: 1 block, the first at offset 114688$" out ||
		{ cat out >&2; fail "the bad cell's offset"; }
	corrupt nth=40 1 -s 128k -s 256k -r 16k -i 0 --verify --format csv
	grep "^,verify,128,16,[0-9.][0-9.]*,0,1,,," out | grep -qv failed ||
		{ cat out >&2; fail "csv: clean cell"; }
	grep -q "^,verify,256,16,,0,1,,,.*failed" out || { cat out >&2; fail "csv: bad cell"; }
	# throughput mode: the workers' writes interleave, so which file the rewrite's
	# record hit is not known here, only that the check finds it
	corrupt nth=40 1 -t 2 -s 256k -r 16k -i 0 --verify --format json
	grep -q "iozone: verify failed: bad blocks: corrupted 1 (first at offset " err ||
		{ cat err >&2; fail "throughput mode: no corrupted record"; }
	# damage the rewrite overwrote is gone: nothing to report
	corrupt nth=5 0 -s 256k -r 16k -i 0 --verify
	grep -q ": all as written$" out || { cat out >&2; fail "damage overwritten reported"; }
fi

# -w keeps the last cell's file: 'iobattery verify' checks it again, with the journal of
# what each sync acknowledged, and finds a record damaged afterwards
keep=1 rows '
assert len(v) == 1 and m(v[0])["verify_bad_blocks"] == 0, v
assert m(v[0])["verify_acknowledged"] >= 16, m(v[0])
assert v[0]["params"]["verify_journal"].endswith("/j"), v[0]["params"]
' -s 256k -r 16k -i 0 -i 1 -i 2 -i 4 --verify-journal "$T/j" -w
set -- w/iobattery.*/iozone.tmp
[ -f "$1" ] || fail "-w kept no file"
f=$1
expect_exit 0 "$IOB" verify "$f"
expect_out "$f: 16 blocks of 16 KiB (256 KiB), run "
expect_out "$f: ok"
expect_exit 0 "$IOB" verify --journal "$T/j" "$f"
expect_out "held to the journal's acknowledged generations"
python3 - "$f" <<'EOF' || fail "cannot damage the kept file"
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[3 * 16384 + 100] ^= 1
open(sys.argv[1], 'wb').write(d)
EOF
expect_exit 1 "$IOB" verify "$f"
expect_out "corrupted: 1 block, the first at offset 49152 (first bad byte at 49252)"
rm -rf w/iobattery.* "$T/j"

# refused before anything is made: iozone's own checks, tests that only fwrite, a journal
# over several cells (a run id each), an engine that moves no data
refused() { # TEXT ARGS...
	text=$1; shift
	# shellcheck disable=SC2086
	expect_exit 2 "$IOB" $ioz "$@"
	expect_out "$text"
	[ -z "$(ls -A w)" ] || fail "iozone $*: left in w: $(ls -A w)"
}
refused "iozone option not supported: '-V': iozone's pattern check is not measured here; --verify checks every record written" -s 64k -V 165
refused "'-+d': iozone's byte by byte diagnostic check is not measured here; --verify" -s 64k -+d
refused "iozone: --verify has nothing to check: '-i 6 -i 7': fwrite goes through the C library" -s 64k -i 6 -i 7 --verify
refused "iozone: --verify-journal records the blocks of one cell: '$T/j': the grid has 2 cells" -s 64k -s 128k --verify-journal "$T/j"
refused "iozone: --verify needs an engine that transfers data: 'null' does not" -s 64k --verify --engine null
refused "iozone: --verify-journal records one run: use --repeat 1" -s 64k --verify-journal "$T/j" --repeat 2
[ ! -e "$T/j" ] || fail "a refused run made the journal"
exit 0
