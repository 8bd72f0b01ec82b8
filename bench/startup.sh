#!/bin/sh
# bench/startup.sh - start-up cost: `iobattery --help` and `iobattery dd --help` against
# coreutils' `dd --version`, in ABBA order (ours, dd, dd, ours) for PAIRS pairs of
# RUNS runs each, as the wall time of one run (ms) and ratios ours/dd (median of the
# pairs, with their range), then the peak RSS of one run of each (GNU time's %M) and the
# shared libraries the binary loads at start (ldd).
#   bench/startup.sh [PAIRS] [RUNS]      (defaults 6 and 200)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
pairs=${1:-6}
runs=${2:-200}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }

# ms CMD...: the mean wall time of one of $runs runs, in ms
ms() {
	t0=$(date +%s%N)
	i=0
	while [ $i -lt "$runs" ]; do "$@" > /dev/null 2>&1; i=$((i + 1)); done
	t1=$(date +%s%N)
	echo "$t0 $t1 $runs" | awk '{ printf "%.3f", ($2 - $1) / 1e6 / $3 }'
}
for what in "--help" "dd --help"; do
	r=""
	p=0
	while [ $p -lt "$pairs" ]; do
		# shellcheck disable=SC2086
		if [ $((p % 2)) = 0 ]; then a=$(ms "$IOB" $what); b=$(ms dd --version)
		else b=$(ms dd --version); a=$(ms "$IOB" $what); fi
		r="$r $(echo "$a $b" | awk '{ printf "%.3f", $1 / $2 }')"
		echo "pair $((p + 1)): iobattery $what $a ms, dd --version $b ms"
		p=$((p + 1))
	done
	echo "$r" | tr ' ' '\n' | grep . | sort -n | awk -v w="$what" '
		{ v[NR] = $1 } END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "iobattery %s / dd --version: median %.2f (range %.2f-%.2f, %d pairs)\n",
				w, m, v[1], v[NR], NR }'
done
if [ -x /usr/bin/time ]; then
	for c in "$IOB --help" "$IOB dd --help" "dd --version"; do
		# shellcheck disable=SC2086
		/usr/bin/time -o "${TMPDIR:-/tmp}/iob-startup.$$" -f %M $c > /dev/null 2>&1
		kb=$(tail -n 1 "${TMPDIR:-/tmp}/iob-startup.$$"); rm -f "${TMPDIR:-/tmp}/iob-startup.$$"
		echo "peak RSS of '$c': $kb KiB"
	done
fi
echo "libraries loaded at start: $(ldd "$IOB" | awk '{ print $1 }' | tr '\n' ' ')"
