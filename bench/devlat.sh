#!/bin/bash
# bench/devlat.sh - what the block-layer latency program (docs/methodology.md, section 24)
# costs per I/O: the same job with the program (the default) and with
# --no-device-latency, interleaved A B B A for ROUNDS rounds after one uncounted run.
# Prints per workload the median CPU time per operation of the process (user + system,
# getrusage: the program's insert and issue handlers run in the submitting thread, its
# completion handler mostly in the interrupt taken on the same CPU) and the median rate,
# with and without, and the median of the per-pair differences in CPU per operation; and
# the program's own CPU time per device request as the kernel counts it (the bench sets
# kernel.bpf_stats_enabled to 1 while it runs, as root, and puts it back), which other
# load on the machine does not disturb as it disturbs the process's CPU per operation.
#   bench/devlat.sh [DIR] [ROUNDS] [SECONDS]
# Workloads: 4 KiB random reads at queue depth 32 (io_uring, O_DIRECT), and 8 KiB writes
# each followed by fdatasync (psync, fdatasync=1). DIR must be on a block device.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-.}
rounds=${2:-4}
secs=${3:-3}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v jq > /dev/null || { echo "bench: jq is needed (scripts/install-deps test)" >&2; exit 2; }
"$IOB" --version | grep -q "^built with:.* bpf" ||
	{ echo "bench: iobattery was built without BPF" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
stats0=$(sysctl -n kernel.bpf_stats_enabled 2> /dev/null || echo "")
[ -n "$stats0" ] && sysctl -qw kernel.bpf_stats_enabled=1 2> /dev/null
trap 'rm -rf "$work"; [ -n "$stats0" ] && sysctl -qw kernel.bpf_stats_enabled="$stats0"' EXIT
trap 'exit 1' INT TERM
cd "$work" || exit 2

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
declare -A VAL

rr() { "$IOB" job --name=rr --rw=randread --bs=4k --iodepth=32 --ioengine=io_uring \
	--direct=1 --size=256M --runtime="$secs" --time_based -d . "$@"; }
fd() { "$IOB" job --name=fd --rw=write --bs=8k --fdatasync=1 --ioengine=psync \
	--size=64M --runtime="$secs" --time_based -d . "$@"; }

measure() { # KIND(on|off|warm) NAME FUNC
	local extra=""
	[ "$2" != warm ] || true
	[ "$1" = off ] && extra="--no-device-latency"
	$3 $extra --format json --no-store > m.json 2> m.err || { cat m.err >&2; exit 1; }
	[ "$1" = warm ] && return 0
	row='[.rows[] | select(.phase == "read" or .phase == "write")][0]'
	VAL[$2,$1,cpo]="${VAL[$2,$1,cpo]:-} $(jq "$row.cpu.cpu_ns_per_op" m.json)"
	VAL[$2,$1,iops]="${VAL[$2,$1,iops]:-} $(jq "$row | .ops / (.elapsed_ns / 1e9)" m.json)"
	if [ "$1" = on ]; then
		VAL[$2,req]="${VAL[$2,req]:-} $(jq '[.rows[].device_latency.requests // 0] | add' m.json)"
		VAL[$2,prog]="${VAL[$2,prog]:-} $(jq '[.rows[].device_latency | select(. != null)] |
			([.[].program_ns // 0] | add) / ([.[].requests] | add)' m.json)"
	fi
}

for w in rr fd; do
	measure warm "$w" "$w"
	for r in $(seq 1 "$rounds"); do
		if [ $((r % 2)) = 1 ]; then measure on "$w" "$w"; measure off "$w" "$w"
		else measure off "$w" "$w"; measure on "$w" "$w"; fi
	done
done
printf '%-34s %12s %12s %10s %10s %12s\n' workload "cpu/op on" "cpu/op off" "iops on" \
	"iops off" "on - off"
for w in rr fd; do
	case $w in rr) name="4k randread QD32 io_uring direct" ;;
	*) name="8k write + fdatasync psync" ;; esac
	on=$(echo ${VAL[$w,on,cpo]} | tr ' ' '\n' | median)
	off=$(echo ${VAL[$w,off,cpo]} | tr ' ' '\n' | median)
	ion=$(echo ${VAL[$w,on,iops]} | tr ' ' '\n' | median)
	ioff=$(echo ${VAL[$w,off,iops]} | tr ' ' '\n' | median)
	diff=$(paste <(echo ${VAL[$w,on,cpo]} | tr ' ' '\n') \
		<(echo ${VAL[$w,off,cpo]} | tr ' ' '\n') | awk '{print $1 - $2}' | median)
	printf '%-34s %10.0fns %10.0fns %10.0f %10.0f %10.0fns\n' "$name" "$on" "$off" "$ion" \
		"$ioff" "$diff"
done
echo "device requests per run with the program: rr $(echo ${VAL[rr,req]} |
	tr ' ' '\n' | median), fd $(echo ${VAL[fd,req]} | tr ' ' '\n' | median)"
echo "the program's own CPU per device request (kernel.bpf_stats_enabled): rr $(echo \
	${VAL[rr,prog]} | tr ' ' '\n' | median) ns, fd $(echo ${VAL[fd,prog]} | tr ' ' '\n' |
	median) ns"
