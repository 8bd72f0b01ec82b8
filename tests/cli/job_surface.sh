# fio's surface-scan options in job files: verify_pattern (the payload of every block
# after its header and stamps, a damaged byte of it found; each form accepted, bad text
# refused), verify_interval (the stamps' unit: a stamp carrying its offset every 512
# bytes; sizes iobattery cannot stamp refused), do_verify=0 (blocks stamped, no read-back,
# no reads in fio JSON), verify= on a job that reads what an earlier job wrote with
# verify, and fill_device=1 (size= caps it; a full file system, made by the fault shim or
# a 1 MiB tmpfs, ends the job without an error). Never runs fill_device without a cap.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
shim=$PWD/tests/fault/iobfault.so
# a sanitizer build: the shim is preloaded before the sanitizer runtime
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
mkdir "$T/w" && cd "$T/w" || exit 1
job="job --no-store -q"

# fj FILE: fio JSON of FILE's run -> "job reads writes read_bytes write_bytes error" lines
fj() {
	# shellcheck disable=SC2086
	"$IOB" $job --format fio-json "$@" > "$T/fj.json" 2> "$T/err" ||
		{ cat "$T/err" >&2; fail "job $* exited $?"; }
	python3 - > "$T/fj" <<'EOF' || fail "job $*: no fio JSON"
import json, os
d = json.load(open(os.environ['T'] + '/fj.json'))
for j in d['jobs']:
    r, w = j['read'], j['write']
    print(j['jobname'], r['total_ios'], w['total_ios'], r['io_bytes'], w['io_bytes'], j['error'])
EOF
}
export T

# surface-scan's shape at 1 MiB: the writer stamps (do_verify=0), the reader reads and asks
# for the check; the counts as fio's (16 writes, 16 reads, no verify reads added)
cat > s.fio <<'EOF'
[global]
thread
bs=64k
ioengine=sync
verify=meta
verify_pattern=0xaa555aa5
verify_interval=512

[write-phase]
filename=datafile.tmp
rw=write
fill_device=1
size=1m
do_verify=0

