#!/bin/sh
# The tree's floors as a contract: a file under src/FOLDER/ may include project headers
# only from the folders its row below allows (its own folder always). The floors, from
# the ground up: core (basics) < stats (the results model) < observe, verify, fs (the
# system seen, the block format, file-system safety) < engine, comm < runner < output,
# store, import < workload < cmd < main.c. A new include that runs back up a floor fails
# here; so does a workload that reaches into the driver (cmd/). Each row says why.
set -u
cd "$(dirname "$0")/../.." || exit 1

# folder|may include (besides itself)|why
table='
core||the ground floor: basics every floor uses, nothing above
stats|core|the results model: rows, keys, histograms, JSON
observe|core stats|reads the system and fills rows (cpu, sysinfo)
verify|core fs|the block format and journal; the listener polls the stop flag
fs|core|scratch directories, device safety, mkfs and mounts
engine||I/O engines: the system calls only
comm|core fs|ranks: barriers and reductions; stops with the signals
runner|core stats observe verify fs engine comm|phases, requests, samplers, ranks
output|core stats|formatters: read the results model only
store|core stats fs|the SQLite store of results
import|core stats|old tools outputs into the results model
workload|core stats observe verify fs engine comm runner output|the workloads and their command faces; never the driver (cmd/), which lends them callbacks
cmd|core stats observe verify fs engine comm runner output store import workload|the driver and the commands over results
'

# check_file FILE FOLDER: print each include of FILE that FOLDER may not make
check_file() {
	allowed=$(printf '%s\n' "$table" | awk -F'|' -v d="$2" '$1 == d { print $2; exit }')
	grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$1" |
	while IFS= read -r line; do
		inc=$(printf '%s\n' "$line" | sed -E 's/^[0-9]+:[^"]*"([a-z_]+)\/.*/\1/')
		[ "$inc" = "$2" ] && continue
		ok=n
		for a in $allowed; do [ "$a" = "$inc" ] && ok=y; done
		[ "$ok" = y ] || echo "$1:$line: $2/ may not include $inc/"
	done
}

bad=0
out=${TESTS_TMP:-/tmp}/layers.$$
: > "$out"
for f in $(find src -mindepth 2 -name '*.[ch]' | sort); do
	d=${f#src/}
	d=${d%%/*}
	if ! printf '%s\n' "$table" | grep -q "^$d|"; then
		echo "$f: folder $d/ has no row in the layering table (tests/cli/layers.sh)" >> "$out"
		continue
	fi
	check_file "$f" "$d" >> "$out"
done
if [ -s "$out" ]; then
	cat "$out"
	bad=1
fi

# the test must be able to fail: a planted upward include in core is caught
probe=${TESTS_TMP:-/tmp}/layers_probe.$$.c
printf '#include "core/err.h"\n#include "stats/result.h"\n' > "$probe"
n=$(check_file "$probe" core | wc -l)
if [ "$n" != 1 ]; then
	echo "the check misses a planted core -> stats include (found $n)"
	bad=1
fi
printf '#include "cmd/common.h"\n' > "$probe"
n=$(check_file "$probe" workload | wc -l)
if [ "$n" != 1 ]; then
	echo "the check misses a planted workload -> cmd include (found $n)"
	bad=1
fi
rm -f "$out" "$probe"
[ "$bad" = 0 ] && echo "every include stays on its floor or goes down"
exit "$bad"
