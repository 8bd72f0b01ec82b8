#!/bin/bash
# bench/readqd.sh - 1 MiB sequential reads, O_DIRECT, queue depth 32: fio and iobattery's
# job workload with the same options on the same file, in ABBA order (fio, ours, ours,
# fio, ...) for PAIRS pairs, with io_uring and with libaio.
#   bench/readqd.sh FILE [PAIRS] [SIZE_MB]
# FILE is read (laid out first with random data when it does not exist or is smaller than
# SIZE_MB, default 2048). Use a file on a device of your own (a loop device with direct
# I/O, say): the device's figures come from /proc/diskstats deltas over each run, so other
# I/O on that device pollutes them. Each run prints its bandwidth, what the device saw
# (requests completed, rareq-sz = KiB per request, r_await = ms per request, merges), the
# CPU per request (user+system of the process from the shell's `time`, over its requests)
# and, per engine, the median of the pairwise ratios ours/fio with their range, then the
# same over the pairs where the device saw the same request size from both tools (within
# 2%): a 1 MiB buffer whose pages are not physically contiguous reaches a device with fewer
# segments than pages as two requests, by chance of the page allocator in either tool
# (docs/methodology.md, section 19, "1 MiB direct reads and the device's segments").
# A device of your own, as root:
#   truncate -s 3G IMG; losetup --direct-io=on -f --show IMG; mkfs.ext4 -q LOOP; mount ...
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
file=${1:?usage: bench/readqd.sh FILE [PAIRS] [SIZE_MB]}
pairs=${2:-4}
size_mb=${3:-2048}
iob=$top/iobattery
command -v fio >/dev/null || { echo "bench: fio missing (apt-get install fio)" >&2; exit 77; }
command -v python3 >/dev/null || { echo "bench: python3 missing" >&2; exit 77; }
[ -x "$iob" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
have=$(stat -c %s "$file" 2>/dev/null || echo 0)
if [ "$have" -lt $((size_mb * 1048576)) ]; then
	[ -e "$file" ] && [ ! -f "$file" ] &&
		{ echo "bench: $file: not a regular file" >&2; exit 2; }
	dd if=/dev/urandom of="$file" bs=1M count="$size_mb" oflag=direct status=none || exit 2
fi
# the device under the file: its major:minor, then its name in /proc/diskstats
devno=$(stat -c '%d' "$file")
maj=$((devno >> 8 & 0xfff)) min=$(((devno & 0xff) | (devno >> 12 & 0xfff00)))
dev=$(awk -v a="$maj" -v b="$min" '$1 == a && $2 == b {print $3}' /proc/diskstats)
[ -n "$dev" ] || { echo "bench: no diskstats line for $maj:$min" >&2; exit 2; }
q=/sys/dev/block/$maj:$min/queue
[ -d "$q" ] || q=/sys/dev/block/$maj:$min/../queue	# a partition: its disk's queue
out=$(mktemp -d "${TMPDIR:-/tmp}/iob-readqd.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT INT TERM
common="--name=r --filename=$file --rw=read --bs=1M --iodepth=32 --direct=1"
common="$common --size=${size_mb}M --output-format=json"
echo "bench: $pairs ABBA pairs per engine, ${size_mb} MiB, $file on $dev" \
	"(max_segments $(cat "$q/max_segments" 2>/dev/null || echo ?)," \
	"max_segment_size $(cat "$q/max_segment_size" 2>/dev/null || echo ?)," \
	"max_sectors_kb $(cat "$q/max_sectors_kb" 2>/dev/null || echo ?))," \
	"$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

stats() { awk -v d="$dev" '$3 == d {print $4, $5, $6, $7}' /proc/diskstats; }

# run TOOL ENGINE -> "MiB/s reqs rareq_kb r_await_ms merges cpu_us_per_req"
run() {
	local a b t cmd
	case $1 in
	fio) cmd="fio $common --ioengine=$2" ;;
	ours) cmd="$iob job $common --ioengine=$2" ;;
	esac
	a=$(stats)
	t=$( { TIMEFORMAT='%3U %3S'; time $cmd > "$out/json" 2> "$out/err"; } 2>&1 ) ||
		{ echo "bench: $1 $2 failed: $(head -c 300 "$out/err")" >&2; return 1; }
	b=$(stats)
	python3 - "$out/json" "$a" "$b" "$t" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index('{'):])
r = d["jobs"][0]["read"]
a = [int(x) for x in sys.argv[2].split()]
b = [int(x) for x in sys.argv[3].split()]
reqs, merges, sect, ms = (b[i] - a[i] for i in range(4))
u, s = (float(x) for x in sys.argv[4].split())
ios = max(r["total_ios"], 1)
print("%.1f %d %.0f %.2f %d %.1f" % (r["bw_bytes"] / 1048576, reqs,
      sect / 2 / max(reqs, 1), ms / max(reqs, 1), merges, (u + s) * 1e6 / ios))
EOF
}

median() {
	sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2];
		else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

for eng in io_uring libaio; do
	: > "$out/ratios"
	printf '%-8s %-5s %4s %9s %6s %9s %9s %6s %8s\n' engine tool pair MiB/s reqs \
		rareq-kB r_await merges cpu_us/io
	for p in $(seq 1 "$pairs"); do
		# ABBA: odd pairs fio first, even pairs ours first
		if [ $((p % 2)) = 1 ]; then order="fio ours"; else order="ours fio"; fi
		for tool in $order; do
			f=$(run "$tool" "$eng") || exit 1
			eval "${tool}_bw=\${f%% *} ${tool}_rq=\$(echo \$f | cut -d' ' -f3)"
			# shellcheck disable=SC2086
			printf '%-8s %-5s %4s %9s %6s %9s %9s %6s %8s\n' "$eng" "$tool" "$p" $f
		done
		awk -v a="$ours_bw" -v b="$fio_bw" -v x="$ours_rq" -v y="$fio_rq" \
			'BEGIN {printf "%.4f %d\n", a / b, (x - y < y / 50 && y - x < y / 50)}' \
			>> "$out/ratios"
	done
	printf '%s: ours/fio bandwidth median %s, range %s-%s over %s pairs\n' "$eng" \
		"$(cut -d' ' -f1 "$out/ratios" | median)" \
		"$(sort -g "$out/ratios" | head -1 | cut -d' ' -f1)" \
		"$(sort -g "$out/ratios" | tail -1 | cut -d' ' -f1)" "$pairs"
	# the pairs where the device saw the same request size (within 2%) from both tools
	awk '$2 == 1 {print $1}' "$out/ratios" | sort -g > "$out/same"
	[ -s "$out/same" ] &&
		printf '%s: same rareq-sz on both sides: median %s, range %s-%s over %s pairs\n' \
		"$eng" "$(median < "$out/same")" "$(head -1 "$out/same")" "$(tail -1 "$out/same")" \
		"$(wc -l < "$out/same")"
done
echo "bench: load after $(cut -d' ' -f1-3 /proc/loadavg)"
