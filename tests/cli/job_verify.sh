# job --verify: every block a job writes carries a header, the layout included, and a
# verify row after the steps reads every file back. Clean runs find nothing (sequential
# and random writes, the engines, several threads overwriting one file for a second, a
# mix, repeats); fio's verify= does the same with a warning; a block the fault shim
# corrupts on its way to the file fails the run (exit 1) and is named with its offset, a
# write the shim loses is found stale, damage a later write overwrote is rightly not
# reported; a named file kept afterwards is checked again by 'iobattery verify' and damage
# put into it is found; what cannot be checked is refused (exit 2) before anything is
# made.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
shim=$PWD/tests/fault/iobfault.so
mkdir "$T/w" && cd "$T/w" || exit 1
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
job="job --no-store -q"

# rows CHECK ARGS...: the JSON of a job run (exit 0) held to the python CHECK, which sees
# rows (the run's rows), v (its verify rows) and m(row) (a row's metrics); nothing of the
# run is left but the files it was told to keep (keep=1)
rows() {
	check=$1; shift
	# shellcheck disable=SC2086
	"$IOB" $job "$@" --format json > "$T/out.json" 2> "$T/err" ||
		{ cat "$T/err" >&2; fail "job $* exited $?"; }
	python3 - "$check" <<'EOF' || { cat "$T/err" >&2; fail "job $*: rows are wrong"; }
import json, os, sys
rows = json.load(open(os.environ['T'] + '/out.json'))['rows']
v = [r for r in rows if r['phase'] == 'verify']
def m(r):
    return {x['name']: x['value'] for x in r['metrics']}
def clean(r, blocks):
    assert m(r)['verify_blocks'] == blocks and m(r)['verify_bad_blocks'] == 0, m(r)
    assert 'failed' not in r['flags'] and r['rate_unit'] == 'MB/s', r
    assert r['params']['verify_generations'] == 'last-write', r['params']
assert all(r['params'].get('verify') == 'true' for r in rows), 'a row not marked verify'
assert not any('failed' in r['flags'] for r in rows), 'a row failed'
exec(sys.argv[1])
EOF
	[ -n "${keep:-}" ] || [ -z "$(ls -A)" ] || fail "job $*: left behind: $(ls -A)"
}
export T

# sequential writes: the layout's 16 blocks and the step's, one verify row after the steps
rows '
assert len(v) == 1 and [r["phase"] for r in rows][-1] == "verify", rows
clean(v[0], 16)
assert m(v[0])["verify_ok"] == 16 and v[0]["bytes"] == 1 << 20, m(v[0])
assert v[0]["params"]["verify_block"] == "65536", v[0]["params"]
' --name=w --rw=write --bs=64k --size=1m --verify
# random writes of 8k: every block once (the random map), then in two passes
rows 'clean(v[0], 64)' --name=r --rw=randwrite --bs=8k --size=512k --verify
rows 'clean(v[0], 64)' --name=r --rw=randwrite --bs=8k --size=512k --loops=2 --norandommap \
	--verify-after-drop
# a mix: reads pass through unchecked, writes are blocks of the write size
rows 'clean(v[0], 128)' --name=m --rw=randrw --bs=16k,4k --size=512k --verify
# repeats: a verify row each
rows 'assert len(v) == 2 and v[1]["repeat"] == 1, v; clean(v[0], 32); clean(v[1], 32)' \
	--name=r --rw=randwrite --bs=16k --size=512k --repeat 2 --verify
if have_feature io_uring; then
	rows 'clean(v[0], 128)' --name=u --rw=randwrite --bs=4k --size=512k \
		--ioengine=io_uring --iodepth=16 --verify
	# four threads overwrite one file for a second at queue depth 8: writes of one block
	# that overlap are accepted whichever landed last (in flight), none is stale
	keep=1 rows '
clean(v[0], 64)
assert m(v[0]).get("verify_stale", 0) == 0 and len([r for r in rows if r["phase"] == "write"]) == 4
' --name=t --rw=randwrite --bs=4k --size=256k --numjobs=4 --filename="$T/w/shared.bin" \
		--ioengine=io_uring --iodepth=8 --norandommap --time_based --runtime=1 --verify
	rm -f shared.bin
	# fixedbufs: the writes go out from the hook's buffers, and the run says so
	expect_exit 0 "$IOB" $job --name=f --rw=randwrite --size=256k --ioengine=io_uring \
		--fixedbufs --verify
	expect_out "section [f]: fixedbufs with --verify: the writes go out from the stamped buffers"
	expect_out ": all as written"
fi
if have_feature libaio; then
	rows 'clean(v[0], 32)' --name=a --rw=write --bs=16k --size=512k --ioengine=libaio \
		--iodepth=4 --verify
fi
rows 'clean(v[0], 32)' --name=p --rw=randwrite --bs=16k --size=512k --ioengine=mmap --verify

