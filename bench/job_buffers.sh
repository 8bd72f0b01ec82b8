#!/bin/bash
# bench/job_buffers.sh - CPU per write request of `iobattery job` beside fio 3.33 with the
# same buffer options (fio's scramble_buffers default, refill_buffers, zero_buffers,
# buffer_compress_percentage, dedupe_percentage), on the same file in the same directory,
# interleaved A B B A (ours first in odd pairs, fio first in even ones). The figure is
# user + system CPU per write from each tool's own JSON (usr_cpu and sys_cpu x
# job_runtime / total_ios); prints per test the median of the per-pair ratios ours/fio
# (below 1: we spend less) and each tool's median.
#   bench/job_buffers.sh [DIR] [PAIRS] [SECS]
# 4 KiB and 128 KiB sequential buffered writes with psync over a 256 MiB file, time_based
# for SECS seconds (the page cache takes them: the CPU is the tools' and the copy's).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-/tmp}
pairs=${2:-4}
secs=${3:-2}
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
command -v fio > /dev/null || { echo "bench: fio missing (scripts/install-deps test)" >&2; exit 77; }
command -v python3 > /dev/null || { echo "bench: python3 missing" >&2; exit 77; }
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench-buf.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
export IOBATTERY_DB="$work/bench-results.db"
f="$work/w.dat"
dd if=/dev/urandom of="$f" bs=1M count=256 status=none || exit 2
echo "bench: $pairs pairs of ${secs}s in $(where "$work"), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
echo "bench: fio $(fio --version), iobattery $("$IOB" --version 2>/dev/null | head -n 1)"

cpu_per_io() { # JSON: ns of CPU per write request
	python3 - "$1" << 'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])
cpu = ios = 0.0
for job in j["jobs"]:
    cpu += (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * job["job_runtime"] / 1000.0
    ios += job["write"]["total_ios"]
print("%.1f" % (cpu / ios * 1e9 if ios else 0))
PY
}
ours() { "$IOB" job --no-store --quiet --overwrite --format fio-json "$@" > "$work/o.json" 2> /dev/null; }
theirs() { fio --output-format=json --output="$work/t.json" "$@" > /dev/null 2>&1; }

common=(--filename="$f" --rw=write --ioengine=psync --size=256m --time_based --runtime="$secs")
tests=(
	"4k default (scramble)|--bs=4k"
	"4k scramble_buffers=0|--bs=4k --scramble_buffers=0"
	"4k refill_buffers|--bs=4k --refill_buffers"
	"4k zero_buffers|--bs=4k --zero_buffers"
	"4k compress 50%|--bs=4k --buffer_compress_percentage=50"
	"4k dedupe 30%|--bs=4k --dedupe_percentage=30"
	"128k default (scramble)|--bs=128k"
	"128k refill_buffers|--bs=128k --refill_buffers"
)
for p in $(seq 1 "$pairs"); do
	for t in "${tests[@]}"; do
		IFS='|' read -r name args <<< "$t"
		# shellcheck disable=SC2206
		a=(--name=b $args "${common[@]}")
		if [ $((p % 2)) = 1 ]; then ours "${a[@]}"; theirs "${a[@]}"
		else theirs "${a[@]}"; ours "${a[@]}"; fi
		oc=$(cpu_per_io "$work/o.json" 2> /dev/null) tc=$(cpu_per_io "$work/t.json" 2> /dev/null)
		[ -n "$oc" ] && [ -n "$tc" ] || { echo "bench: '$name' failed in pair $p" >&2; continue; }
		add "$name" "$(ratio "$oc" "$tc")" "$oc" "$tc" "$oc" "$tc"
		echo "pair $p $name: CPU/write ours $oc ns, fio $tc ns"
	done
done
echo
echo "figure: ns of CPU (user + system) per write request, lower is better; ratio = ours / fio"
table fio CPU/write CPU/IO 1.0
