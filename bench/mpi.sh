#!/bin/bash
# bench/mpi.sh - the multi-rank layer against fio and against itself:
#  1. aggregate bandwidth of `mpirun -np 2 iobattery job` and of `mpirun -np 2 iobattery
#     dd` (1M sequential writes, O_DIRECT, each rank its own file) against fio numjobs=2
#     on the same directory (IOR is not packaged here; fio's group figure is the same
#     rule: all bytes over the longest job's time), in the order job fio dd dd fio job
#     for ROUNDS rounds: median ratios ours/fio and CPU per op;
#  2. the layer's overhead per phase: bench/comm_overhead (2000 empty phases through the
#     runner, their gates, then the merge of their rows) at each rank count;
#  3. scaling: the aggregate write rate at each rank count, each rank SIZE_MB.
#   bench/mpi.sh [DIR] [ROUNDS] [SIZE_MB] [RANKS...]     (default: /tmp 5 256 1 2 4)
# RANKS is the list of rank counts for 2 and 3, e.g. "1 2 4 8 16" on a bigger machine.
# Needs a build with MPI (Open MPI or MPICH) and its launcher; fio and jq for part 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
. "$top/bench/lib.sh"
dir=${1:-/tmp}
rounds=${2:-5}
size_mb=${3:-256}
shift 3 2>/dev/null || shift $#
ranks=${*:-1 2 4}
mpi_setup
command -v jq > /dev/null || { echo "bench: jq missing" >&2; exit 77; }
[ -x "$top/bench/comm_overhead" ] || make -C "$top" bench/comm_overhead > /dev/null ||
	{ echo "bench: cannot build bench/comm_overhead" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench-mpi.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
export IOBATTERY_DB="$work/bench-results.db"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $impl; $dir" \
	"($(df -T "$dir" | awk 'NR == 2 {print $2}')), $size_mb MiB per rank"

# Each of the three prints "MB/s CPU-ns-per-op" (MB/s = 10^6 B/s; CPU = user + system
# of every rank or job over its ops; "- -" when it failed).
# ours_job: 2 ranks running fio's job, own files: the aggregate row
ours_job() {
	mpi 2 "$IOB" job --name=w --rw=write --bs=1M --size="${size_mb}M" --direct=1 \
		--directory="$work" --no-store --quiet --format json > j.json 2> j.err ||
		{ cat j.err >&2; echo - -; return; }
	jq -r '.rows[] | select(.phase == "aggregate") |
		"\(.rate * 1048576 / 1e6) \(.cpu.cpu_ns_per_op // "-")"' j.json
}

# ours N: N ranks writing their own files with dd (prints the rate only with N != 2)
ours() {
	mpi "$1" "$IOB" dd if=/dev/zero of=f bs=1M count="$size_mb" oflag=direct --no-store \
		--quiet --format json > o.json 2> o.err || { cat o.err >&2; echo - -; return; }
	jq -r '.rows[0] | "\(.rate) \(.cpu.cpu_ns_per_op // "-")"' o.json
	rm -f f.*
}

# theirs: fio numjobs=2 without group_reporting, so that each job's CPU is its own: the
# group's rule by hand (all bytes over the longest job's runtime, as group_reporting
# gives), CPU = each job's usr+sys share of its runtime, summed, over all its I/Os
theirs() {
	fio --name=w --directory="$work" --rw=write --bs=1M --size="${size_mb}M" \
		--direct=1 --numjobs=2 --output-format=json > t.json 2>&1 ||
		{ cat t.json >&2; echo - -; return; }
	jq -r '[.jobs[] | .write.io_bytes] as $b | [.jobs[] | .job_runtime] as $t |
		[.jobs[] | (.usr_cpu + .sys_cpu) / 100 * .job_runtime / 1000] as $c |
		[.jobs[] | .write.total_ios] as $n |
		"\(($b | add) / (($t | max) / 1000) / 1e6) \(($c | add) * 1e9 / ($n | add))"' t.json
	rm -f w.*
}

# pair NAME OURS1 THEIRS1 THEIRS2 OURS2: one ABBA pair (each a "MB/s cpu" line)
pair() {
	local r1 c1 t1 u1 t2 u2 r2 c2
	read -r r1 c1 <<< "$2"; read -r t1 u1 <<< "$3"; read -r t2 u2 <<< "$4"
	read -r r2 c2 <<< "$5"
	add "$1" "$(ratio "$(fmt '%.4f' '(a + b) / 2' a="$r1" b="$r2" 2> /dev/null || echo -)" \
		"$(fmt '%.4f' '(a + b) / 2' a="$t1" b="$t2" 2> /dev/null || echo -)")" \
		"$(fmt '%.1f' '(a + b) / 2' a="$r1" b="$r2")" "$(fmt '%.1f' '(a + b) / 2' a="$t1" b="$t2")" \
		"$(fmt '%.0f' '(a + b) / 2' a="$c1" b="$c2")" "$(fmt '%.0f' '(a + b) / 2' a="$u1" b="$u2")"
}

echo "== 1. aggregate bandwidth, 2 ranks, 1M sequential write, O_DIRECT, own files"
echo "   (order per round: job fio dd dd fio job, so each of ours is as far from fio's runs"
echo "   before as after; ratio = ours / fio of the round's two runs each; CPU per op in ns)"
if command -v fio > /dev/null; then
	for i in $(seq "$rounds"); do
		j1=$(ours_job); f1=$(theirs); d1=$(ours 2)
		d2=$(ours 2); f2=$(theirs); j2=$(ours_job)
		case "$j1$f1$d1$d2$f2$j2" in *-*) echo "(round $i: a run failed)" >&2; continue ;; esac
		pair "job write 2 ranks (MB/s)" "$j1" "$f1" "$f2" "$j2"
		pair "dd write 2 ranks (MB/s)" "$d1" "$f1" "$f2" "$d2"
	done
	table fio "MB/s" "cpu ns/op" 0.98
else
	echo "(fio missing: skipped)"
fi

echo "== 2. the layer's overhead: 2000 empty phases, their gates and the merge of their rows"
for n in $ranks; do
	for i in 1 2 3; do
		mpi "$n" "$top/bench/comm_overhead" 2000 2> /dev/null | grep '^ranks'
	done > ov.txt
	printf 'ranks %-3s per phase %8s us   merge per row %8s us   together %8s us (median of 3)\n' \
		"$n" "$(awk '{print $6}' ov.txt | median)" "$(awk '{print $8}' ov.txt | median)" \
		"$(awk '{print $10}' ov.txt | median)"
done

echo "== 3. scaling: aggregate write rate, each rank $size_mb MiB, O_DIRECT (median of $rounds)"
for n in $ranks; do
	for i in $(seq "$rounds"); do ours "$n"; done | awk '$1 != "-" {print $1}' > sc.txt
	printf 'ranks %-3s %10s MB/s\n' "$n" "$(median < sc.txt | num)"
done
