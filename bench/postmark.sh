#!/bin/sh
# bench/postmark.sh - iobattery postmark against PostMark 1.51 on the same directory with
# the same settings, alternating (A B A B ...) for ROUNDS rounds in one run.
# Prints per round: each tool's transactions/s (its own report; PostMark's comes from
# whole seconds), wall time and CPU seconds of the process (GNU time), peak RSS; then the
# median ratios ours/postmark. Goal: transactions/s ratio >= 0.98, RSS no more than
# PostMark's plus the latency histograms.
#
# Usage: bench/postmark.sh [DIR]   (default: a temp dir under $TMPDIR or /tmp)
# Environment: ROUNDS (3), NUMBER (20000), TRANSACTIONS (100000), SIZE ("500 10000"),
#              IOB (./iobattery).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
export IOBATTERY_DB="${TMPDIR:-/tmp}/iob-bench-$$.db"   # keep bench runs out of the user's store
ROUNDS=${ROUNDS:-3}
NUMBER=${NUMBER:-20000}
TRANSACTIONS=${TRANSACTIONS:-100000}
SIZE=${SIZE:-500 10000}
command -v postmark > /dev/null 2>&1 || { echo "postmark is not installed"; exit 77; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed"; exit 77; }
[ -x "$IOB" ] || { echo "build iobattery first ($IOB)"; exit 1; }
parent=${1:-${TMPDIR:-/tmp}}
d=$(mktemp -d "$parent/iob-bench-postmark.XXXXXX") || exit 1
trap 'rm -rf "$d" "$IOBATTERY_DB"' EXIT
mkdir "$d/work"
printf 'set location %s\nset number %s\nset transactions %s\nset size %s\nrun\nquit\n' \
	"$d/work" "$NUMBER" "$TRANSACTIONS" "$SIZE" > "$d/script"

# one TOOL ROUND: run it, print "tps wall_s cpu_s rss_kb"
one() {
	if [ "$1" = iob ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$d/time" "$IOB" postmark "$d/script" \
			> "$d/out" 2>&1 || { echo "iobattery failed: $(tail -n 3 "$d/out")" >&2; exit 1; }
	else
		/usr/bin/time -f '%e %U %S %M' -o "$d/time" postmark "$d/script" \
			> "$d/out" 2>&1 || { echo "postmark failed" >&2; exit 1; }
	fi
	tps=$(sed -n 's/.*seconds of transactions (\([0-9.]*\) per second).*/\1/p' "$d/out")
	[ -n "$tps" ] || { echo "$1: no report: $(tail -n 5 "$d/out")" >&2; exit 1; }
	awk -v tps="$tps" '{ printf "%s %s %.3f %s\n", tps, $1, $2 + $3, $4 }' "$d/time"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "postmark settings: number $NUMBER, transactions $TRANSACTIONS, size $SIZE; dir $d"
printf '%-5s %-9s %12s %9s %9s %10s %14s\n' round tool "tps" "wall s" "cpu s" "rss KiB" "cpu us/txn"
: > "$d/ratios"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	a=$(one iob) || exit 1
	b=$(one pm) || exit 1
	for x in "iob $a" "postmark $b"; do
		set -- $x
		printf '%-5s %-9s %12s %9s %9s %10s %14.2f\n' "$r" "$1" "$2" "$3" "$4" "$5" \
			"$(echo "$4 $TRANSACTIONS" | awk '{ print $1 * 1e6 / $2 }')"
	done
	set -- $a $b
	echo "$1 $5 $2 $6 $3 $7 $4 $8" | awk '{ printf "%.4f %.4f %.4f %.4f\n", \
		$1 / $2, $4 / $3, $5 / ($6 > 0 ? $6 : 1e-9), $7 / $8 }' >> "$d/ratios"
	r=$((r + 1))
done
echo
echo "median ratios, ours / postmark (A B alternating, $ROUNDS rounds):"
printf '  transactions/s (each tool'"'"'s report; postmark'"'"'s in whole seconds): %s\n' \
	"$(cut -d' ' -f1 "$d/ratios" | median)"
printf '  speed from wall time (postmark wall / ours):                        %s\n' \
	"$(cut -d' ' -f2 "$d/ratios" | median)"
printf '  CPU seconds (ours / postmark):                                      %s\n' \
	"$(cut -d' ' -f3 "$d/ratios" | median)"
printf '  peak RSS (ours / postmark):                                         %s\n' \
	"$(cut -d' ' -f4 "$d/ratios" | median)"
