#!/bin/bash
# bench/mpi_device.sh - is a lead over fio real work or a counting difference? Each
# tool's aggregate figure beside the device's own write rate while it ran: 1M
# sequential O_DIRECT writes of 2 ranks (`mpirun -np 2 iobattery job`, own files)
# against fio numjobs=2, in the order ours fio fio ours for ROUNDS rounds, with
# `iostat -dx DEVICE 1` running beside each; the device's figure is the median of the
# 1-second samples above half of that run's peak (the steady part: the first and last
# seconds hold the start and the end of the run; "-" when fewer than three seconds were
# steady: SIZE_MB too small for this device).
#   bench/mpi_device.sh [DIR] [ROUNDS] [SIZE_MB]     (default: /tmp 2 4096)
# Needs a build with Open MPI or MPICH and its launcher, fio, jq and iostat (sysstat).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
. "$top/bench/lib.sh"
dir=${1:-/tmp}
rounds=${2:-2}
size_mb=${3:-4096}
mpi_setup
for c in fio jq iostat; do
	command -v $c > /dev/null || { echo "bench: $c missing" >&2; exit 77; }
done
# the whole disk under DIR (iostat names it: vda for vda1)
src=$(df -P "$dir" | awk 'NR == 2 {print $1}')
dev=$(lsblk -no pkname "$src" 2> /dev/null | head -1)
[ -n "$dev" ] || dev=$(basename "$src")
work=$(mktemp -d "$dir/iob-bench-mpidev.XXXXXX") || exit 2
trap 'kill $ip 2> /dev/null; rm -rf "$work"' EXIT INT TERM
ip=
cd "$work" || exit 2
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $dir on $dev;" \
	"$size_mb MiB per rank or job"
# one TOOL: its MB/s (10^6 B/s), then the device's steady write MB/s
one() {
	local r
	iostat -dxk "$dev" 1 > io.txt & ip=$!
	sleep 1.5
	if [ "$1" = ours ]; then
		mpi 2 "$IOB" job --name=w --rw=write --bs=1M --size="${size_mb}M" --direct=1 \
			--directory="$work" --no-store --quiet --format json > j.json 2> j.err ||
			cat j.err >&2
		r=$(jq -r '.rows[] | select(.phase == "aggregate") | .rate * 1048576 / 1e6' j.json)
	else
		fio --name=w --directory="$work" --rw=write --bs=1M --size="${size_mb}M" \
			--direct=1 --numjobs=2 --output-format=json > t.json 2> /dev/null
		r=$(jq -r '(([.jobs[].write.io_bytes] | add) / ([.jobs[].job_runtime] | max))
			* 1000 / 1e6' t.json)
	fi
	sleep 1.5
	kill $ip; wait $ip 2> /dev/null
	rm -f w.*
	# the wkB/s column by its name in iostat's header; not the first report (the
	# average since boot)
	awk -v d="$dev" '/^Device/ {for (i = 1; i <= NF; i++) if ($i == "wkB/s") c = i; next}
		$1 == d && c && n++ {print $c * 1024 / 1e6}' io.txt |
		awk '{v[NR] = $1; if ($1 > m) m = $1} END {for (i = 1; i <= NR; i++)
			if (v[i] > m / 2) print v[i]}' > steady.txt
	# under three steady seconds the samples hold the run's edges: no device figure
	if [ "$(wc -l < steady.txt)" -lt 3 ]; then
		echo "$r -"
	else
		echo "$r $(median < steady.txt)"
	fi
}
printf '%-6s %12s %14s %8s\n' tool "figure MB/s" "device MB/s" ratio
for _ in $(seq "$rounds"); do
	for t in ours fio fio ours; do
		read -r a b <<< "$(one $t)"
		printf '%-6s %12.0f %14s %8s\n' "$t" "$a" "$(echo "$b" | num)" "$(ratio "$a" "$b")"
	done
done
