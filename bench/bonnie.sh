#!/bin/bash
# bench/bonnie.sh - iobattery bonnie side by side with the real Bonnie++ 2.00a on the same
# directory with the same -s/-r/-n (and the same extra flags, e.g. -D), alternating
# (A B A B ...) for ROUNDS rounds, the first tool of a round alternating too. Prints per
# phase the median of the per-round ratios ours/bonnie++ (rate: above 1 is faster) and
# the median CPU time per unit of work (%CPU / rate) of each.
#   bench/bonnie.sh [DIR] [ROUNDS] [SIZE_MB] [FILES] [EXTRA FLAGS...]
# Both tools write their own CSV line (Bonnie++'s format); a phase Bonnie++ shows as
# +++++ (under 500 ms) has no ratio ("short"): use a larger SIZE_MB or FILES for those.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
dir=${1:-.}
rounds=${2:-3}
size_mb=${3:-1024}
files=${4:-16}
shift $(($# < 4 ? $# : 4))
extra=("$@")
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
command -v bonnie++ >/dev/null || { echo "bench: bonnie++ missing (apt-get install bonnie++)" >&2; exit 2; }
work=$(mktemp -d "$dir/iob-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
ram=$((size_mb / 2))

phases=(putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del
	ran_create ran_stat ran_del)
# CSV field (1-based, awk) of each phase's rate; its %CPU is the next field.
fields=(10 12 14 16 18 20 27 29 31 33 35 37)

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

ours() { "$IOB" bonnie -d "$work" -s "$size_mb" -r "$ram" -n "$files" -q --quiet "${extra[@]}" 2>/dev/null | grep '^1\.98,' >> "$work/ours.csv"; }
theirs() { bonnie++ -d "$work" -s "$size_mb" -r "$ram" -n "$files" -u root -q "${extra[@]}" 2>/dev/null | grep '^1\.98,' >> "$work/theirs.csv"; }

echo "bench: $rounds rounds, -s $size_mb -r $ram -n $files ${extra[*]}, in $(df -P "$work" | awk 'NR==2 {print $1 " (" $6 ")"}')"
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then ours; theirs; else theirs; ours; fi
done
[ "$(wc -l < "$work/ours.csv")" = "$rounds" ] || { echo "bench: iobattery bonnie failed" >&2; exit 1; }
[ "$(wc -l < "$work/theirs.csv")" = "$rounds" ] || { echo "bench: bonnie++ failed" >&2; exit 1; }

printf '%-11s %12s %12s %8s %14s %14s\n' phase ours bonnie++ ratio "cpu/unit ours" "cpu/unit b++"
for i in "${!phases[@]}"; do
	f=${fields[$i]}
	ratios=$(paste -d' ' <(cut -d, -f"$f" "$work/ours.csv") <(cut -d, -f"$f" "$work/theirs.csv") |
		awk '$1 !~ /\+/ && $2 !~ /\+/ && $1 != "" && $2 > 0 {print $1 / $2}' | median)
	mo=$(cut -d, -f"$f" "$work/ours.csv" | grep -v '+' | median)
	mt=$(cut -d, -f"$f" "$work/theirs.csv" | grep -v '+' | median)
	# CPU seconds per unit of work (per KiB, seek or file), in microseconds
	co=$(cut -d, -f"$f,$((f + 1))" "$work/ours.csv" | awk -F, '$1 !~ /\+/ && $1 > 0 {print $2 / 100 / $1 * 1e6}' | median)
	ct=$(cut -d, -f"$f,$((f + 1))" "$work/theirs.csv" | awk -F, '$1 !~ /\+/ && $1 > 0 {print $2 / 100 / $1 * 1e6}' | median)
	[ "$ratios" = "-" ] && ratios="short"
	printf '%-11s %12s %12s %8s %14s %14s\n' "${phases[$i]}" "$mo" "$mt" "$ratios" "$co" "$ct"
done
echo "(rates: K/sec for the data phases, /sec for seeks and files; cpu/unit in us;"
echo " ratio: median over rounds of ours/bonnie++, 'short' where bonnie++ printed +++++)"

# The putc method against what Bonnie++ 1.03's method would give with the same stdio
# buffer: a reference loop (ours, below) that putc()s / getc()s the per-char size through
# a default-buffered FILE and fsyncs and closes as our phase does. Alternating, ROUNDS,
# on CHAR_MB MiB (default 64: the 3 MiB default would run for milliseconds).
char_mb=${CHAR_MB:-64}
command -v cc >/dev/null || exit 0
cat > "$work/ref.c" <<'REF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv)
{
	long n = atol(argv[2]) << 20, i;
	FILE *f = fopen(argv[1], "w");
	double t0, t1, t2, w;
	int c = 0;

	if (!f) return 1;
	t0 = now();
	for (i = 0; i < n; i++) putc('a' + (int)(i & 15), f);
	if (fflush(f) || fsync(fileno(f)) || fclose(f)) return 1;
	w = now() - t0;
	f = fopen(argv[1], "r");
	if (!f) return 1;
	t1 = now();
	for (i = 0; i < n && c != EOF; i++) c = getc(f);
	fclose(f);
	t2 = now();
	printf("%.0f %.0f\n", n / 1024.0 / w, n / 1024.0 / (t2 - t1));
	unlink(argv[1]);
	return c == EOF;
}
REF
cc -O2 -o "$work/ref" "$work/ref.c" || exit 0
: > "$work/pref"; : > "$work/pours"
for r in $(seq 1 "$rounds"); do
	"$work/ref" "$work/ref.dat" "$char_mb" >> "$work/pref"
	"$IOB" bonnie -d "$work" -s "$char_mb" -r 8 -n 0 -f"$char_mb" --char-method putc -q \
		--quiet 2>/dev/null |
		cut -d, -f10,16 | tr , ' ' >> "$work/pours"
done
printf '\n%-11s %12s %12s %8s   (%s MiB, K/sec)\n' "putc method" ours "1.03-style" ratio "$char_mb"
for k in 1 2; do
	name=$([ $k = 1 ] && echo putc || echo getc)
	ratio=$(paste -d' ' <(cut -d' ' -f$k "$work/pours") <(cut -d' ' -f$k "$work/pref") |
		awk '$2 > 0 {print $1 / $2}' | median)
	printf '%-11s %12s %12s %8s\n' "$name" "$(cut -d' ' -f$k "$work/pours" | median)" \
		"$(cut -d' ' -f$k "$work/pref" | median)" "$ratio"
done
