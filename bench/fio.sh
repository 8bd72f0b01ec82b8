#!/bin/bash
# bench/fio.sh - `iobattery job` beside fio 3.33 with the same fio options on the same
# file, interleaved A B B A (ours first in odd pairs, fio first in even ones) for PAIRS
# pairs; prints per test the median and geometric mean of the per-pair ratios ours/fio
# of the test's figure (IOPS, bandwidth, or CPU per I/O where lower is better: then the
# ratio is ours/fio of the CPU), each tool's median figure and CPU time per I/O (user +
# system from each tool's own per-job figures: usr_cpu and sys_cpu x job_runtime / ios),
# and the median ratio of the CPU per I/O theirs/ours ("cpu": above 1 we spend less).
#   bench/fio.sh [DIR] [PAIRS] [SECS] [SIZE_MB]
# The tests of the issue: 4k random reads of a cached file with psync (CPU and user CPU
# per I/O); 4k random reads with O_DIRECT at depth 32 through io_uring and libaio, and at
# depth 1; 1 MiB sequential reads and writes with O_DIRECT at depth 32 (libaio, as fio
# users run them); cached 4k random reads with numjobs 1, 2 and 4 (the scaling: ratio of
# IOPS at N jobs to 1 job, each tool against itself); 8 KiB random writes with
# fdatasync=1. The numjobs tests run fio with --thread: fio's job processes each call
# setsid(), and with the kernel's autogroup scheduling each session gets a CPU share of its
# own, so on a machine with other load fio's processes get up to numjobs times the CPU
# iobattery's threads (one process, one session) get; threads on both sides compare the
# tools, not the scheduler. Both tools run time_based for SECS seconds with norandommap (fio's random
# map costs it CPU the comparison is not about) and randrepeat=0.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-/tmp}
pairs=${2:-6}
secs=${3:-5}
size_mb=${4:-1024}
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
command -v fio > /dev/null || { echo "bench: fio missing (scripts/install-deps test)" >&2; exit 77; }
command -v python3 > /dev/null || { echo "bench: python3 missing" >&2; exit 77; }
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench-fio.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
export IOBATTERY_DB="$work/bench-results.db"
big="$work/big" cached="$work/cached"
dd if=/dev/urandom of="$big" bs=1M count="$size_mb" oflag=direct status=none || exit 2
dd if=/dev/urandom of="$cached" bs=1M count=256 status=none || exit 2
echo "bench: $pairs pairs of ${secs}s, ${size_mb} MiB file, in $(where "$work"), $(nproc) CPUs"
echo "bench: fio $(fio --version), iobattery $("$IOB" --version 2>/dev/null | head -n 1)"

