#!/bin/bash
# bench/fsync.sh - iobattery fsync beside PostgreSQL's pg_test_fsync on the same
# directory, interleaved A B B A (a pair per round, the order flipped every round), and
# what --verify costs on dd's writes at 1 MiB and 8 KiB blocks, plain and --verify runs
# interleaved the same way.
#   bench/fsync.sh [DIR] [SECS] [PAIRS] [SIZE_MB]     (SECS 0: only the --verify part)
# Prints per sync method the median over the pairs of ours / theirs (ops/sec, higher is
# better for us), with each pair's ratio; then per block size the median of
# stamped / plain write time (1.03 = 3% slower) and of the CPU time, and the CRC32C path.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-/tmp}
secs=${2:-5}
pairs=${3:-4}
size_mb=${4:-256}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "bench: python3 missing" >&2; exit 2; }
pg=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2>/dev/null | sort -V | tail -n 1)
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
export IOBATTERY_DB="$work/bench-results.db"	# keep bench runs out of the user's store
echo "bench: fsync, $secs s per test, $pairs pairs, in $(df -P "$work" |
	awk 'NR==2 {print $1 " (" $6 ")"}')"

# label<TAB>ops/sec for every line with figures
figures() {
	awk '/ops\/sec/ { l = substr($0, 9, 30); sub(/ +$/, "", l);
		match($0, /[0-9.]+ ops\/sec/); v = substr($0, RSTART, RLENGTH - 8);
		print ++n "\t" l "\t" v }' "$1"
}

if [ "$secs" = 0 ]; then
	:
elif [ -n "$pg" ]; then
	for p in $(seq 1 "$pairs"); do
		if [ $((p % 2)) = 1 ]; then order="ours theirs"; else order="theirs ours"; fi
		for who in $order; do
			if [ "$who" = ours ]; then
				"$IOB" fsync -s "$secs" -f "$work" --no-store -q > "ours.$p" 2>&1 ||
					cat "ours.$p" >&2
			else
				"$pg" -s "$secs" -f "$work/pg.out" > "theirs.$p" 2>&1 ||
					cat "theirs.$p" >&2
			fi
		done
		figures "ours.$p" > "o.$p"
		figures "theirs.$p" > "t.$p"
	done
	python3 - "$pairs" <<'EOF'
import statistics, sys
pairs = int(sys.argv[1])
ratios = {}
order = []
for p in range(1, pairs + 1):
    o = {l.split('\t')[0]: l.rstrip('\n').split('\t') for l in open('o.%d' % p)}
    t = {l.split('\t')[0]: l.rstrip('\n').split('\t') for l in open('t.%d' % p)}
    for k, (n, label, v) in t.items():
        if k not in o or o[k][1] != label:
            continue
        key = (int(n), label)
        if key not in ratios:
            ratios[key] = []
            order.append(key)
        ratios[key].append(float(o[k][2]) / float(v))
print('%-36s %8s  %s' % ('method (ours / pg_test_fsync, ops/sec)', 'median', 'per pair'))
for key in sorted(order):
    r = ratios[key]
    print('%-36s %8.3f  %s' % (key[1], statistics.median(r),
                                ' '.join('%.3f' % x for x in r)))
EOF
else
	echo "bench: pg_test_fsync not installed (postgresql package): the comparison is skipped"
fi

# --verify's overhead on dd's writes: the write row only (the verify phase is its own)
echo
echo "bench: --verify on dd writes, $size_mb MiB, $pairs pairs (plain and stamped, A B B A)"
one() { # OUT BS COUNT [--verify]
	out=$1; shift
	rm -f f
	"$IOB" dd if=/dev/zero of=f bs="$1" count="$2" --data random --no-store --format json \
		"${@:3}" > "$out" 2>&1
}
for bs in 1M 8k; do
	case $bs in 1M) n=$size_mb ;; 8k) n=$((size_mb * 128)) ;; esac
	# a warm-up pair, not counted: the first write of a size finds the cache cold
	one warm.plain $bs $n; one warm.stamped $bs $n --verify
	for p in $(seq 1 "$pairs"); do
		if [ $((p % 2)) = 1 ]; then
			one "plain.$bs.$p" $bs $n; one "stamped.$bs.$p" $bs $n --verify
		else
			one "stamped.$bs.$p" $bs $n --verify; one "plain.$bs.$p" $bs $n
		fi
	done
done
python3 - "$pairs" <<'EOF'
import json, statistics, sys
pairs = int(sys.argv[1])
def write_row(path):
    run = json.load(open(path))
    w = [r for r in run['rows'] if r['phase'] == 'write'][0]
    v = [r for r in run['rows'] if r['phase'] == 'verify']
    cpu = w['cpu']['user_s'] + w['cpu']['sys_s']
    return w['elapsed_ns'], cpu, (v[0]['params']['verify_crc_path'] if v else None)
path = '?'
for bs in ('1M', '8k'):
    t, c = [], []
    for p in range(1, pairs + 1):
        pe, pc, _ = write_row('plain.%s.%d' % (bs, p))
        se, sc, path = write_row('stamped.%s.%d' % (bs, p))
        t.append(se / pe)
        c.append(sc / pc if pc > 0 else float('nan'))
    print('bs=%-3s stamped/plain write time: median %.3f (%s); CPU time: median %.3f (%s)' %
          (bs, statistics.median(t), ' '.join('%.3f' % x for x in t),
           statistics.median(c), ' '.join('%.3f' % x for x in c)))
print('crc32c path: %s' % path)
EOF