[verify-phase]
stonewall
create_serialize=0
filename=datafile.tmp
rw=read
do_verify=1
EOF
fj s.fio
# (a build without extended attributes cannot mark the file as iobattery's: --overwrite)
have_feature xattr || ow=--overwrite
[ "$(cat "$T/fj")" = "write-phase 0 16 0 1048576 0
verify-phase 16 0 1048576 0 0" ] || { cat "$T/fj" >&2; fail "surface-scan's counts"; }
expect_exit 0 "$IOB" $job ${ow:-} s.fio
expect_out "job verify: 16 blocks in 1 file (1.00 MiB) read back in "
expect_out ": all as written"
# verify_interval=512: every 512 bytes of a block a stamp holding that piece's offset;
# the pattern after the header (64 bytes) and after each stamp (32 bytes)
python3 - <<'EOF' || fail "no stamp every 512 bytes, or not the pattern"
import struct
d = open('datafile.tmp', 'rb').read()
assert len(d) == 1 << 20, len(d)
for off in (512, 1024, 65536 + 3584, 1048576 - 512):
    assert struct.unpack_from('<Q', d, off + 8)[0] == off, off
pat = bytes.fromhex('aa555aa5')
assert d[64:512] == pat * 112, d[64:80].hex()
assert d[65536 + 544:65536 + 1024] == pat * 120, d[65536 + 544:65536 + 560].hex()
EOF
expect_exit 0 "$IOB" verify datafile.tmp
expect_out "datafile.tmp: ok"
# one byte of the pattern changed: found, at its offset
python3 - <<'EOF' || fail "cannot damage the file"
d = bytearray(open('datafile.tmp', 'rb').read())
d[3 * 65536 + 700] ^= 0xff
open('datafile.tmp', 'wb').write(d)
EOF
expect_exit 1 "$IOB" verify datafile.tmp
expect_out "corrupted: 1 block, the first at offset 196608"
rm -f datafile.tmp s.fio

# do_verify=0 alone: stamped, nothing read back, no reads in fio JSON
fj --name=w --rw=write --bs=16k --size=256k --verify=crc32c --do_verify=0
[ "$(cat "$T/fj")" = "w 0 16 0 262144 0" ] || { cat "$T/fj" >&2; fail "do_verify=0's counts"; }
expect_exit 0 "$IOB" $job --name=w --rw=write --bs=16k --size=256k --verify=crc32c \
	--do_verify=0
grep -q "job verify" "$T/out" && fail "do_verify=0 read the blocks back"
# ... while do_verify=1 counts the read-back as the writer's reads, as fio does
fj --name=w --rw=write --bs=16k --size=256k --verify=crc32c --do_verify=1
[ "$(cat "$T/fj")" = "w 16 16 262144 262144 0" ] || { cat "$T/fj" >&2; fail "do_verify=1"; }

# verify_pattern alone turns verification on (fio's verify=pattern); each form accepted
for p in 0xaa555aa5 0xAA "'abc'" '"abc"' %o 12 '0xff%o"abcd"12'; do
	expect_exit 0 "$IOB" $job --name=p --rw=write --bs=8k --size=64k "--verify_pattern=$p"
	expect_out "job verify: 8 blocks in 1 file (64 KiB) read back in "
done
expect_out "verify_pattern with %o is not written: the blocks carry iobattery's random payload"
# the pattern as given: 'abc' repeated from each block's first byte, 12 as one byte
expect_exit 0 "$IOB" $job --name=p --rw=write --bs=8k --size=16k --filename=p.bin \
	"--verify_pattern='abc'12"
python3 -c "
d = open('p.bin', 'rb').read()
assert d[64:4096] == (b'abc\x0c' * 1024)[64:4096], d[64:80]
" || fail "'abc'12 is not the payload"
rm -f p.bin
[ -z "$(ls -A)" ] || fail "left behind: $(ls -A)"

refused() { # TEXT ARGS...
	text=$1; shift
	# shellcheck disable=SC2086
	expect_exit 2 "$IOB" $job "$@"
	expect_out "$text"
	[ -z "$(ls -A)" ] || fail "job $*: left behind: $(ls -A)"
}
a="command line argument 1, section [a]:"
bad="0xHEX, 'text', \"text\", %o or a decimal number, one after the other, at most 512 bytes"
for p in 0xzz "'abc" '"abc' '%d' '-12' 'abc' '0x'; do
	refused "$bad" --name=a --rw=write --size=64k "--verify_pattern=$p"
done
refused "one pattern, without spaces between its parts" --name=a --rw=write --size=64k \
	"--verify_pattern=0xaa 0xbb"
refused "a pattern (0xHEX, 'text', %o or a number) is required" --name=a --rw=write \
	--size=64k "--verify_pattern= "
# 513 bytes: refused (the message cuts the value short)
refused "section [a]: invalid 'verify_pattern=0x0000" --name=a --rw=write --size=64k \
	"--verify_pattern=0x$(printf '%01026d' 0)"
for v in 1000 256 131072; do
	refused "verify_interval=$v: iobattery stamps pieces of a power of two from 512 bytes to 64 KiB, at most bs=65536" \
		--name=a --rw=write --bs=64k --size=1m --verify=md5 "--verify_interval=$v"
done
refused "'do_verify=2': must be 0 or 1" --name=a --rw=write --size=64k --do_verify=2
refused "fill_device=1 with rw=randwrite is not implemented: iobattery fills the file system sequentially" --name=a --rw=randwrite \
	--size=64k --fill_device=1
refused "verify= on a job that only reads checks what a job of the run writes with verify: nothing does to 'a.0.0'" \
	--name=a --rw=read --size=64k --verify=md5

# fill_device without size=: written until ENOSPC, which ends the job without an error.
# Only on a full file system made small: the fault shim's ENOSPC at the 21st write of the
# file, or a 1 MiB tmpfs (root). Without either, not run: it would fill this one.
# Both also under a file size limit of 8 MiB, should the shim not load.
ran=0
if [ -f "$shim" ]; then
	(
		ulimit -f 8192
		export IOB_FAULT="op=write,err=ENOSPC,nth=21,path=full.bin"
		LD_PRELOAD="$shim" fj --name=f --rw=write --bs=64k --fill_device=1 \
			--filename=full.bin --verify=crc32c --do_verify=1
	) || exit 1
	grep -q '^iobfault: write failed' "$T/err" || { cat "$T/err" >&2; fail "no ENOSPC"; }
	# 20 writes and the one ENOSPC ended (issued, as fio counts it), 20 verify reads
	[ "$(cat "$T/fj")" = "f 20 21 1310720 1310720 0" ] ||
		{ cat "$T/fj" >&2; fail "fill_device's counts at ENOSPC"; }
	[ "$(stat -c %s full.bin)" = 1310720 ] || fail "the filled file is not 20 blocks"
	rm -f full.bin
	if command -v fio > /dev/null 2>&1; then
		# fio under the same shim (its size= caps it should the shim not act)
		(
			ulimit -f 8192
			export IOB_FAULT="op=write,err=ENOSPC,nth=21,path=full.bin"
			LD_PRELOAD="$shim" fio --name=f --rw=write --bs=64k --fill_device=1 \
				--filename=full.bin --size=4m --output-format=json > "$T/fio.json" \
				2> /dev/null
		) || fail "fio with fill_device failed"
		python3 - <<'EOF' || fail "fio's fill_device counts differ from ours"
import json, os
s = open(os.environ['T'] + '/fio.json').read()
j = json.loads(s[s.index('{'):])['jobs'][0]
got = (j['write']['total_ios'], j['write']['io_bytes'], j['error'])
assert got == (21, 1310720, 0), got
EOF
		rm -f full.bin
	fi
	ran=1
fi
if [ "$(id -u)" = 0 ] && mkdir m && mount -t tmpfs -o size=1m tmpfs m 2> /dev/null; then
	# shellcheck disable=SC2086
	(ulimit -f 8192; exec "$IOB" $job --name=f --rw=write --bs=64k --fill_device=1 \
		--filename=m/f.bin --verify=crc32c) > "$T/out" 2>&1
	rc=$?
	sz=$(stat -c %s m/f.bin 2> /dev/null)
	umount m && rmdir m
	[ $rc = 0 ] || { cat "$T/out" >&2; fail "fill_device on a full tmpfs: exit $rc"; }
	[ "$sz" = 1048576 ] || fail "the tmpfs of 1 MiB holds $sz bytes"
	expect_out "job verify: 16 blocks in 1 file (1.00 MiB) read back in "
	ran=1
fi
[ $ran = 1 ] || skip "fill_device until ENOSPC: neither the fault shim (make fault-shim) nor root"
exit 0
