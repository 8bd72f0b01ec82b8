# bench/lib.sh - helpers the bench scripts source (bash): medians, geometric means, the
# table of ratios, figures out of iobattery's JSON, CPU pinning. Not a benchmark itself.

# median: the median of the numbers on stdin, one a line ("-" when there are none).
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) printf "%.10g\n", a[(NR+1)/2]; else printf "%.10g\n", (a[NR/2]+a[NR/2+1])/2}'; }
# geomean: the geometric mean of the positive numbers on stdin ("-" when there are none).
geomean() { awk '$1 > 0 {s += log($1); n++} END {if (n) printf "%.3f\n", exp(s / n); else print "-"}'; }

# Results of a benchmark, per test NAME: the pairwise ratios (R), each tool's figure (FO,
# FT), CPU per op (CO, CT) and the pairwise CPU ratios theirs/ours (RC: above 1, ours
# spends less CPU per op; steadier than the rates when the machine is shared, as the
# rate follows the CPU time the process gets); names keeps the order of first appearance.
declare -A R FO FT CO CT RC
names=()
# add NAME RATIO OUR_FIGURE THEIR_FIGURE OUR_CPU_PER_OP THEIR_CPU_PER_OP ("-": none)
add() {
	[ -n "${R[$1]+x}" ] || names+=("$1")
	R[$1]="${R[$1]:-} $2"; FO[$1]="${FO[$1]:-} $3"; FT[$1]="${FT[$1]:-} $4"
	CO[$1]="${CO[$1]:-} $5"; CT[$1]="${CT[$1]:-} $6"; RC[$1]="${RC[$1]:-} $(ratio "$6" "$5")"
}
# col LIST: the numbers of a space-separated list one a line, without the "-" entries
col() { echo $1 | tr ' ' '\n' | grep -v -e '^-$' -e '^$'; }
# num: a figure for the table: whole numbers from 100 up, 3 significant digits below
num() { awk '{if ($1 == "-") print "-"; else if ($1 >= 100) printf "%.0f\n", $1; else printf "%.3g\n", $1}'; }
# table THEIRS_NAME FIGURE_HEAD CPU_HEAD GOAL: one line per test: median and geometric mean
# of the ratios, medians of the figures and CPU per op, the median CPU ratio theirs/ours
# ("cpu"), the ratios themselves; a ratio median under GOAL is marked with '<'.
table() {
	local n med gm
	printf '%-36s %7s %7s %11s %11s %10s %10s %7s  %s\n' test median geomean "ours $2" \
		"$1 $2" "ours $3" "$1 $3" "cpu" "ratios per pair"
	for n in "${names[@]}"; do
		med=$(col "${R[$n]}" | median)
		gm=$(col "${R[$n]}" | geomean)
		printf '%-36s %7s %7s %11s %11s %10s %10s %7s  %s\n' "$n" \
			"$(awk -v m="$med" -v g="$4" 'BEGIN {if (m == "-") print "-"; else printf "%.3f%s", m, m < g ? "<" : ""}')" \
			"$gm" "$(col "${FO[$n]}" | median | num)" "$(col "${FT[$n]}" | median | num)" \
			"$(col "${CO[$n]}" | median | num)" "$(col "${CT[$n]}" | median | num)" \
			"$(col "${RC[$n]}" | median | awk '{if ($1 == "-") print "-"; else printf "%.3f\n", $1}')" \
			"$(col "${R[$n]}" | awk '{printf "%.3f ", $1}')"
	done
}
# ratio A B: A / B with 4 decimals ("-" when either is missing or B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "-" || b == "-" || a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.4f\n", a / b}'; }
# fmt EXPR...: awk arithmetic on numbers given as -v assignments, e.g. fmt '%.1f' 'a / b' a=1 b=2
fmt() {
	local f=$1 e=$2 v=() a
	shift 2
	for a in "$@"; do v+=(-v "$a"); done
	awk "${v[@]}" "BEGIN {printf \"$f\\n\", $e}"
}

# rowfig JSON PHASE: "bytes ops elapsed_ns cpu_s cpu_ns_per_op" of the first row of PHASE in
# an iobattery JSON result (cpu_s = user + sys; "-" for what the row lacks); empty output
# when there is no such row. Uses jq, else python3.
rowfig() {
	if command -v jq > /dev/null 2>&1; then
		jq -r --arg p "$2" 'first(.rows[] | select(.phase == $p)) |
			[.bytes, .ops, .elapsed_ns,
			 (if .cpu then (.cpu.user_s + .cpu.sys_s) else "-" end),
			 (if .cpu and .cpu.cpu_ns_per_op then .cpu.cpu_ns_per_op else "-" end)] |
			map(tostring) | join(" ")' "$1" 2> /dev/null
	else
		python3 - "$1" "$2" <<'PY' 2> /dev/null
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    if r["phase"] == sys.argv[2]:
        c = r.get("cpu") or {}
        cpu = c["user_s"] + c["sys_s"] if c else "-"
        print(r["bytes"], r["ops"], r["elapsed_ns"], cpu, c.get("cpu_ns_per_op") or "-")
        break
PY
	fi
}
have_json_reader() { command -v jq > /dev/null 2>&1 || command -v python3 > /dev/null 2>&1; }

# pin_self CPU: pin this shell, and so every process it starts, to CPU (taskset -cp);
# prints what was done ("" when CPU is empty or taskset is missing). Pinning the shell
# once costs the timed commands nothing (no taskset exec per run); kernel threads
# (writeback, the journal) stay free to run anywhere.
pin_self() {
	[ -n "${1:-}" ] && command -v taskset > /dev/null 2>&1 || return 0
	taskset -cp "$1" $$ > /dev/null || { echo "bench: cannot pin to CPU $1" >&2; return 1; }
	echo "pinned to CPU $1 (taskset -cp $1 on the bench shell: both tools and their children)"
}
# where DIR: "device (mount point)" of DIR
where() { df -P "$1" | awk 'NR==2 {print $1 " (" $6 ")"}'; }

# mpi_setup: for the multi-rank benches, with $top and $IOB set: exits unless $IOB is
# built and with MPI (2 when missing, 77 without MPI or its launcher); then $run and
# $impl are the build's launcher and MPI, and `mpi N CMD...` starts N ranks of CMD
# (Open MPI as root and over more ranks than CPUs allowed).
mpi_setup() {
	[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
	"$IOB" --version | grep -q "^built with:.* mpi" ||
		{ echo "bench: built without MPI" >&2; exit 77; }
	run=$(sed -n 's/^#define IOB_MPI_LAUNCHER "\(.*\)"$/\1/p' "$top/src/config.h")
	impl=$(sed -n 's/^#define IOB_MPI_IMPL "\(.*\)"$/\1/p' "$top/src/config.h")
	[ -x "$run" ] || { echo "bench: no launcher for the $impl build" >&2; exit 77; }
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_btl_vader_single_copy_mechanism=none
}
mpi() {
	local n=$1
	shift
	if [ "$impl" = openmpi ]; then "$run" --oversubscribe -np "$n" "$@"; else "$run" -n "$n" "$@"; fi
}
