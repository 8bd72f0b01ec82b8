#!/bin/sh
# bench/compare_memory.sh - peak memory of `compare` and `report` against the total size
# of their input, for 2, 10 and 100 result files: an iozone grid's result (its many rows
# with histograms and series make the largest files iobattery writes) copied N times,
# each copy with an id of its own and label a or b.
# compare takes 2 to 26 runs: with more, the copies go into a store of the bench's own
# (iobattery import) and `compare --group-by label a b` reads them from there, as two
# sides of N/2 repeats each. report reads the files.
# Prints per N and command: input MB, peak RSS MB (GNU time's %M) and their ratio; first
# the peak of `iobattery --version`, what the process holds before it reads anything.
# Exits 1 when a command fails.
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
IOBATTERY_DB=$work/store.db; export IOBATTERY_DB
"$IOB" iozone -a -g "$grid" -f "$work/t" --no-store --format json --quiet \
	--output-dir "$work/src" > /dev/null 2>&1 || { echo "bench: iozone failed" >&2; exit 1; }
rm -f "$work/t"
one=$work/src/iobattery-results.json

# peak CMD...: GNU time's peak RSS of CMD in KB (stdout and stderr to $work/out)
peak() {
	/usr/bin/time -o "$work/time" -f %M "$@" > "$work/out" 2>&1 ||
		{ tail -n 5 "$work/out" >&2; echo "bench: failed: $*" >&2; exit 1; }
	tail -n 1 "$work/time"
}

kb=$(peak "$IOB" --version)
echo "$kb" | awk '{ printf "baseline (iobattery --version)   peak %7.1f MB\n", $1 * 1024 / 1e6 }'
for n in $counts; do
	set --
	i=0
	while [ $i -lt "$n" ]; do
		# the first "id" and "label" members are the run's own
		awk -v i=$i -v l=$((i % 2)) '
			!di && /"id": "/ { sub(/"id": "/, "\"id\": \"c" i "-"); di = 1 }
			!dl && /"label": / { sub(/"label": [^,]*/, "\"label\": \"" \
				(l ? "b" : "a") "\""); dl = 1 }
			{ print }' "$one" > "$work/r$i.json" || exit 2
		set -- "$@" "$work/r$i.json"
		i=$((i + 1))
	done
	in=$(cat "$@" | wc -c)
	for c in compare report; do
		if [ $c = report ]; then
			kb=$(peak "$IOB" report -o "$work/r.html" --no-store "$@")
		elif [ "$n" -le 26 ]; then
			kb=$(peak "$IOB" compare --no-store "$@")
		else
			rm -f "$IOBATTERY_DB"
			"$IOB" import "$@" > "$work/out" 2>&1 ||
				{ cat "$work/out" >&2; echo "bench: import failed" >&2; exit 1; }
			kb=$(peak "$IOB" compare --group-by label a b)
		fi
		echo "$n $c $in $kb" | awk '{ printf "%3d files  %-8s input %7.1f MB  peak %7.1f MB  ratio %.2f\n", $1, $2, $3 / 1e6, $4 * 1024 / 1e6, $4 * 1024 / $3 }'
	done
	rm -f "$@"
done
