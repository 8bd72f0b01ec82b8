#!/bin/sh
# bench/compare_memory.sh - peak memory of `compare` and `report` against the total size
# of their input, for 2, 10 and 100 result files: an iozone grid's result (its many rows
# with histograms and series make the largest files iobattery writes) copied N times.
# Prints per N and command: input MB, peak RSS MB (GNU time's %M) and their ratio.
#   bench/compare_memory.sh [GRID_MAX] [COUNTS]     (defaults 8m and "2 10 100")
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
grid=${1:-8m}
counts=${2:-2 10 100}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: GNU time (/usr/bin/time) is needed" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/iob-cmpmem.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/src" || exit 2
"$IOB" iozone -a -g "$grid" -f "$work/t" --no-store --format json --quiet \
	--output-dir "$work/src" > /dev/null 2>&1 || { echo "bench: iozone failed" >&2; exit 1; }
rm -f "$work/t"
one=$work/src/iobattery-results.json
for n in $counts; do
	set --
	i=0
	while [ $i -lt "$n" ]; do
		cp "$one" "$work/r$i.json" && set -- "$@" "$work/r$i.json"
		i=$((i + 1))
	done
	in=$(cat "$@" | wc -c)
	for c in compare report; do
		if [ $c = report ]; then o="-o $work/r.html --no-store"; else o=""; fi
		# shellcheck disable=SC2086
		/usr/bin/time -o "$work/time" -f %M "$IOB" $c $o "$@" > /dev/null 2>&1
		kb=$(tail -n 1 "$work/time")
		echo "$n $c $in $kb" | awk '{ printf "%3d files  %-8s input %7.1f MB  peak %7.1f MB  ratio %.2f\n", $1, $2, $3 / 1e6, $4 * 1024 / 1e6, $4 * 1024 / $3 }'
	done
	rm -f "$@"
done
