# SIGINT in the middle of a long dd: exit 130, the output file removed, nothing left.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1

# Big enough to run for many seconds; the space check is skipped on purpose.
"$IOB" dd if=/dev/zero of=big bs=4k count=100M --no-space-check --quiet > "$T/out" 2>&1 &
pid=$!
i=0
while [ ! -s big ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -s big ] || { kill $pid; fail "dd never started writing"; }
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$T/out"; fail "exit status $rc, expected 130"; }
[ ! -e big ] || fail "the interrupted output file was left behind"
grep -q "interrupted" "$T/out" || { cat "$T/out"; fail "partial result not marked"; }

# The quick battery: its scratch directory is removed on SIGTERM as well.
"$IOB" run --size 2g --quiet --no-json > "$T/out" 2>&1 &
pid=$!
i=0
while ! ls -d iobattery.* >/dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$T/out"; fail "run: exit status $rc, expected 130"; }
no_scratch .
[ -z "$(ls)" ] || fail "files left behind: $(ls)"
exit 0
