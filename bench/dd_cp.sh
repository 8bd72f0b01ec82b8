#!/bin/bash
# bench/dd_cp.sh - iobattery dd and cp side by side with coreutils dd and cp, on the same
# file and block size, alternating (A B A B ...) for ROUNDS rounds; prints the median of
# the per-round ratios ours/theirs (rate: higher is better for us) and the CPU time per
# operation of each.
#   bench/dd_cp.sh [DIR] [ROUNDS] [SIZE_MB]
# Both tools time themselves from the first to the last call (dd prints that time; ours
# prints the same line), so process start-up is out of both. cp has no timer of its own:
# both cps are timed from outside, coreutils cp followed by `sync -d` on the copy because
# iobattery cp issues an fdatasync after its copy.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-.}
rounds=${2:-5}
size_mb=${3:-512}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v dd >/dev/null || { echo "bench: coreutils dd missing" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
TIMEFORMAT='%U %S'
export IOBATTERY_DB="$work/bench-results.db"   # keep bench runs out of the user's store

# secs_of FILE: the seconds figure from a dd closing line ("..., 1.234 s, ...").
secs_of() { sed -n 's/.* copied, \([0-9.e+-]*\) s, .*/\1/p' "$1" | tail -n 1; }
# cpu_of FILE: user+sys seconds from bash's time (last line).
cpu_of() { tail -n 1 "$1" | awk '{print $1 + $2}'; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A R CO CT
names=()
add() { # NAME RATIO OUR_CPU_PER_OP THEIR_CPU_PER_OP
	[ -n "${R[$1]+x}" ] || names+=("$1")
	R[$1]="${R[$1]:-} $2"; CO[$1]="${CO[$1]:-} $3"; CT[$1]="${CT[$1]:-} $4"
}

run_dd_pair() { # NAME OPS ARGS...   (runs ours then theirs; ratio = their_s / our_s)
	name=$1; ops=$2; shift 2
	{ time "$IOB" dd "$@" --quiet --overwrite > o.txt 2>&1; } 2> o.cpu
	{ time dd "$@" > t.txt 2>&1; } 2> t.cpu
	grep -q copied t.txt || cat t.txt t.cpu >&2
	so=$(secs_of o.txt); st=$(secs_of t.txt)
	add "$name" "$(awk -v a="$st" -v b="$so" 'BEGIN {print a / b}')" \
		"$(awk -v c="$(cpu_of o.cpu)" -v n="$ops" 'BEGIN {print c / n * 1e9}')" \
		"$(awk -v c="$(cpu_of t.cpu)" -v n="$ops" 'BEGIN {print c / n * 1e9}')"
}

bytes=$((size_mb * 1048576))
echo "bench: $rounds rounds, ${size_mb} MiB, in $(df -P "$work" | awk 'NR==2 {print $1 " (" $6 ")"}')"
for r in $(seq 1 "$rounds"); do
	for bs in 1k 4k 1M; do
		case $bs in 1k) n=$((bytes / 1024)) ;; 4k) n=$((bytes / 4096)) ;; 1M) n=$size_mb ;; esac
		rm -f f
		# Write with conv=fdatasync (both include the fdatasync in their time). The first
		# write of a round creates the file; alternate which tool goes first.
		if [ $((r % 2)) = 1 ]; then
			run_dd_pair "write bs=$bs conv=fdatasync" "$n" if=/dev/zero of=f bs=$bs count=$n conv=fdatasync
		else
			{ time dd if=/dev/zero of=f bs=$bs count=$n conv=fdatasync > t.txt 2>&1; } 2> t.cpu
			{ time "$IOB" dd if=/dev/zero of=f bs=$bs count=$n conv=fdatasync --quiet --overwrite > o.txt 2>&1; } 2> o.cpu
			add "write bs=$bs conv=fdatasync" \
				"$(awk -v a="$(secs_of t.txt)" -v b="$(secs_of o.txt)" 'BEGIN {print a / b}')" \
				"$(awk -v c="$(cpu_of o.cpu)" -v n="$n" 'BEGIN {print c / n * 1e9}')" \
				"$(awk -v c="$(cpu_of t.cpu)" -v n="$n" 'BEGIN {print c / n * 1e9}')"
		fi
		run_dd_pair "read bs=$bs (page cache)" "$n" if=f of=/dev/null bs=$bs
		# After dropping the file from the cache, the same way for both (the file is
		# clean: it was written with conv=fdatasync): coreutils dd's iflag=nocache,
		# i.e. posix_fadvise(DONTNEED); alternate which tool reads first.
		dd if=f iflag=nocache count=0 2>/dev/null
		if [ $((r % 2)) = 1 ]; then
			{ time "$IOB" dd if=f of=/dev/null bs=$bs --quiet > o.txt 2>&1; } 2> o.cpu
			dd if=f iflag=nocache count=0 2>/dev/null
			{ time dd if=f of=/dev/null bs=$bs > t.txt 2>&1; } 2> t.cpu
		else
			{ time dd if=f of=/dev/null bs=$bs > t.txt 2>&1; } 2> t.cpu
			dd if=f iflag=nocache count=0 2>/dev/null
			{ time "$IOB" dd if=f of=/dev/null bs=$bs --quiet > o.txt 2>&1; } 2> o.cpu
		fi
		add "read bs=$bs (dropped)" \
			"$(awk -v a="$(secs_of t.txt)" -v b="$(secs_of o.txt)" 'BEGIN {print a / b}')" \
			"$(awk -v c="$(cpu_of o.cpu)" -v n="$n" 'BEGIN {print c / n * 1e9}')" \
			"$(awk -v c="$(cpu_of t.cpu)" -v n="$n" 'BEGIN {print c / n * 1e9}')"
	done
	# cp: coreutils cp has no timer of its own, so it is timed from outside together with
	# a `sync -d` of the copy (process start-ups included, a few ms); iobattery's figure is
	# its own durable time (first call to the return of its fdatasync of the copy), so
	# its start-up work (environment, memcpy bandwidth check) is not in the comparison.
	rm -f c1 c3
	ours_cp() {
		"$IOB" cp f c1 --quiet --no-store --format csv > o.csv 2>&1
		od=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "durable_s") c = i; next}
			c {print $c}' o.csv | tail -n 1)
	}
	theirs_cp() { t1=$(date +%s%N); cp f c3; sync -d c3; t2=$(date +%s%N); }
	if [ $((r % 2)) = 1 ]; then ours_cp; theirs_cp; else theirs_cp; ours_cp; fi
	add "cp (default method), durable" \
		"$(awk -v o="$od" -v t=$((t2 - t1)) 'BEGIN {print t / 1e9 / o}')" "-" "-"
	rm -f c1 c3
	printf '.' >&2
