# The job loop's arithmetic with the null engine (no I/O, so it is fast and exact):
# rwmixread=70 gives 70% reads within 2 points over 100,000 requests with a fixed seed;
# rate_iops and rate hold within 5% over a second; a zipf distribution's hottest blocks
# take the share its formula says (offsets counted from fio's write_iolog);
# number_ios stops the job exactly.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
rows=$PWD/tests/cli/job_rows.py
mkdir "$T/w" && cd "$T/w" || exit 1
job() { # NAME ARGS...: run a null-engine job, rows into $T/NAME.rows
	n=$1; shift
	"$IOB" job --no-store --quiet --format json --name="$n" --ioengine=null "$@" \
		> "$T/$n.json" 2> "$T/$n.err" || { cat "$T/$n.err"; fail "$n: exit $?"; }
	python3 "$rows" "$T/$n.json" > "$T/$n.rows" || fail "$n: unreadable result"
}
ops() { # NAME PHASE
	awk -v p="$2" '$1 == "job" && $3 == p {split($4, a, "="); print a[2]}' "$T/$1.rows"
}

job mix --rw=randrw --rwmixread=70 --bs=4k --size=1g --number_ios=100000 --randseed=7
r=$(ops mix read) w=$(ops mix write)
[ $((r + w)) = 100000 ] || fail "number_ios=100000 made $((r + w)) requests"
awk -v r="$r" 'BEGIN {exit !(r >= 68000 && r <= 72000)}' || fail "rwmixread=70: $r reads of 100000"

job iops --rw=randread --bs=4k --size=1g --rate_iops=2000 --runtime=1 --time_based
r=$(ops iops read)
awk -v r="$r" 'BEGIN {exit !(r >= 1900 && r <= 2100)}' || fail "rate_iops=2000 for 1 s: $r"
job bw --rw=write --bs=4k --size=1g --rate=4m --runtime=1 --time_based
r=$(ops bw write)
awk -v r="$r" 'BEGIN {exit !(r >= 973 && r <= 1075)}' || fail "rate=4m of 4k for 1 s: $r"

job zipf --rw=randread --bs=4k --size=4m --loops=100 --random_distribution=zipf:1.2 \
	--randseed=3 --write_iolog="$T/zipf.log"
python3 - "$T/zipf.log" <<'PY' || fail "zipf:1.2: the hottest blocks' share is off"
import collections, sys
n, theta, top = 1024, 1.2, 10
count = collections.Counter(l.split()[3] for l in open(sys.argv[1]) if " read " in l)
total = sum(count.values())
assert total == 102400, total
h = sum(k ** -theta for k in range(1, n + 1))
want = sum(k ** -theta for k in range(1, top + 1)) / h
got = sum(c for _, c in count.most_common(top)) / total
print("zipf top %d share %.4f, formula %.4f" % (top, got, want))
sys.exit(0 if abs(got - want) < 0.01 else 1)
PY
no_scratch .
exit 0
