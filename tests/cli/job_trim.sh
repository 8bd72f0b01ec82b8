#!/bin/sh
# fio's trim modes in `iobattery job`: rw=randtrim on a file punches holes (the file's
# blocks are freed, it reads as zeros, its size stays) and reports fio's trim lines;
# trimwrite trims then writes each block once; --format fio-json fills the trim object
# (a reader of fio JSON takes it); the safety rules of writes hold for trims (a user's
# file only with --overwrite, a device only when --destroy-data-on names it); a file
# system without punch hole (the fault shim's op=punch) is refused before anything is
# created. As root, a loop device made here: BLKDISCARD and its discard granularity; and
# fio's own JSON of the same trim has the same keys. (A device without discard is not
# made here: turning discard off through sysfs outlives the loop device.)
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
if ! have_feature punch_hole; then
	# shellcheck disable=SC2086
	expect_exit 2 "$IOB" job --no-store --name=t --rw=randtrim --size=1m
	expect_out "cannot trim files in '.': this iobattery was built without fallocate(FALLOC_FL_PUNCH_HOLE)"
	skip "trims of files are not in this build"
fi
shim=$PWD/tests/fault/iobfault.so
reader=$PWD/tests/cli/fio_json_reader.py
mkdir "$T/w" && cd "$T/w" || exit 1
job="$IOB job --no-store"

# randtrim of a named new file: kept after the run, every block a hole now
# shellcheck disable=SC2086
expect_exit 0 $job --name=t --rw=randtrim --bs=4k --size=1m --filename="$T/w/f.bin"
expect_out "  trim: IOPS="
expect_out "     issued rwts: total=0,0,256,0 short=0,0,0,0 dropped=0,0,0,0"
expect_out "   TRIM: bw="
expect_out "io=1024KiB (1049kB)"
expect_out "holes punched with fallocate(FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE)"
grep -q "^  write: \|^  read: " "$T/out" && fail "a trim job printed read or write lines"
[ "$(stat -c %s f.bin)" = 1048576 ] || fail "the trimmed file changed its size"
blocks=$(stat -c %b f.bin)
[ "$blocks" -le 16 ] || fail "the trimmed file still holds $blocks blocks of 512 bytes"
cmp -s -n 1048576 f.bin /dev/zero || fail "the trimmed file does not read as zeros"
no_scratch .

# an existing file of the user: trimming it is writing it
dd if=/dev/urandom of=user.bin bs=64k count=4 2> /dev/null
sum0=$(cksum user.bin)
# shellcheck disable=SC2086
expect_exit 2 $job --name=t --rw=trim --size=256k --filename="$T/w/user.bin"
expect_out "refusing to write a file iobattery did not create: '$T/w/user.bin': use --overwrite"
[ "$(cksum user.bin)" = "$sum0" ] || fail "the user's file changed"
# with --overwrite the first half is trimmed, sequentially, the rest stays
# shellcheck disable=SC2086
expect_exit 0 $job --overwrite --name=t --rw=trim --bs=16k --size=128k \
	--filename="$T/w/user.bin"
expect_out "issued rwts: total=0,0,8,0"
cmp -s -n 131072 user.bin /dev/zero || fail "the trimmed half does not read as zeros"
[ "$(stat -c %s user.bin)" = 262144 ] || fail "the user's file changed its size"
[ "$(stat -c %b user.bin)" -le 300 ] || fail "the trimmed half kept its blocks"
[ "$(stat -c %b user.bin)" -ge 200 ] || fail "more than the half was trimmed"

# trimwrite: each block trimmed, then written; the region once; fio-json's trim object
# shellcheck disable=SC2086
$job --quiet --format fio-json --name=tw --rw=trimwrite --bs=8k --size=512k > tw.json \
	2> err || { cat err; fail "trimwrite failed"; }
python3 - tw.json <<'PY' || fail "fio-json trim figures"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
t, w, r = j["trim"], j["write"], j["read"]
assert t["total_ios"] == 64 and t["io_bytes"] == 524288, t
assert w["total_ios"] == 64 and w["io_bytes"] == 524288, w
assert r["total_ios"] == 0, r
assert t["clat_ns"]["N"] == 64 and "99.000000" in t["clat_ns"]["percentile"], t["clat_ns"]
assert t["lat_ns"]["N"] == 64 and t["iops"] > 0 and t["bw_bytes"] > 0, t
assert j["job options"] == {"rw": "trimwrite", "bs": "8k", "size": "512k"}, j["job options"]
PY
python3 "$reader" tw.json > tw.txt || { cat tw.json; fail "the fio JSON reader refuses it"; }
grep -q '^tw trim rw=trimwrite bs=8k ' tw.txt || { cat tw.txt; fail "trim not read back"; }
no_scratch .