# fig JSON: "iops bw_kib lat_mean_us cpu_ns_per_io usr_ns_per_io" summed over jobs and
# directions (fio's --output-format=json, or ours --format fio-json)
fig() {
	python3 - "$1" << 'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])
iops = bw = ios = cpu = usr = lat = 0.0
for job in j["jobs"]:
    rt = job["job_runtime"] / 1000.0
    cpu += (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * rt
    usr += job["usr_cpu"] / 100.0 * rt
    for d in ("read", "write"):
        x = job[d]
        iops += x["iops"]
        bw += x["bw"]
        ios += x["total_ios"]
        lat += x["lat_ns"]["mean"] * x["total_ios"]
print("%.1f %.1f %.2f %.1f %.1f" % (iops, bw, lat / ios / 1e3 if ios else 0,
      cpu / ios * 1e9 if ios else 0, usr / ios * 1e9 if ios else 0))
PY
}

ours() { # OUT ARGS...
	local out=$1
	shift
	"$IOB" job --no-store --quiet --overwrite --format fio-json "$@" > "$out" 2> /dev/null
}
theirs() { # OUT ARGS...
	local out=$1
	shift
	fio --output-format=json --output="$out" "$@" > /dev/null 2>&1
}

common=(--time_based --runtime="$secs" --norandommap --randrepeat=0)
# test NAME WHAT ARGS...: WHAT is iops, bw, or cpu (CPU per I/O, lower is better)
tests=(
	"4k randread cached psync, CPU/IO|cpu|--filename=$cached --rw=randread --bs=4k --ioengine=psync --invalidate=0"
	"4k randread cached psync, user CPU/IO|usr|--filename=$cached --rw=randread --bs=4k --ioengine=psync --invalidate=0"
	"4k randread direct QD32 io_uring|iops|--filename=$big --rw=randread --bs=4k --direct=1 --ioengine=io_uring --iodepth=32"
	"4k randread direct QD32 libaio|iops|--filename=$big --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=32"
	"4k randread direct QD1 libaio|iops|--filename=$big --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=1"
	"4k randread direct QD1 libaio, lat|lat|--filename=$big --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=1"
	"1M read direct QD32 libaio|bw|--filename=$big --rw=read --bs=1m --direct=1 --ioengine=libaio --iodepth=32"
	"1M write direct QD32 libaio|bw|--filename=$big --rw=write --bs=1m --direct=1 --ioengine=libaio --iodepth=32"
	"4k randread cached psync numjobs=1|iops|--filename=$cached --rw=randread --bs=4k --invalidate=0 --numjobs=1 --group_reporting --thread"
	"4k randread cached psync numjobs=2|iops|--filename=$cached --rw=randread --bs=4k --invalidate=0 --numjobs=2 --group_reporting --thread"
	"4k randread cached psync numjobs=4|iops|--filename=$cached --rw=randread --bs=4k --invalidate=0 --numjobs=4 --group_reporting --thread"
	"8k randwrite fdatasync=1 psync|iops|--filename=$big --rw=randwrite --bs=8k --fdatasync=1 --ioengine=psync"
)
declare -A SO ST
cat "$cached" > /dev/null
for p in $(seq 1 "$pairs"); do
	for t in "${tests[@]}"; do
		IFS='|' read -r name what args <<< "$t"
		# shellcheck disable=SC2206
		a=(--name=b $args "${common[@]}")
		if [ $((p % 2)) = 1 ]; then
			ours "$work/o.json" "${a[@]}"; theirs "$work/t.json" "${a[@]}"
		else
			theirs "$work/t.json" "${a[@]}"; ours "$work/o.json" "${a[@]}"
		fi
		o=$(fig "$work/o.json" 2> /dev/null) t2=$(fig "$work/t.json" 2> /dev/null)
		[ -n "$o" ] && [ -n "$t2" ] || { echo "bench: '$name' failed in pair $p" >&2; continue; }
		read -r oi ob ol oc ou <<< "$o"
		read -r ti tb tl tc tu <<< "$t2"
		case $what in
		iops) of=$oi tf=$ti ;;
		bw) of=$ob tf=$tb ;;
		cpu) of=$oc tf=$tc ;;
		usr) of=$ou tf=$tu ;;
		lat) of=$ol tf=$tl ;;
		esac
		add "$name" "$(ratio "$of" "$tf")" "$of" "$tf" "$oc" "$tc"
		case $name in *numjobs=*) SO[$name]="${SO[$name]:-} $oi"; ST[$name]="${ST[$name]:-} $ti" ;; esac
		echo "pair $p $name: ours $of, fio $tf (CPU/IO ${oc} vs ${tc} ns)"
	done
done
echo
echo "figures: IOPS, KiB/s, or ns of CPU per I/O (cpu, usr: lower is better), us of mean"
echo "latency (lat: lower is better); ratio = ours / fio of that figure"
table fio figure CPU/IO 1.0
echo
# scaling: each tool's IOPS at numjobs=N over its own at numjobs=1 (medians)
one="4k randread cached psync numjobs=1"
for n in 2 4; do
	k="4k randread cached psync numjobs=$n"
	so=$(fmt '%.2f' 'a / b' "a=$(col "${SO[$k]:-}" | median)" "b=$(col "${SO[$one]:-}" | median)")
	st=$(fmt '%.2f' 'a / b' "a=$(col "${ST[$k]:-}" | median)" "b=$(col "${ST[$one]:-}" | median)")
	echo "scaling numjobs=$n over 1: ours ${so}x, fio ${st}x"
done