# the text: fio's summary, then the check as every workload prints it
expect_exit 0 "$IOB" $job --name=w --rw=write --bs=64k --size=1m --verify
expect_out "Run status group 0 (all jobs):"
expect_out "job verify: 16 blocks in 1 file (1.00 MiB) read back in "
expect_out ": all as written"
expect_out ", each block held to its last write"
no_scratch .

# fio's verify= in a job file turns the check on, saying whose header is written
printf '[global]\nbs=32k\nsize=256k\n[w]\nrw=randwrite\nverify=crc32c\nverify_interval=4k\n' > v.fio
expect_exit 0 "$IOB" $job v.fio
expect_out "job verify: 8 blocks in 1 file (256 KiB) read back in "
printf '[global]\nbs=32k\nsize=256k\n[w]\nrw=randwrite\nverify=crc32c\ndo_verify=1\n' > v.fio
expect_exit 0 "$IOB" $job v.fio
expect_out "iobattery: job: 'v.fio' line 6, section [w]: verify=crc32c is served by iobattery's --verify: every block the run writes carries iobattery's header and CRC32C (not fio's crc32c header)"
expect_out "job verify: 8 blocks in 1 file (256 KiB) read back in "
sed -i 's/verify=crc32c/verify=0/' v.fio
expect_exit 0 "$IOB" $job v.fio
grep -q "job verify" "$T/out" && fail "verify=0 checked"
rm v.fio

if [ -f "$shim" ]; then
	# fault SPEC WANT ARGS...: a job under the shim on the job's file w.0.0 (the layout is
	# one write of the whole file, the timed writes follow); out, err
	fault() {
		spec=$1 want=$2; shift 2
		# shellcheck disable=SC2086
		IOB_FAULT="$spec,path=w.0.0" LD_PRELOAD="$shim" "$IOB" $job --name=w "$@" \
			> "$T/out" 2> "$T/err"
		rc=$?
		[ $rc -eq "$want" ] || { cat "$T/err" >&2; fail "$spec $*: exit $rc, not $want"; }
		grep -q '^iobfault: write ' "$T/err" ||
			{ cat "$T/err" >&2; fail "$spec $*: the shim never struck"; }
		no_scratch .
	}
	# the 6th write is the step's 5th block of 64 KiB, at 256 KiB; its middle byte 32 KiB in
	fault op=corrupt,nth=6 1 --rw=write --bs=64k --size=1m --verify --format json
	grep -q "^iobattery: job: verify failed: bad blocks: corrupted 1 (first at offset 262144 of '$T/w/iobattery\.[^/]*/w\.0\.0', byte 294912)$" "$T/err" ||
		{ cat "$T/err" >&2; fail "no message naming the corrupted block"; }
	[ "$(grep -c 'verify failed' "$T/err")" = 1 ] || { cat "$T/err" >&2; fail "said twice"; }
	python3 - <<'EOF' || fail "the JSON of the corrupted run"
import json, os
rows = json.load(open(os.environ['T'] + '/out'))['rows']
v = [r for r in rows if r['phase'] == 'verify']
assert len(v) == 1 and 'failed' in v[0]['flags'], v
m = {x['name']: x['value'] for x in v[0]['metrics']}
assert m['verify_corrupted'] == 1 and m['verify_first_corrupted'] == 262144, m
assert m['verify_bad_blocks'] == 1 and m['verify_ok'] == 15, m
assert v[0]['error'].startswith('bad blocks: corrupted 1 (first at offset 262144'), v[0]
assert not any('failed' in r['flags'] for r in rows if r['phase'] != 'verify'), rows
EOF
	fault op=corrupt,nth=6 1 --rw=write --bs=64k --size=1m --verify
	grep -q "^job verify: 16 blocks in 1 file (1.00 MiB) read back in .*: 1 bad$" "$T/out" ||
		{ cat "$T/out" >&2; fail "the text of the corrupted run"; }
	grep -q "^  corrupted: 1 block, the first at offset 262144$" "$T/out" ||
		{ cat "$T/out" >&2; fail "the text's corrupted line"; }
	# a lost overwrite: the block keeps the layout's generation, older than its last write
	fault op=lose,nth=6 1 --rw=write --bs=64k --size=1m --verify
	grep -q "^iobattery: job: verify failed: bad blocks: stale 1 (first at offset 262144 of " \
		"$T/err" || { cat "$T/err" >&2; fail "no stale block for the lost write"; }
	grep -q "^  stale (lost write): 1 block, the first at offset 262144$" "$T/out" ||
		{ cat "$T/out" >&2; fail "the text's stale line"; }
	# the same among random writes (where it lands is the random map's business)
	fault op=lose,nth=9 1 --rw=randwrite --bs=16k --size=512k --verify
	grep -q "^iobattery: job: verify failed: bad blocks: stale 1 (first at offset " "$T/err" ||
		{ cat "$T/err" >&2; fail "no stale block for the lost random write"; }
	# damage to the layout that the step overwrote is gone: nothing to report
	fault op=corrupt,nth=1 0 --rw=write --bs=64k --size=1m --verify
	grep -q ": all as written$" "$T/out" || { cat "$T/out" >&2; fail "overwritten damage said"; }