# the null engine issues trims as counts only; io_uring falls back to a synchronous trim
# shellcheck disable=SC2086
expect_exit 0 $job --name=n --rw=randtrim --ioengine=null --size=1m --bs=64k
expect_out "issued rwts: total=0,0,16,0"
if have_feature io_uring; then
	# shellcheck disable=SC2086
	"$IOB" job --no-store --name=u --rw=randtrim --ioengine=io_uring --iodepth=8 \
		--size=1m > "$T/out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		expect_out "issued rwts: total=0,0,256,0"
		expect_out "trims run synchronously inside submit with this engine"
	elif ! grep -q "io_uring" "$T/out"; then
		cat "$T/out" >&2
		fail "io_uring randtrim: exit $rc"
	fi
fi

# --verify has no stamp to check in a trimmed block
# shellcheck disable=SC2086
expect_exit 2 $job --verify --name=t --rw=randtrim --size=256k
expect_out "--verify cannot check a trim job (rw=randtrim)"
no_scratch .

# a file system without punch hole: refused before anything is created
if [ -f "$shim" ] && ! san_build; then
	before=$(ls)
	IOB_FAULT=op=punch LD_PRELOAD="$shim" "$IOB" job --no-store --name=t --rw=randtrim \
		--size=1m > "$T/out" 2>&1
	rc=$?
	[ $rc = 2 ] || { cat "$T/out" >&2; fail "trim without punch hole: exit $rc, not 2"; }
	expect_out "iobfault: punch hole refused"
	expect_out "section [t]: cannot trim files in '.': the file system"
	expect_out "does not punch holes (fallocate FALLOC_FL_PUNCH_HOLE): Operation not supported"
	no_scratch .
	[ "$(ls)" = "$before" ] || fail "files were created: $(ls)"
	# a named existing file is asked directly, and left as it was
	sum0=$(cksum user.bin)
	IOB_FAULT=op=punch LD_PRELOAD="$shim" "$IOB" job --no-store --overwrite --name=t \
		--rw=trim --size=64k --filename="$T/w/user.bin" > "$T/out" 2>&1
	rc=$?
	[ $rc = 2 ] || { cat "$T/out" >&2; fail "trim of a file without punch hole: exit $rc"; }
	expect_out "cannot trim '$T/w/user.bin': the file system"
	[ "$(cksum user.bin)" = "$sum0" ] || fail "the refused file changed"
else
	echo "skip the punch-hole refusal: no fault shim (or a sanitizer build)"
fi

# a loop device made here
if ! is_root || ! command -v losetup > /dev/null 2>&1; then
	echo "skip the loop device part: needs root and losetup"
	exit 0
fi
truncate -s 8m "$T/img"
loop=$(losetup -f --show "$T/img" 2> /dev/null) || loop=""
[ -n "$loop" ] || { echo "skip the loop device part: cannot attach one"; exit 0; }
cleanup_hooks='losetup -d "$loop" 2>/dev/null;'
q=/sys/block/${loop#/dev/}/queue
[ "$(cat "$q/discard_max_bytes")" -gt 0 ] ||
	{ echo "skip the loop device part: $loop does not discard"; exit 0; }
# shellcheck disable=SC2086
expect_exit 2 $job --name=d --rw=randtrim --size=1m --filename="$loop"
expect_out "--destroy-data-on $loop"
dd if=/dev/urandom of="$loop" bs=64k count=16 conv=fsync 2> /dev/null
# shellcheck disable=SC2086
expect_exit 0 $job --name=d --rw=randtrim --bs=4k --size=1m --filename="$loop" \
	--destroy-data-on "$loop"
expect_out "issued rwts: total=0,0,256,0"
expect_out "trim: BLKDISCARD on the device"
# the loop device punches its image: the discarded megabyte reads as zeros there
cmp -s -n 1048576 "$loop" /dev/zero || fail "the discarded range does not read as zeros"
gran=$(cat "$q/discard_granularity")
if [ "$gran" -gt 512 ]; then
	# shellcheck disable=SC2086
	expect_exit 2 $job --name=d --rw=randtrim --bs=512 --size=1m --filename="$loop" \
		--destroy-data-on "$loop"
	expect_out "cannot trim the device '$loop': bs=512 is not a multiple of its discard granularity ($gran bytes)"
fi
if command -v fio > /dev/null 2>&1; then
	fio --name=d --rw=randtrim --bs=4k --size=256k --filename="$loop" \
		--output-format=json > fio.json 2> /dev/null || fail "fio's randtrim failed"
	# shellcheck disable=SC2086
	$job --quiet --format fio-json --name=d --rw=randtrim --bs=4k --size=256k \
		--filename="$loop" --destroy-data-on "$loop" > ours.json 2> err ||
		{ cat err; fail "randtrim of the device failed"; }
	python3 - fio.json ours.json <<'PY' || fail "trim objects differ from fio's"
import json, sys
f, o = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
assert set(f["trim"]) <= set(o["trim"]), set(f["trim"]) - set(o["trim"])
assert f["trim"]["total_ios"] == o["trim"]["total_ios"] == 64
assert f["trim"]["io_bytes"] == o["trim"]["io_bytes"] == 262144
PY
	python3 "$reader" fio.json > /dev/null || fail "the reader refuses fio's own trim JSON"
fi
exit 0
