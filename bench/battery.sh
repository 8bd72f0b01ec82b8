#!/bin/bash
# bench/battery.sh - the battery's own cost and its steps against the standalone tools.
#   bench/battery.sh [DIR] [ROUNDS] [BUDGET]      (defaults: /tmp, 3, 2m)
# Each round runs `iobattery battery --budget BUDGET` on DIR, then (the order alternating
# by round) the real tools at the sizes that run chose: coreutils dd (bs=1k and bs=1M with
# conv=fdatasync, a read with iflag=direct), Bonnie++ with the same -s and -n, PostMark
# with the same set size/number/transactions. Prints per round the battery's wall time,
# its steps' time and the overhead between them (probe, plan, syncs, cleanup: the goal is
# under 2%), then per figure the median of the per-round ratios ours/theirs (rates: above
# 1 is faster). A tool that is missing is left out of the table.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
. "$top/bench/lib.sh"
dir=${1:-/tmp}
rounds=${2:-3}
budget=${3:-2m}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v jq > /dev/null || { echo "bench: jq missing" >&2; exit 77; }
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/t" || exit 2

# jqr FILE FILTER: a figure of the battery's result
jqr() { jq -r "$2" "$1"; }
# rate of the first row of WORKLOAD PHASE whose detail starts with DETAIL, in its unit
brate() {
	jqr "$1" "first(.rows[] | select(.workload == \"$2\" and .phase == \"$3\" and
		((.flags | index(\"not_measured\")) | not) and
		((.params.detail // \"\") | startswith(\"$4\")))) | .rate // empty"
}

# coreutils dd: MB/s (10^6 B/s) from its closing line
dd_rate() { LC_ALL=C dd "$@" 2>&1 | awk '/bytes/ && /copied/ {for (i = 1; i < NF; i++) if ($(i+1) ~ /^s,?$/) t = $i; b = $1} END {if (t > 0) printf "%.2f\n", b / t / 1e6}'; }

theirs() { # JSON: the standalone tools at the sizes that battery run chose; prints
	# "NAME WORKLOAD PHASE DETAIL-PREFIX RATE" lines (DETAIL "-": any)
	local j=$1 s1k s bmb bfiles pmn pmx o t
	s1k=$(jqr "$j" 'first(.rows[] | select(.workload == "dd" and .phase == "write" and .params.bs == "1024")) | .params.size // empty')
	s=$(jqr "$j" 'first(.rows[] | select(.workload == "dd" and .phase == "write" and .params.bs == "1048576")) | .params.size // empty')
	if [ -n "$s1k" ]; then
		t=$(dd_rate if=/dev/zero of="$work/t/f" bs=1024 count=$((s1k / 1024)) conv=fdatasync)
		rm -f "$work/t/f"
		echo "dd_write_bs=1k dd write bs=1K $t"
	fi
	if [ -n "$s" ]; then
		t=$(dd_rate if=/dev/zero of="$work/t/f" bs=1M count=$((s >> 20)) conv=fdatasync)
		echo "dd_write_bs=1M dd write bs=1M $t"
		t=$(dd_rate if="$work/t/f" of=/dev/null bs=1M iflag=direct)
		echo "dd_read_direct dd read bs=1M,_direct $t"
		rm -f "$work/t/f"
	fi
	bmb=$(jqr "$j" 'first(.rows[] | select(.workload == "bonnie" and .phase == "put_block")) | .params.size_mb // empty')
	bfiles=$(jqr "$j" 'first(.rows[] | select(.workload == "bonnie" and .phase == "seq_create")) | .params.files // "0"')
	if [ -n "$bmb" ] && command -v bonnie++ > /dev/null; then
		line=$(bonnie++ -d "$work/t" -s "$bmb" -r $((bmb / 2)) -n "${bfiles:-0}" -u root -q \
			-f 2> /dev/null | grep '^1\.98,')
		for p in put_block:12 rewrite:14 seq_create:27 ran_create:33; do
			t=$(echo "$line" | cut -d, -f"${p#*:}")
			case $t in *+*|"") continue ;; esac
			echo "bonnie_${p%:*} bonnie ${p%:*} - $t"
		done
	fi
	pmn=$(jqr "$j" 'first(.rows[] | select(.workload == "postmark" and .phase == "total")) | .params.number // empty')
	pmx=$(jqr "$j" 'first(.rows[] | select(.workload == "postmark" and .phase == "total")) | .params.transactions // empty')
	if [ -n "$pmn" ] && command -v postmark > /dev/null; then
		printf 'set size 300 100000\nset number %s\nset transactions %s\nset location %s\nrun\nquit\n' \
			"$pmn" "$pmx" "$work/t" > "$work/pm.txt"
		t=$(postmark "$work/pm.txt" 2> /dev/null | awk '/seconds of transactions/ {gsub(/[()]/, ""); print $(NF-2)}')
		[ -n "$t" ] && echo "postmark_transactions postmark transactions - $t"
	fi
}

echo "bench: $rounds rounds of a battery of $budget on $(df -P "$work" | awk 'NR==2 {print $1 " (" $6 ")"}')"
printf '%-6s %9s %9s %11s %9s %9s\n' round wall_s steps_s overhead_s "share" probe_s
for r in $(seq 1 "$rounds"); do
	j="$work/r$r.json"
	ours() {
		"$IOB" battery -d "$work" --budget "$budget" --no-store --quiet --format json \
			--output-dir "$work" > /dev/null 2>&1
		mv "$work/iobattery-results.json" "$j"
	}
	if [ $((r % 2)) = 1 ]; then
		ours; theirs "$j" > "$work/r$r.tools"
	else
		# the tools first, at the sizes of the round before (the plan is nearly the same)
		theirs "$work/r$((r - 1)).json" > "$work/r$r.tools"; ours
	fi
	[ -s "$j" ] || { echo "bench: the battery failed in round $r" >&2; exit 1; }
	w=$(jqr "$j" .options.wall_s); s=$(jqr "$j" .options.steps_s)
	o=$(jqr "$j" .options.overhead_s); p=$(jqr "$j" .options.probe_s)
	printf '%-6s %9s %9s %11s %8s%% %9s\n' "$r" "$w" "$s" "$o" \
		"$(fmt '%.2f' '100 * o / w' o="$o" w="$w")" "$p"
	while read -r name wl ph det t; do
		[ "$det" = - ] && det=""
		fo=$(brate "$j" "$wl" "$ph" "${det//_/ }")
		[ -n "$fo" ] && [ -n "$t" ] && add "$name" "$(ratio "$fo" "$t")" "$fo" "$t" - -
	done < "$work/r$r.tools"
done
echo
table theirs rate cpu/op 0
echo "(ratios ours/theirs per round; dd in MB/s, bonnie in K/sec or files/s, postmark in"
echo " transactions/s; the battery's figures are its own rows at the sizes it planned)"
