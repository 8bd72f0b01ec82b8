# dd --verify: a clean run finds nothing (its verify row is a phase of its own, every
# write row marked); then each of the four kinds of damage, injected by this test into
# the written file, is found by 'iobattery verify' and named with its offset: bytes
# overwritten (corrupted), a block copied onto another offset (misdirected), a block of
# an earlier run put back (a lost write: other-run), half a block zeroed (torn). A
# journal holds dd to what its sync acknowledged. Bad input exits 2.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
cd "$T" || exit 1
B=65536

expect_exit 0 "$IOB" dd if=/dev/zero of=old bs=64k count=16 --data random --verify --no-store
expect_exit 0 "$IOB" dd if=/dev/zero of=f bs=64k count=16 --data random --verify \
	--verify-journal "$T/j" --no-store --format json
python3 - "$T/out" <<'EOF' || fail "the clean run's rows are wrong"
import json, sys
run = json.load(open(sys.argv[1]))
w = [r for r in run['rows'] if r['phase'] == 'write']
v = [r for r in run['rows'] if r['phase'] == 'verify']
if len(w) != 1 or len(v) != 1 or w[0]['params'].get('verify') != 'true':
    sys.exit('expected a write row marked verify and one verify row')
v = v[0]
m = {x['name']: x['value'] for x in v['metrics']}
# short and steal say how the machine ran, not what was read
if set(v['flags']) - {'short', 'steal'} or m['verify_blocks'] != 16 or \
   m['verify_bad_blocks'] != 0 or m['verify_ok'] != 16 or v['bytes'] != 16 * 65536:
    sys.exit('verify row: %r %r' % (v['flags'], m))
if m['verify_acknowledged'] != 16:
    sys.exit('acknowledged %r blocks, not 16' % m['verify_acknowledged'])
if v['elapsed_ns'] <= 0 or w[0]['elapsed_ns'] <= 0 or v['params']['verify_crc_path'] not in \
   ('sse4.2', 'armv8-crc', 'software'):
    sys.exit('verify row times or crc path')
EOF
expect_exit 0 "$IOB" verify f
expect_out "f: ok"
expect_exit 0 "$IOB" verify --journal "$T/j" f
expect_out "held to the journal's acknowledged generations"
expect_exit 0 "$IOB" dd if=/dev/zero of=g bs=64k count=4 --verify-after-drop --no-store
expect_out "read after dropping the page cache"
# a tail shorter than a header (1560 = 3 x 512 + 24) is merged with the block before it
expect_exit 0 "$IOB" dd if=/dev/zero of=t ibs=520 obs=512 count=3 --verify --no-store
expect_exit 0 "$IOB" verify t
expect_out "t: 4 blocks of 512 B"

cp f f.clean
python3 - "$B" <<'EOF' || fail "cannot damage the file"
import sys
B = int(sys.argv[1])
d = bytearray(open('f', 'rb').read())
old = open('old', 'rb').read()
d[1 * B + 1000:1 * B + 1010] = b'XXXXXXXXXX'	# corrupted at block 1, byte +1000
d[5 * B:6 * B] = d[3 * B:4 * B]			# block 3 onto block 5: misdirected
d[7 * B:8 * B] = old[7 * B:8 * B]		# an earlier run's block 7: lost write
d[9 * B + B // 2:10 * B] = bytes(B // 2)	# the second half of block 9 zeroed: torn
open('f', 'wb').write(d)
EOF
expect_exit 1 "$IOB" verify f
expect_out "corrupted: 1 block, the first at offset 65536 (first bad byte at 66536)"
expect_out "misdirected: 1 block, the first at offset 327680"
expect_out "other-run: 1 block, the first at offset 458752"
expect_out "torn: 1 block, the first at offset 589824 (first bad byte at 622592)"
expect_out "f: 4 bad blocks"
# the journal says block 7 was acknowledged: it is a lost write there too
expect_exit 1 "$IOB" verify -j "$T/j" f
expect_out "other-run: 1 block, the first at offset 458752"

# a block zeroed after its sync: acknowledged and lost
cp f.clean f
python3 -c "
d = bytearray(open('f', 'rb').read()); d[12 * 65536:13 * 65536] = bytes(65536)
open('f', 'wb').write(d)"
expect_exit 1 "$IOB" verify --journal "$T/j" f
expect_out "zeroed: 1 block, the first at offset 786432"
expect_exit 0 "$IOB" verify f.clean g

# bad input: not a verified file, no file, a journal that is none, a missing option value
head -c 100000 /dev/urandom > plain
expect_exit 2 "$IOB" verify plain
expect_out "not a file written with --verify: 'plain'"
expect_exit 2 "$IOB" verify nothing-here
expect_exit 2 "$IOB" verify --journal plain f.clean
expect_out "not a journal of acknowledged generations: 'plain'"
expect_exit 2 "$IOB" verify
expect_exit 2 "$IOB" verify f.clean plain
# the worst file decides: a clean file and a bad one exit 1
expect_exit 1 "$IOB" verify f.clean f
expect_exit 2 "$IOB" dd if=plain of=h bs=4k --verify --no-store
expect_out "needs generated input"
expect_exit 2 "$IOB" dd if=/dev/zero of=h bs=32 count=4 --verify --no-store
expect_exit 2 "$IOB" dd if=/dev/zero of=h bs=4k count=4 seek=2 --verify --no-store
expect_exit 2 "$IOB" dd if=/dev/zero of=h bs=4k count=4 --verify --engine null --no-store
expect_out "needs an engine that transfers data"
expect_exit 2 "$IOB" dd if=/dev/zero of=h bs=4k count=4 --verify-journal "$T/j" --no-store
expect_out "the journal exists"
expect_exit 2 "$IOB" dd if=/dev/zero of=h bs=4k count=4 --report-to nowhere --no-store
[ ! -e h ] || fail "a refused run left a file"
exit 0
