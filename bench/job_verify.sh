#!/bin/bash
# bench/job_verify.sh - what --verify costs a job's writes: a 1 MiB sequential write job
# and an 8 KiB random write job (psync, buffered: the page cache takes the writes, so the
# stamping is the largest share it can be), each run plain and with --verify, alternated
# A B B A after a warm-up pair. Per run the write row's rate (MiB/s, IOPS) and CPU per
# request (the job thread's user + system time over its requests); per pair the ratios
# stamped/plain; the median of each. The verify row (the read-back) is its own phase and
# is not in these figures.
#   bench/job_verify.sh [DIR] [PAIRS] [SECS] [SIZE_MB] [EXTRA FIO OPTIONS...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-/tmp}; pairs=${2:-4}; secs=${3:-4}; size_mb=${4:-256}
shift $(($# < 4 ? $# : 4))
extra=("$@")
work=$(mktemp -d "$dir/jobverify.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

one() { # OUT NAME RW BS [--verify]
	local out=$1 name=$2 rw=$3 bs=$4
	shift 4
	"$IOB" job --no-store -q --format json --name="$name" --rw="$rw" --bs="$bs" \
		--size="${size_mb}m" --time_based --runtime="$secs" "${extra[@]}" "$@" \
		> "$out" 2> "$out.err" || { cat "$out.err" >&2; exit 1; }
}

echo "bench: --verify on job writes, ${size_mb} MiB file, ${secs} s per run, $pairs pairs" \
	"(plain and stamped, A B B A) ${extra[*]}"
for t in "seq1m write 1m" "rand8k randwrite 8k"; do
	set -- $t
	one "warm.plain.$1" "$1" "$2" "$3"; one "warm.stamped.$1" "$1" "$2" "$3" --verify
	for p in $(seq 1 "$pairs"); do
		if [ $((p % 2)) = 1 ]; then
			one "plain.$1.$p" "$1" "$2" "$3"; one "stamped.$1.$p" "$1" "$2" "$3" --verify
		else
			one "stamped.$1.$p" "$1" "$2" "$3" --verify; one "plain.$1.$p" "$1" "$2" "$3"
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
    m = {x['name']: x['value'] for x in w['metrics']}
    iops = w['ops'] / (w['elapsed_ns'] / 1e9)
    mibs = m['bw_bytes'] / 1048576
    cpu_op = (w['cpu']['user_s'] + w['cpu']['sys_s']) * 1e9 / w['ops']
    usr_op = w['cpu']['user_s'] * 1e9 / w['ops']
    if v:
        vm = {x['name']: x['value'] for x in v[0]['metrics']}
        assert vm['verify_bad_blocks'] == 0, path
    return iops, mibs, cpu_op, (v[0]['params']['verify_crc_path'] if v else None), usr_op
path = '?'
print('%-7s %-8s %10s %10s %12s %12s   %s' % ('test', 'run', 'MiB/s', 'IOPS', 'CPU/op (us)',
                                              'user/op (us)', 'per run: IOPS/CPU per op'))
for t in ('seq1m', 'rand8k'):
    rr, rc = [], []
    fig = {'plain': [], 'stamped': []}
    for p in range(1, pairs + 1):
        a = write_row('plain.%s.%d' % (t, p))
        b = write_row('stamped.%s.%d' % (t, p))
        path = b[3]
        fig['plain'].append(a)
        fig['stamped'].append(b)
        rr.append(b[0] / a[0])
        rc.append(b[2] / a[2])
    for k in ('plain', 'stamped'):
        f = fig[k]
        print('%-7s %-8s %10.1f %10.0f %12.2f %12.2f   %s' % (
            t, k, statistics.median(x[1] for x in f), statistics.median(x[0] for x in f),
            statistics.median(x[2] for x in f) / 1000,
            statistics.median(x[4] for x in f) / 1000,
            ' '.join('%.0f/%.2f' % (x[0], x[2] / 1000) for x in f)))
    print('%-7s stamped/plain: rate median %.3f (%s); CPU per op median %.3f (%s)' % (
        t, statistics.median(rr), ' '.join('%.3f' % x for x in rr), statistics.median(rc),
        ' '.join('%.3f' % x for x in rc)))
print('crc32c path: %s' % path)
EOF
