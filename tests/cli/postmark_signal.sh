#!/bin/sh
# postmark_signal.sh - SIGINT during the transactions: every file removed, the partial
# report marked, exit 130.
set -u
d=$(mktemp -d "$TESTS_TMP/iob-postmark_sig.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$d/w"
printf 'set location %s\nset number 300\nset transactions 100000000\nset size 100 2000\nrun\n' \
	"$d/w" > "$d/s"
"$IOB" postmark "$d/s" > "$d/out" 2> "$d/err" &
pid=$!
# Wait until the transactions are under way (at most 20 s).
i=0
while ! grep -q 'Performing transactions' "$d/out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 200 ] && fail "transactions never started: $(cat "$d/out" "$d/err")"
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
wait "$pid"; rc=$?
pid=
[ "$rc" -eq 130 ] || fail "exit $rc, want 130: $(cat "$d/err")"
[ -z "$(ls -A "$d/w")" ] || fail "left behind: $(ls -A "$d/w")"
grep -q '^Interrupted' "$d/out" || fail "report not marked: $(cat "$d/out")"
grep -q 'Deleting files...Done' "$d/out" || fail "no deletion: $(cat "$d/out")"
echo "ok"
