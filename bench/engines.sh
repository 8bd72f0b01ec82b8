#!/bin/bash
# bench/engines.sh - 4 KiB random reads, O_DIRECT, through iobattery's engines (the
# bench/engine_rr driver, which drives the runner's ioctx as a workload does) beside fio
# with the same engine and settings, alternating (A B, then B A) for ROUNDS rounds.
# Prints per test the median IOPS of each, the median of the per-round ratios ours/fio,
# the mean latency and the CPU time per I/O (user+system, ns).
#   bench/engines.sh [DIR] [ROUNDS] [SECS] [SIZE_MB]
# A test is ENGINE:QD[:BATCH]: BATCH is fio's iodepth_batch_submit (default 1: each
# request is submitted as soon as it is filled; 32: a reaped batch is submitted at once,
# one system call; strace shows fio 3.33's io_uring engine still making one io_uring_enter
# per request then, so that row compares our batching with fio's one-by-one). The file (SIZE_MB, default 1024) is laid out once with real data. fio
# runs with --norandommap (offsets drawn with replacement, as the driver does) and its
# defaults otherwise; its CPU per I/O is (usr_cpu + sys_cpu)% x runtime / ios from its
# JSON.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp}
rounds=${2:-6}
secs=${3:-5}
size_mb=${4:-1024}
command -v fio >/dev/null || { echo "bench: fio missing (scripts/install-deps test)" >&2; exit 77; }
command -v python3 >/dev/null || { echo "bench: python3 missing" >&2; exit 77; }
[ -f "$top/libiob.a" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench-eng.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
# the driver, built against the library with the project's own flags
eval "$(sed -n 's/^\(CC\|CFLAGS\|LIBS\|LDFLAGS\) = \(.*\)/\1="\2"/p' "$top/config.mk")"
(cd "$top" && $CC $CFLAGS $LDFLAGS -o "$work/engine_rr" bench/engine_rr.c libiob.a $LIBS) ||
	exit 2
f="$work/data"
dd if=/dev/urandom of="$f" bs=1M count="$size_mb" oflag=direct status=none || exit 2
echo "bench: $rounds rounds of ${secs}s, ${size_mb} MiB file, in" \
	"$(df -P "$work" | awk 'NR==2 {print $1 " (" $6 ")"}'), $(nproc) CPUs"

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

ours() { # ENGINE QD BATCH -> "iops lat_us cpu_ns"
	"$work/engine_rr" "$f" "$1" "$2" "$secs" 4096 "$3" |
		sed -n 's/.*iops=\([0-9.]*\) lat_us=\([0-9.]*\) usr_ns=\([0-9.]*\) sys_ns=\([0-9.]*\).*/\1 \2 \3 \4/p' |
		awk '{print $1, $2, $3 + $4}'
}

theirs() { # ENGINE QD BATCH -> "iops lat_us cpu_ns"
	fio --name=rr --filename="$f" --rw=randread --bs=4k --direct=1 --ioengine="$1" \
		--iodepth="$2" --iodepth_batch_submit="$3" --runtime="$secs" --time_based \
		--norandommap --randrepeat=0 \
		--output-format=json 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
r = j["read"]
ios = r["total_ios"]
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1000.0
print("%.0f %.2f %.0f" % (r["iops"], r["lat_ns"]["mean"] / 1e3, cpu / ios * 1e9 if ios else 0))'
}

declare -A OI TI RA OL TL OC TC
tests=()
for r in $(seq 1 "$rounds"); do
	for t in io_uring:1 libaio:1 io_uring:32 libaio:32 io_uring:32:32 libaio:32:32 psync:1; do
		IFS=: read -r eng qd batch <<< "$t"
		batch=${batch:-1}
		[ "$r" = 1 ] && tests+=("$t")
		if [ $((r % 2)) = 1 ]; then
			a=$(ours "$eng" "$qd" "$batch"); b=$(theirs "$eng" "$qd" "$batch")
		else
			b=$(theirs "$eng" "$qd" "$batch"); a=$(ours "$eng" "$qd" "$batch")
		fi
		[ -n "$a" ] && [ -n "$b" ] || { echo "bench: $t failed in round $r" >&2; continue; }
		set -- $a; oi=$1 ol=$2 oc=$3
		set -- $b; ti=$1 tl=$2 tc=$3
		OI[$t]="${OI[$t]:-} $oi"; TI[$t]="${TI[$t]:-} $ti"
		RA[$t]="${RA[$t]:-} $(awk -v a="$oi" -v b="$ti" 'BEGIN {print a / b}')"
		OL[$t]="${OL[$t]:-} $ol"; TL[$t]="${TL[$t]:-} $tl"
		OC[$t]="${OC[$t]:-} $oc"; TC[$t]="${TC[$t]:-} $tc"
		echo "round $r $t: ours $oi IOPS ${ol}us ${oc}ns/io, fio $ti IOPS ${tl}us ${tc}ns/io"
	done
done
printf '\n%-15s %10s %10s %7s %9s %9s %9s %9s\n' test "ours IOPS" "fio IOPS" ratio \
	"ours lat" "fio lat" "ours CPU" "fio CPU"
for t in "${tests[@]}"; do
	m() { echo "$1" | tr ' ' '\n' | grep . | median; }
	printf '%-15s %10s %10s %7.3f %7sus %7sus %7sns %7sns\n' "$t" "$(m "${OI[$t]:-}")" \
		"$(m "${TI[$t]:-}")" "$(m "${RA[$t]:-}")" "$(m "${OL[$t]:-}")" "$(m "${TL[$t]:-}")" \
		"$(m "${OC[$t]:-}")" "$(m "${TC[$t]:-}")"
done