fi

# a named new file is kept: 'iobattery verify' checks it again (with the journal of what
# each fsync acknowledged), and finds a block damaged or copied onto another afterwards
keep=1 rows '
clean(v[0], 32)
assert m(v[0])["verify_acknowledged"] >= 32, m(v[0])
assert v[0]["params"]["verify_journal"].endswith("/j"), v[0]["params"]
' --name=k --rw=randwrite --bs=16k --size=512k --fsync=4 --filename="$T/w/kept.bin" \
	--verify-journal "$T/j"
[ -f kept.bin ] || fail "the named file was not kept"
expect_exit 0 "$IOB" verify kept.bin
expect_out "kept.bin: 32 blocks of 16 KiB (512 KiB), run "
expect_out "kept.bin: ok"
expect_exit 0 "$IOB" verify --journal "$T/j" kept.bin
expect_out "held to the journal's acknowledged generations"
python3 - <<'EOF' || fail "cannot damage the kept file"
d = bytearray(open('kept.bin', 'rb').read())
d[5 * 16384 + 1000] ^= 1
d[9 * 16384:10 * 16384] = d[2 * 16384:3 * 16384]
open('kept.bin', 'wb').write(d)
EOF
expect_exit 1 "$IOB" verify kept.bin
expect_out "corrupted: 1 block, the first at offset 81920 (first bad byte at 82920)"
expect_out "misdirected: 1 block, the first at offset 147456"
rm -f kept.bin "$T/j"

# refused before anything is made
refused() { # TEXT ARGS...
	text=$1; shift
	# shellcheck disable=SC2086
	expect_exit 2 "$IOB" $job "$@"
	expect_out "$text"
	[ -z "$(ls -A)" ] || fail "job $*: left behind: $(ls -A)"
}
a="command line argument 1, section [a]:"
refused "$a --verify writes blocks of one size: bsrange gives writes of several (give bs= alone)" \
	--name=a --rw=randwrite --bsrange=4k-16k --size=1m --verify
refused "$a --verify writes blocks of one size: bssplit gives writes of several" \
	--name=a --rw=randwrite --bssplit=4k/50:8k/50 --size=1m --verify
refused "$a --verify needs writes of 64 bytes to 1 GiB (a block's header and its limit): bs=32" \
	--name=a --rw=write --bs=32 --size=64k --verify
refused "$a --verify writes whole blocks of bs=8192: blockalign=4096 puts writes across them" \
	--name=a --rw=randwrite --bs=8k --ba=4k --size=1m --verify
refused "$a --verify writes whole blocks of bs=8192: rw=...:4096 skips part of one" \
	--name=a --rw=write:4k --bs=8k --size=1m --verify
refused "$a --verify writes whole blocks of bs=8192 from the start of the file: the region [4096, 1052672) of 'a.0.0' is not" \
	--name=a --rw=write --bs=8k --size=1m --offset=4k --verify
refused "$a --verify needs an engine that transfers data: ioengine=null does not" \
	--name=a --rw=write --size=1m --ioengine=null --verify
refused "job: --verify has nothing to check: no job writes" --name=a --rw=read --size=1m --verify
refused "$a verify= on a job that only reads checks what a job of the run writes with verify" \
	--name=a --rw=read --size=1m --verify=md5
refused "job: --verify lays every file written out in checkable blocks: --no-layout cannot be used with it" \
	--name=a --rw=write --size=1m --no-layout --verify
refused "command line argument 4, section [a]: 'verify=pattern': fio's pattern verification is not implemented" \
	--name=a --rw=write --size=64k --verify=pattern
refused "job: --verify-journal records one run: use --repeat 1" \
	--name=a --rw=write --size=64k --verify-journal "$T/j" --repeat 2
printf '[a]\nrw=write\nbs=8k\nsize=64k\nfilename=f.bin\n[b]\nrw=randwrite\nbs=4k\nsize=64k\nfilename=f.bin\n' > "$T/two.fio"
refused "job: '$T/two.fio' line 6, section [b]: --verify checks one block size per file: 'f.bin' is written with bs=8192 by [a] and bs=4096 here" \
	"$T/two.fio" --verify
# an existing file: written only with --overwrite, and checked only when the jobs cover it
head -c 200000 /dev/urandom > "$T/user.bin"
refused "--verify checks whole files: '$T/user.bin' holds 200000 bytes, more than the jobs use (65536)" \
	--name=a --rw=write --size=64k --filename="$T/user.bin" --overwrite --verify
[ ! -e "$T/j" ] || fail "a refused run made the journal"
exit 0
