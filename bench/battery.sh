#!/bin/bash
# bench/battery.sh - the battery's own cost and its steps against the standalone tools.
#   bench/battery.sh [DIR] [ROUNDS] [BUDGET]      (defaults: /tmp, 3, 2m)
# Each round runs `iobattery battery --budget BUDGET` on DIR, then (the order alternating
# by round) the real tools at the sizes that run chose: coreutils dd (bs=1k and bs=1M with
# conv=fdatasync, a read with iflag=direct), Bonnie++ with the same -s and -n, PostMark
# with the same set size/number/transactions, fio with the database-pattern step's own job
# file (the run's job_file option: same jobs, same engine, same file name and size, in
# the same directory), pg_test_fsync with the fsync step's seconds per test. Prints per
# round the battery's wall time, its steps' time and the overhead between them (probe,
# plan, syncs, cleanup: the goal is under 2%), then per figure the median of the
# per-round ratios ours/theirs (rates: above 1 is faster) and, where both tools give it,
# the CPU time per operation of each (ns; "cpu" is theirs/ours, above 1 we spend less).
# The rounds alternate which side runs first (odd: the battery, even: the tools, at the
# sizes of the round before), so pairs of rounds are A B B A. A tool that is missing, or
# a step the budget left out, is left out of the table.
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
# "RATE CPU_NS_PER_OP" of the first row of WORKLOAD PHASE whose detail starts with DETAIL
# (rate in its unit; "-" for a CPU the row lacks); PHASE "ALL": the CPU per op over every
# measured row of WORKLOAD, as "CPU CPU"
brate() {
	if [ "$3" = ALL ]; then
		jqr "$1" "[.rows[] | select(.workload == \"$2\" and .ops > 0 and .cpu and
			.phase != \"durability\" and
			((.flags | index(\"not_measured\")) | not))] |
			if length == 0 then empty else
			((map(.cpu.user_s + .cpu.sys_s) | add) / (map(.ops) | add) * 1e9) |
			\"\\(.) \\(.)\" end"
		return
	fi
	jqr "$1" "first(.rows[] | select(.workload == \"$2\" and .phase == \"$3\" and
		((.flags | index(\"not_measured\")) | not) and
		((.params.detail // \"\") | startswith(\"$4\")))) |
		\"\\(.rate) \\(.cpu.cpu_ns_per_op // \"-\")\""
}

# coreutils dd: MB/s (10^6 B/s) from its closing line
dd_rate() { LC_ALL=C dd "$@" 2>&1 | awk '/bytes/ && /copied/ {for (i = 1; i < NF; i++) if ($(i+1) ~ /^s,?$/) t = $i; b = $1} END {if (t > 0) printf "%.2f\n", b / t / 1e6}'; }

# fio with the battery's job file in $work/t: "NAME job PHASE DETAIL IOPS CPU_NS" per job
# and direction (CPU per op over its reads, writes and syncs, as the battery counts it)
fio_job() {
	local j=$1
	jqr "$j" '.options.job_file // empty' > "$work/db.fio"
	[ -s "$work/db.fio" ] && command -v fio > /dev/null || return 0
	sync	# as the battery writes back between its steps: no tool pays for the last
	fio --directory="$work/t" --output-format=json --output="$work/fio.json" \
		"$work/db.fio" > /dev/null 2>&1 || { echo "bench: fio failed" >&2; return 0; }
	rm -f "$work/t/battery-db.dat"
	jq -r '.jobs[] | . as $b | (($b.usr_cpu + $b.sys_cpu) / 100 * $b.job_runtime * 1e6 /
		([$b.read.total_ios, $b.write.total_ios, ($b.sync.lat_ns.N // 0)] | add)) as $c |
		(["read", "write"][] | select($b[.].total_ios > 0) |
		"job_\($b.jobname)_\(.) job \(.) \($b.jobname)_\(.) \($b[.].iops) \($c)")' \
		"$work/fio.json"
}

# pg_test_fsync with the fsync step's seconds: "NAME fsync PHASE - OPS/S -" per method,
# then "fsync_all_cpu/op fsync ALL - CPU_NS CPU_NS" (its CPU time over every operation)
pg_fsync() {
	local j=$1 pg secs
	pg=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2> /dev/null | sort -V | tail -n 1)
	command -v pg_test_fsync > /dev/null && pg=$(command -v pg_test_fsync)
	secs=$(jqr "$j" 'first(.rows[] | select(.workload == "fsync") | .params.secs_per_test) // empty')
	[ -n "$pg" ] && [ -n "$secs" ] || return 0
	TIMEFORMAT='%U %S'
	sync
	{ time "$pg" -s "$secs" -f "$work/t/pg.out" > "$work/pg.txt" 2>&1; } 2> "$work/pg.time"
	rm -f "$work/t/pg.out"
	awk -v secs="$secs" -v cpu="$(cat "$work/pg.time")" '
		/one 8kB write/ { s = "1w" } /two 8kB writes/ { s = "2w" }
		/different write sizes/ { s = "sz" } /non-write file descriptor/ { s = "nw" }
		/Non-sync.ed/ { s = "ns" }
		/ops\/sec/ {
			l = $0; sub(/^[ \t]+/, "", l); sub(/ +[0-9.]+ ops\/sec.*/, "", l)
			if (s == "1w" || s == "2w") p = l "_" s
			else if (s == "sz") { split(l, w, /[ *]+/); p = "open_sync_" w[1] "x" w[2] }
			else if (s == "nw") { gsub(/, /, "_", l); p = l }
			else p = "write"
			match($0, /[0-9.]+ ops\/sec/); v = substr($0, RSTART, RLENGTH - 8)
			print "fsync_" p " fsync " p " - " v " -"; ops += v * secs
		}
		END { split(cpu, c, " "); if (ops > 0)
			printf "fsync_all_cpu/op fsync ALL - %.0f %.0f\n", (c[1] + c[2]) / ops * 1e9,
				(c[1] + c[2]) / ops * 1e9 }' "$work/pg.txt"
}

theirs() { # JSON: the standalone tools at the sizes that battery run chose; prints
	# "NAME WORKLOAD PHASE DETAIL-PREFIX RATE CPU_NS" lines (DETAIL, CPU_NS "-": any, none)
	local j=$1 s1k s bmb bfiles pmn pmx o t
	s1k=$(jqr "$j" 'first(.rows[] | select(.workload == "dd" and .phase == "write" and .params.bs == "1024")) | .params.size // empty')
	s=$(jqr "$j" 'first(.rows[] | select(.workload == "dd" and .phase == "write" and .params.bs == "1048576")) | .params.size // empty')
	if [ -n "$s1k" ]; then
		t=$(dd_rate if=/dev/zero of="$work/t/f" bs=1024 count=$((s1k / 1024)) conv=fdatasync)
		rm -f "$work/t/f"
		echo "dd_write_bs=1k dd write bs=1K $t -"
	fi
	if [ -n "$s" ]; then
		t=$(dd_rate if=/dev/zero of="$work/t/f" bs=1M count=$((s >> 20)) conv=fdatasync)
		echo "dd_write_bs=1M dd write bs=1M $t -"
		t=$(dd_rate if="$work/t/f" of=/dev/null bs=1M iflag=direct)
		echo "dd_read_direct dd read bs=1M,_direct $t -"
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
			echo "bonnie_${p%:*} bonnie ${p%:*} - $t -"
		done
	fi
	pmn=$(jqr "$j" 'first(.rows[] | select(.workload == "postmark" and .phase == "total")) | .params.number // empty')
	pmx=$(jqr "$j" 'first(.rows[] | select(.workload == "postmark" and .phase == "total")) | .params.transactions // empty')
	if [ -n "$pmn" ] && command -v postmark > /dev/null; then
		printf 'set size 300 100000\nset number %s\nset transactions %s\nset location %s\nrun\nquit\n' \
			"$pmn" "$pmx" "$work/t" > "$work/pm.txt"
		t=$(postmark "$work/pm.txt" 2> /dev/null | awk '/seconds of transactions/ {gsub(/[()]/, ""); print $(NF-2)}')
		[ -n "$t" ] && echo "postmark_transactions postmark transactions - $t -"
	fi
	fio_job "$j"
	pg_fsync "$j"
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
	while read -r name wl ph det t tc; do
		[ "$det" = - ] && det=""
		read -r fo co <<< "$(brate "$j" "$wl" "$ph" "${det//_/ }")"
		[ -n "${fo:-}" ] && [ -n "$t" ] &&
			add "$name" "$(ratio "$fo" "$t")" "$fo" "$t" "${co:--}" "${tc:--}"
	done < "$work/r$r.tools"
done
echo
table theirs rate cpu/op 0
echo "(ratios ours/theirs per round; dd in MB/s, bonnie in K/sec or files/s, postmark in"
echo " transactions/s, job in IOPS against fio, fsync in ops/s against pg_test_fsync, and"
echo " fsync_all_cpu/op the CPU time per operation over every test, lower is better; the"
echo " battery's figures are its own rows at the sizes it planned)"
