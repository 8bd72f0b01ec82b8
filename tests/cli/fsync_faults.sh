# iobattery fsync: bad input exits 2 with a reason and creates nothing; a full file
# system while laying out the file fails the run (exit 1) with the call and the reason
# (root: a small tmpfs); the crash test with a journal, and over the loopback with the
# listener of the power-cut procedure, leaves a file that 'iobattery verify --journal'
# accepts, and a block the journal says was acknowledged, then zeroed, fails it.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
cd "$T" || exit 1
mkdir d || exit 1

expect_exit 2 "$IOB" fsync --block 0 -f d
expect_out "bad value for --block: '0'"
expect_exit 2 "$IOB" fsync --block 1000 -f d
expect_exit 2 "$IOB" fsync --secs-per-test 0 -f d
expect_out "bad value for --secs-per-test: '0': must be at least 1"
expect_exit 2 "$IOB" fsync -s x -f d
expect_exit 2 "$IOB" fsync --method sync_file_range --verify -f d/c
expect_out "unknown --method"
echo mine > mine
expect_exit 2 "$IOB" fsync -s 1 -f mine
expect_out "refusing to overwrite a file iobattery did not create: 'mine'"
[ "$(cat mine)" = mine ] || fail "the user's file was changed"
expect_exit 2 "$IOB" fsync -f /nonexistent/dir/f
expect_exit 2 "$IOB" fsync --listen 127.0.0.1:0
expect_out "--listen records into --verify-journal FILE"
expect_exit 2 "$IOB" fsync --listen nohost -f d --verify-journal "$T/jx"
expect_exit 2 "$IOB" fsync --verify --engine null -f d/c
[ -z "$(ls d)" ] || fail "a refused run left files: $(ls d)"

# a full file system while the file is laid out (pg_test_fsync dies there too)
if is_root && mkdir m && mount -t tmpfs -o size=4m tmpfs m 2>/dev/null; then
	cleanup_hooks="umount '$T/m' 2>/dev/null;"
	expect_exit 1 "$IOB" fsync -s 1 -f m --no-space-check --no-store
	expect_out "cannot lay out the test file: write: No space left on device"
	[ -z "$(ls m)" ] || fail "files left on the full file system: $(ls m)"
	umount m
	cleanup_hooks=""
fi

# the crash test with a local journal: acknowledged writes all there afterwards
expect_exit 0 "$IOB" fsync -s 1 -f "$T/c1" --verify-journal "$T/j1" --blocks 16 --no-store
expect_out "fsync crash test:"
expect_out "fsync verify: 16 blocks in 1 file"
expect_out "all as written"
expect_out "check it with 'iobattery verify --journal $T/j1 $T/c1'"
[ -f c1 ] || fail "the crash test's file was not kept"
expect_exit 0 "$IOB" verify --journal j1 c1
expect_out "c1: ok"

# the power-cut procedure's two sides on the loopback
"$IOB" fsync --listen 127.0.0.1:0 --verify-journal "$T/j2" > lis.out 2>&1 &
lp=$!
cleanup_hooks="kill $lp 2>/dev/null;"
port=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\);.*/\1/p' lis.out)
	[ -n "$port" ] && break
	sleep 0.2
done
[ -n "$port" ] || { cat lis.out >&2; fail "the listener did not say where it listens"; }
expect_exit 0 "$IOB" fsync -s 1 -f "$T/c2" --report-to "127.0.0.1:$port" --blocks 16 \
	--method fsync --no-store
expect_out "acknowledged generations recorded:"
wait "$lp" || { cat lis.out >&2; fail "the listener failed"; }
cleanup_hooks=""
grep -q "acknowledged writes of run .* recorded in '$T/j2'; the writer finished" lis.out ||
	{ cat lis.out >&2; fail "the listener did not say what it recorded"; }
expect_exit 0 "$IOB" verify --journal j2 c2
expect_out "c2: ok"
# an acknowledged block lost: the first zeroed
python3 -c "
d = bytearray(open('c2', 'rb').read()); d[0:8192] = bytes(8192); open('c2', 'wb').write(d)"
expect_exit 1 "$IOB" verify --journal j2 c2
expect_out "zeroed: 1 block, the first at offset 0"
# a listener that is not there
expect_exit 1 "$IOB" fsync -s 1 -f "$T/c3" --report-to "127.0.0.1:$port" --blocks 4 --no-store
expect_out "cannot reach the listener"
exit 0
