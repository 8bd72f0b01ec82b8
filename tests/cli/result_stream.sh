# The streaming result loader (src/stats/result_json_stream.c) takes every result the
# workloads write, and gives the same run as the tree (the whole document parsed at
# once): the result_stream harness (tests/fuzz/fuzz_result_stream.c) checks each file
# from memory and from the file read a few bytes at a time, with and without histograms,
# and must take each one as it is (RESULT_STREAM_MUST_TAKE). A document the stream leaves
# to the tree (a member twice) loads as before, with the same figures.
# tests/slow/verify_result.sh does the same for every workload, the battery and MPI.
. tests/cli/lib
bin=tests/fuzz/bin/result_stream
[ -x "$bin" ] || fail "harness not built: $bin (make fuzz-replay)"
command -v python3 > /dev/null || skip "python3 missing"
mkdir "$T/w" "$T/res" || exit 1

res() { # NAME CMD...: CMD --format json into $T/res/NAME.json
	name=$1; shift
	"$@" --format json --no-store > "$T/res/$name.json" 2> "$T/err"
	st=$?
	[ $st = 0 ] || { cat "$T/err" >&2; fail "$name: '$*' exited $st"; }
}

res dd "$IOB" dd if=/dev/zero of="$T/w/f" bs=64k count=64 conv=fdatasync --quiet
res dd_repeat "$IOB" dd if=/dev/zero of="$T/w/g" bs=64k count=32 --repeat 3 --quiet
res cp "$IOB" cp "$T/w/f" "$T/w/f2" --quiet
res bonnie "$IOB" bonnie -d "$T/w" -s 8 -r 4 -n 1 -f --quiet
printf 'set location %s\nset number 50\nset transactions 100\nrun\nquit\n' "$T/w" > "$T/pm"
res postmark "$IOB" postmark "$T/pm" --quiet
res iozone "$IOB" iozone -a -g 256k -f "$T/w/iozone.tmp" --no-device-probe --quiet
res job "$IOB" job --name=j --rw=randrw --bs=4k --size=1m --filename="$T/w/j" --quiet
res null "$IOB" job --name=n --rw=randread --bs=4k --size=4m --ioengine=null --quiet

n=0
for f in "$T"/res/*.json; do
	RESULT_STREAM_MUST_TAKE=1 "$bin" "$f" > "$T/out" 2>&1 ||
		{ cat "$T/out" >&2; fail "$(basename "$f"): the stream and the tree differ"; }
	n=$((n + 1))
done
[ $n -eq 8 ] || fail "only $n results checked"

# a member written twice: the tree keeps the last, so the stream leaves it to the tree;
# compare gives the same text either way (names of one length: the text wraps)
mkdir "$T/p" "$T/q" || exit 1
cp "$T/res/iozone.json" "$T/p/r.json" || exit 1
python3 - "$T/p/r.json" "$T/q/r.json" <<'PY' || fail "edit"
import sys
t = open(sys.argv[1]).read()
open(sys.argv[2], 'w').write(t.replace('"label": null,', '"label": "first",\n  "label": null,', 1))
PY
# (it aborts, as a harness does, leaving its file: in $T, removed with it)
TMPDIR=$T RESULT_STREAM_MUST_TAKE=1 "$bin" "$T/q/r.json" > "$T/out" 2>&1 &&
	fail "the stream took a document with a member twice"
"$bin" "$T/q/r.json" > "$T/out" 2>&1 || { cat "$T/out" >&2; fail "twice: the harness failed"; }
for d in p q; do
	(cd "$T/$d" && "$IOB" compare --no-store r.json r.json > ../$d.txt 2>&1) ||
		fail "compare of $d/r.json exited $?"
done
cmp -s "$T/p.txt" "$T/q.txt" || { diff "$T/p.txt" "$T/q.txt" | head >&2; fail "the two ways differ"; }
exit 0