done
echo >&2
printf '%-34s %8s %8s %12s %12s   %s\n' "test" "median" "geomean" "ours ns/op" "theirs ns/op" "per-round ratios (ours/theirs)"
for n in "${names[@]}"; do
	med=$(echo ${R[$n]} | tr ' ' '\n' | median)
	co=$(echo ${CO[$n]} | tr ' ' '\n' | grep -v -- - | median)
	ct=$(echo ${CT[$n]} | tr ' ' '\n' | grep -v -- - | median)
	gm=$(echo ${R[$n]} | awk '{for (i = 1; i <= NF; i++) s += log($i); printf "%.3f", exp(s / NF)}')
	printf '%-34s %8.3f %8s %12s %12s   %s\n' "$n" "$med" "$gm" "${co:--}" "${ct:--}" "$(echo ${R[$n]} | awk '{for (i=1;i<=NF;i++) printf "%.2f ", $i}')"
done
echo "ratio = their time / our time for the same bytes (>1: iobattery faster); ns/op = (user+sys CPU) / records"
echo "order alternates each round; where the first reader after a cache drop is slower (a virtual"
echo "disk with a host cache), the geometric mean over an even number of rounds cancels the order"

# The tool's own cost per call: the null engine does no I/O.
"$IOB" dd if=/dev/zero of=n bs=1k count=10M --engine null --quiet > o.txt 2>&1
awk '/copied/ {for (i=1;i<=NF;i++) if ($i=="s,") s=$(i-1)} END {printf "null engine: %.1f ns per call (timing + histogram + loop)\n", s / 10485760 * 1e9}' o.txt
