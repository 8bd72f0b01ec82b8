#!/bin/sh
# bench/fio_seeds.sh - how a job's I/O count varies with its random seed, in fio and in
# `iobattery job`, so that a difference between one run of each can be told from the
# spread of either (a random map with variable block sizes cuts the file into a number
# of requests that depends on the draws).
#   bench/fio_seeds.sh JOBFILE [SEEDS]     (default 20 seeds: 1..SEEDS)
# Runs JOBFILE in a temporary directory with randseed=1..SEEDS through both (fio
# --randseed=N; a copy of the job file with randseed=N in each section for iobattery),
# then once each with the default seed, and prints per tool the mean, standard
# deviation, range and coefficient of variation of the total (read + write) I/O count,
# and the two default-seed counts. Needs fio and python3; the job file's sizes are used
# as they are (make them small).
set -u
[ $# -ge 1 ] || { echo "usage: $0 JOBFILE [SEEDS]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
job=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
n=${2:-20}
command -v fio > /dev/null 2>&1 || { echo "fio is not installed" >&2; exit 2; }
w=$(mktemp -d "${TMPDIR:-/tmp}/fio_seeds.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
count='
import json, sys
s = sys.stdin.read()
print(sum(j["read"]["total_ios"] + j["write"]["total_ios"]
          for j in json.loads(s[s.index("{"):])["jobs"]))'
one() { # TOOL SEED (0: the default): the count, the job's files removed after
	mkdir r && cd r || exit 1
	if [ "$1" = fio ]; then
		if [ "$2" = 0 ]; then set -- fio --output-format=json "$job"
		else set -- fio --output-format=json --randseed="$2" "$job"; fi
	else
		sed "s/^\(\[[^]]*\]\)/\1\nrandseed=$2/" "$job" > seeded.fio
		[ "$2" = 0 ] && cp "$job" seeded.fio
		set -- "$IOB" job --no-store --quiet --format fio-json seeded.fio
	fi
	"$@" 2> /dev/null | python3 -c "$count"
	cd .. && rm -rf r
}
for tool in fio iobattery; do
	s=1
	while [ "$s" -le "$n" ]; do one $tool $s; s=$((s + 1)); done > "$tool.txt"
	one $tool 0 > "$tool.default"
done
python3 - "$n" <<'EOF'
import statistics as st, sys
for tool in ("fio", "iobattery"):
    v = [int(x) for x in open(tool + ".txt").read().split()]
    d = open(tool + ".default").read().strip()
    m, sd = st.mean(v), st.stdev(v)
    print("%-9s %s seeds: mean %.0f sd %.0f (cv %.2f%%) range %d-%d; default seed %s"
          % (tool, sys.argv[1], m, sd, 100 * sd / m, min(v), max(v), d))
EOF
