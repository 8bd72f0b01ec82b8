#!/bin/bash
# bench/sampling.sh - what the samplers cost the figures they explain: the same phases
# with the samplers on at the defaults (1 s series, 100 ms wait states) and with
# --no-sample, interleaved A B B A for ROUNDS rounds after one uncounted run, so drift
# and the order of runs fall on both sides alike. Prints per figure the median of the per-pair ratios
# sampled / unsampled (1.000 = no change; the goal is within 1%) and their range, the
# sampler thread's own CPU time as a share of one core (the goal: under 0.5%), and the
# median ratio of the workers' CPU time per operation (the process's less the
# sampler's), which a machine busy with other work disturbs far less than the rate.
#   bench/sampling.sh [DIR] [ROUNDS] [SIZE_MB]
# Figures: dd bs=1M buffered write (the rate until the last write returned, what the
# page cache takes, so the most sensitive to CPU taken from the writer), dd bs=1M with
# conv=fdatasync, Bonnie's block output (put_block) with -f -n 0, and dd on the null
# engine (no I/O: what the runner's loop itself costs per request).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-.}
rounds=${2:-6}
size_mb=${3:-1024}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v jq > /dev/null || { echo "bench: jq is needed (scripts/install-deps test)" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 2
export IOBATTERY_DB="$work/bench-results.db"

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A VAL
# one measurement: KIND (on|off) FIGURE CMD...; the rate of the row whose phase is
# PHASE into VAL[FIGURE,KIND,round], the sampler's CPU share into VAL[cpu,...]
measure() { # KIND FIGURE PHASE CMD...
	kind=$1 fig=$2 phase=$3; shift 3
	extra=""
	[ "$kind" = off ] && extra="--no-sample"
	"$@" $extra --format json --no-store > m.json 2> m.err || { cat m.err >&2; exit 1; }
	if [ "$kind" = warm ]; then
		rm -f f Bonnie.* 2> /dev/null
		return 0
	fi
	rate=$(jq --arg p "$phase" '[.rows[] | select(.phase == $p)][0].rate' m.json)
	VAL[$fig,$kind]="${VAL[$fig,$kind]:-} $rate"
	# the workers' CPU per operation: the process's, less the sampler thread's own
	cpo=$(jq --arg p "$phase" '[.rows[] | select(.phase == $p)][0] | (.cpu.user_s +
		.cpu.sys_s - (.system.sampler_cpu_s // 0)) / .ops * 1e9' m.json)
	VAL[$fig,$kind,cpo]="${VAL[$fig,$kind,cpo]:-} $cpo"
	if [ "$kind" = on ]; then
		cpu=$(jq --arg p "$phase" '[.rows[] | select(.phase == $p)][0] |
			.system.sampler_cpu_s / (.elapsed_ns / 1e9) * 100' m.json)
		VAL[$fig,cpu]="${VAL[$fig,cpu]:-} $cpu"
	fi
	rm -f f Bonnie.* 2> /dev/null
}

dd_w() { measure "$1" "dd bs=1M write (buffered)" write "$IOB" dd if=/dev/zero of=f bs=1M \
	count="$size_mb"; }
dd_s() { measure "$1" "dd bs=1M write conv=fdatasync" write "$IOB" dd if=/dev/zero of=f \
	bs=1M count="$size_mb" conv=fdatasync; }
bon() { measure "$1" "bonnie put_block (-f -n 0)" put_block "$IOB" bonnie -d . \
	-s "$size_mb" -n 0 -f -r 0; }

nul() { measure "$1" "null engine 4k (the loop's own cost)" write "$IOB" dd if=/dev/zero \
	of=f bs=4k count=$((size_mb * 4096)) --engine null --no-space-check; }

echo "bench: $rounds rounds of A B B A, ${size_mb} MiB, in $(df -P "$work" | awk 'NR==2 {print $1 " (" $6 ")"}')"
for r in $(seq 1 "$rounds"); do
	for b in nul dd_w dd_s bon; do
		# a first run, not counted, takes what the previous figure left behind (its
		# dirty pages, its freed memory): A B B A then cancels drift, not carry-over
		$b warm
		$b on; $b off; $b off; $b on
	done
	echo "round $r done" >&2
done

printf '%-34s %8s %8s %8s %8s %9s %9s\n' figure median min max pairs "sampler%" "cpu/op"
for fig in "null engine 4k (the loop's own cost)" "dd bs=1M write (buffered)" \
	"dd bs=1M write conv=fdatasync" "bonnie put_block (-f -n 0)"; do
	read -r -a on <<< "${VAL[$fig,on]}"
	read -r -a off <<< "${VAL[$fig,off]}"
	ratios=""
	for i in "${!on[@]}"; do
		ratios="$ratios $(awk -v a="${on[$i]}" -v b="${off[$i]}" 'BEGIN {printf "%.4f", a / b}')"
	done
	med=$(printf '%s\n' $ratios | median)
	min=$(printf '%s\n' $ratios | sort -g | head -n 1)
	max=$(printf '%s\n' $ratios | sort -g | tail -n 1)
	cpu=$(printf '%s\n' ${VAL[$fig,cpu]} | median)
	read -r -a con <<< "${VAL[$fig,on,cpo]}"
	read -r -a coff <<< "${VAL[$fig,off,cpo]}"
	cr=""
	for i in "${!con[@]}"; do
		cr="$cr $(awk -v a="${con[$i]}" -v b="${coff[$i]}" 'BEGIN {printf "%.4f", a / b}')"
	done
	printf '%-34s %8.4f %8.4f %8.4f %8d %8.3f%% %9.4f\n' "$fig" "$med" "$min" "$max" \
		"${#on[@]}" "$cpu" "$(printf '%s\n' $cr | median)"
done
