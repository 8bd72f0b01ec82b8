#!/bin/sh
# postmark_counts.sh - a script run at small sizes: the report's counts add up, the same
# seed gives identical counts twice, terse and JSON forms, and nothing is left behind.
set -u
d=$(mktemp -d "$TESTS_TMP/iob-postmark_counts.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$d/pm.script" <<EOS
set location $d/work
set number 200
set transactions 800
set size 200 4000
set subdirectories 3
set seed 1234
run
quit
EOS
mkdir "$d/work"
"$IOB" postmark "$d/pm.script" > "$d/out1" 2> "$d/err1" || fail "run exited $? $(cat "$d/err1")"
"$IOB" postmark "$d/pm.script" > "$d/out2" 2> "$d/err2" || fail "second run exited $?"
[ -z "$(ls -A "$d/work")" ] || fail "files left behind: $(ls -A "$d/work")"

num() { # LABEL-REGEX FILE: the first number on the first line matching
	grep -E "$1" "$2" | head -n 1 | sed 's/^[^0-9]*\([0-9][0-9]*\).*/\1/'
}
created=$(num '^	[0-9]+ created' "$d/out1")
calone=$(num 'Creation alone' "$d/out1")
cmixed=$(grep 'Mixed with transactions' "$d/out1" | sed -n 1p | sed 's/^[^0-9]*\([0-9]*\).*/\1/')
deleted=$(num '^	[0-9]+ deleted' "$d/out1")
dalone=$(num 'Deletion alone' "$d/out1")
dmixed=$(grep 'Mixed with transactions' "$d/out1" | sed -n 2p | sed 's/^[^0-9]*\([0-9]*\).*/\1/')
[ -n "$created" ] && [ -n "$deleted" ] || fail "no counts in report: $(cat "$d/out1")"
[ "$calone" -eq 200 ] || fail "creation alone $calone, want 200"
[ $((calone + cmixed)) -eq "$created" ] || fail "created $created != $calone + $cmixed"
[ $((dalone + dmixed)) -eq "$deleted" ] || fail "deleted $deleted != $dalone + $dmixed"
[ "$created" -eq "$deleted" ] || fail "created $created != deleted $deleted"
grep -q '^Latency' "$d/out1" || fail "no latency table"
grep -q '^  transaction  *800 ' "$d/out1" || fail "transaction latency count is not 800"

# Same seed, same counts (everything but times and rates).
counts() { grep -E '^	.*(created|read|appended|deleted|alone|Mixed)' "$1" | sed 's/(.*//'; }
counts "$d/out1" > "$d/c1"; counts "$d/out2" > "$d/c2"
cmp -s "$d/c1" "$d/c2" || fail "same seed gave different counts: $(diff "$d/c1" "$d/c2")"

# Terse: one line of 13 numbers after the progress lines.
sed 's/^run$/set report terse\nrun/' "$d/pm.script" > "$d/terse.script"
"$IOB" postmark "$d/terse.script" > "$d/out3" || fail "terse run exited $?"
n=$(tail -n 1 "$d/out3" | awk '{ print NF }')
[ "$n" -eq 13 ] || fail "terse line has $n fields: $(tail -n 1 "$d/out3")"

# JSON: the total row holds the counts.
"$IOB" postmark --format json "$d/pm.script" > "$d/out.json" || fail "json run exited $?"
grep -q '"files_created"' "$d/out.json" || fail "no files_created metric in JSON"
grep -q '"phase": *"transactions"' "$d/out.json" || fail "no transactions row in JSON"
if command -v python3 > /dev/null 2>&1; then
	python3 - "$d/out.json" "$created" <<'EOP' || fail "JSON counts differ from the text"
import json, sys
d = json.load(open(sys.argv[1]))
tot = [r for r in d["rows"] if r["phase"] == "total"][0]
m = {x["name"]: x["value"] for x in tot["metrics"]}
assert int(m["files_created"]) == int(sys.argv[2]), m
assert m["files_created"] == m["files_deleted"]
ops = {r["phase"]: r["ops"] for r in d["rows"]}
assert ops["transactions"] == 800 and ops["create_alone"] == 200
assert ops["read"] == int(m["files_read"]) and ops["append"] == int(m["files_appended"])
EOP
fi
# Unbuffered, fsync and direct I/O: the same counts; fsync makes every byte durable.
for extra in 'set buffering false' 'set fsync true' 'set direct true'; do
	sed "s/^run\$/$extra\nrun/" "$d/pm.script" > "$d/x.script"
	"$IOB" postmark "$d/x.script" > "$d/outx" 2> "$d/errx" ||
		fail "'$extra' exited $?: $(cat "$d/errx")"
	counts "$d/outx" > "$d/cx"
	cmp -s "$d/c1" "$d/cx" || fail "'$extra' changed the counts: $(diff "$d/c1" "$d/cx")"
	[ -z "$(ls -A "$d/work")" ] || fail "'$extra' left files behind"
done
grep -q 'each file fsynced before closing' "$d/outx" && fail "direct run claims fsync"
sed 's/^run$/set fsync true\nrun/' "$d/pm.script" > "$d/f.script"
"$IOB" postmark "$d/f.script" | grep -q 'each file fsynced before closing' ||
	fail "fsync run does not say its bytes are durable"

# Out of files: only deletes, the pool runs dry; the report says so, exit 0.
printf 'set location %s\nset number 20\nset bias read -1\nset bias create 0\nset transactions 100\nrun\n' \
	"$d/work" > "$d/dry.script"
"$IOB" postmark "$d/dry.script" > "$d/outd" 2>&1 || fail "out-of-files run exited $?"
grep -q 'out of files' "$d/outd" || fail "no out-of-files note: $(cat "$d/outd")"
grep -q '^	20 deleted' "$d/outd" || fail "out-of-files deleted count: $(cat "$d/outd")"
echo "ok"
