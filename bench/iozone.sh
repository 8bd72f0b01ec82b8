#!/bin/bash
# bench/iozone.sh - iobattery iozone against fio (iozone itself is not in Debian): the
# write, read, random read and random write cells of one file size at 1 MiB and at 4 KiB
# records, the same file size, block size, engine (psync) and O_DIRECT or not, the two
# tools alternating A B B A ...; prints per cell the median of the per-round bandwidth
# ratios ours/fio (1.00 = the same speed) and every round's ratio.
#   bench/iozone.sh [DIR] [ROUNDS] [DIRECT] [MB_1M] [MB_4K]
# DIRECT 1 (default) opens both with O_DIRECT; 0 buffered (then reads are RAM for both).
# iozone's cells time from the first record to the last (no fsync, as without -e); fio's
# bandwidth is its job's bytes over the job's run time, which is the same span. The random
# passes of both visit every block once (fio's random map, iozone's shuffle).
# Figures measured on the development machine (2 vCPU, a shared virtio disk, ext4), 4
# rounds, 256 MiB at 1 MiB and 32 MiB at 4 KiB, O_DIRECT, are in docs/methodology.md,
# iozone: that disk's round-to-round noise was far above 2%.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-/tmp}
rounds=${2:-4}
direct=${3:-1}
mb1m=${4:-256}
mb4k=${5:-32}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v fio > /dev/null || { echo "bench: fio is missing (scripts/install-deps test)" >&2; exit 77; }
py=python3
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
export IOBATTERY_DB="$work/bench-results.db"

# ours BS MB: write read random_read random_write bandwidths in B/s, one line
ours() {
	"$IOB" iozone -s "${2}m" -r "$1" -i 0 -i 1 -i 2 -+n $([ "$direct" = 1 ] && echo -I) \
		--no-device-probe --no-store --quiet --format json > o.json 2> o.err ||
		{ cat o.err >&2; return 1; }
	$py -c '
import json, sys
d = json.load(open("o.json"))
r = {w["phase"]: w["rate"] * 1024 for w in d["rows"]}
print(r["write"], r["read"], r["random_read"], r["random_write"])'
}

# theirs BS MB: the same four from fio's JSON (bw_bytes per job)
theirs() {
	rm -f f.fio
	fio --output-format=json --filename=f.fio --size="${2}m" --bs="$1" --ioengine=psync \
		--direct="$direct" --group_reporting=0 \
		--name=write --rw=write --name=read --stonewall --rw=read \
		--name=randread --stonewall --rw=randread \
		--name=randwrite --stonewall --rw=randwrite > t.json 2> t.err ||
		{ cat t.err >&2; return 1; }
	rm -f f.fio
	$py -c '
import json
j = json.load(open("t.json"))["jobs"]
b = {x["jobname"]: x for x in j}
print(b["write"]["write"]["bw_bytes"], b["read"]["read"]["bw_bytes"],
      b["randread"]["read"]["bw_bytes"], b["randwrite"]["write"]["bw_bytes"])'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "bench: iozone vs fio, $rounds rounds, direct=$direct, in $(df -P . | awk 'NR==2 {print $1 " (" $6 ")"}')"
for bs in 1m 4k; do
	mb=$mb1m
	[ "$bs" = 4k ] && mb=$mb4k
	: > ratios
	for r in $(seq 1 "$rounds"); do
		# A B B A: which tool goes first alternates every round
		if [ $((r % 2)) = 1 ]; then a=$(ours $bs $mb) && b=$(theirs $bs $mb)
		else b=$(theirs $bs $mb) && a=$(ours $bs $mb); fi || exit 1
		echo "$a $b" | awk '{print $1/$5, $2/$6, $3/$7, $4/$8, $1, $5, $2, $6, $3, $7, $4, $8}' >> ratios
	done
	echo "bs=$bs file=${mb} MiB (ratio ours/fio per round; median; our and fio's median MB/s)"
	i=1
	for cell in write read random_read random_write; do
		per=$(awk -v c=$i '{printf "%.3f ", $c}' ratios)
		med=$(awk -v c=$i '{print $c}' ratios | median)
		mo=$(awk -v c=$((4 + 2 * i - 1)) '{print $c / 1e6}' ratios | median)
		mt=$(awk -v c=$((4 + 2 * i)) '{print $c / 1e6}' ratios | median)
		printf '  %-13s %s median %.3f  (%.1f vs %.1f MB/s)\n' "$cell" "$per" "$med" "$mo" "$mt"
		i=$((i + 1))
	done
done
