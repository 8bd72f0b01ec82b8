# SIGINT during the random seeks: exit 130, every file removed, partial results written
# and marked incomplete.
. tests/cli/lib
mkdir "$T/d" "$T/o" || exit 1
# 16 MiB, no per-char tests, a seek count that takes far longer than we wait.
"$IOB" bonnie -d "$T/d" -s 16:8192:2000000000:2 -n 0 -f -r 8 --quiet \
	--format json --output-dir "$T/o" > "$T/out" 2>&1 &
pid=$!
i=0
while ! ls "$T"/d/iobattery.*/Bonnie.* >/dev/null 2>&1 && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$T/out"; fail "exit status $rc, expected 130"; }
[ -z "$(ls "$T/d")" ] || fail "files left behind: $(ls -R "$T/d")"
j="$T/o/iobattery-results.json"
[ -s "$j" ] || fail "no partial result written"
grep -q '"phase": *"seeks"' "$j" || fail "no seeks row in the partial result"
grep -q '"incomplete"' "$j" || fail "the seeks row is not marked incomplete"
exit 0
