#!/bin/bash
# bench/whole.sh - whole-process time (what `time` shows: start-up, the measured work, the
# checks and output after it) of iobattery against the real tools on the same files,
# interleaved ABBA (pair 1: ours then theirs, pair 2: theirs then ours, ...) for PAIRS
# pairs; then start-up time (many runs, median) and peak RSS (/usr/bin/time -f %M).
#   bench/whole.sh [DIR]
# Tests (each skipped when its real tool is missing):
#   dd read    cached read bs=1M of a READ_MB file    iobattery dd   vs coreutils dd
#   dd write   bs=1k conv=fdatasync of WRITE_MB         iobattery dd   vs coreutils dd
#   cp         a cached CP_MB file, made durable        iobattery cp   vs cp && sync -d
#   bonnie     the same letters (BONNIE)                iobattery bonnie vs bonnie++
#   postmark   the same script                          iobattery postmark vs postmark
# Ratio: their wall time / ours (above 1: ours takes less time); the goal is at least 1.0.
# Every iobattery command gets --no-store (the results store's fsync'd transaction is a
# cost the real tools do not have); STORE=1 leaves it on. Wall time is bash's
# $EPOCHREALTIME around the command (no extra process in the window); CPU is bash's `time`.
# Environment: PAIRS (6), READ_MB (1024), WRITE_MB (64), CP_MB (256), BONNIE ("-s 512
#   -r 256 -n 4"), PM_NUMBER (5000), PM_TRANSACTIONS (20000), STARTS (200: start-up runs
#   of each command), PIN (the CPU to pin to, default the last one; empty: no pinning),
#   IOB (default ./iobattery).
set -u
export LC_ALL=C
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
IOB=${IOB:-$top/iobattery}
dir=${1:-${TMPDIR:-/tmp}}
PAIRS=${PAIRS:-6}
READ_MB=${READ_MB:-1024}
WRITE_MB=${WRITE_MB:-64}
CP_MB=${CP_MB:-256}
BONNIE=${BONNIE:--s 512 -r 256 -n 4}
PM_NUMBER=${PM_NUMBER:-5000}
PM_TRANSACTIONS=${PM_TRANSACTIONS:-20000}
STARTS=${STARTS:-200}
PIN=${PIN-$(($(nproc 2> /dev/null || echo 1) - 1))}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
[ -n "${EPOCHREALTIME:-}" ] || { echo "bench: bash 5 is needed (\$EPOCHREALTIME)"; exit 77; }
command -v dd > /dev/null || { echo "bench: coreutils dd missing"; exit 77; }
work=$(mktemp -d "$dir/iob-bench-whole.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
export IOBATTERY_DB="$work/results.db"
ns=(--no-store)
[ "${STORE:-0}" = 1 ] && ns=()
pinned=$(pin_self "$PIN") || exit 2
TIMEFORMAT='%3U %3S'
read -r -a bonnie_args <<< "$BONNIE"

# timed FUNC: run FUNC (output to $work/out), wall ms in W, CPU ms in U; FUNC's status
timed() {
	local s e rc
	s=$EPOCHREALTIME
	{ time "$1" > "$work/out" 2>&1; } 2> "$work/cpu"
	rc=$?
	e=$EPOCHREALTIME
	W=$(fmt '%.3f' '(e - s) * 1e3' s="$s" e="$e")
	U=$(awk '{printf "%.0f", ($1 + $2) * 1e3}' "$work/cpu")
	return $rc
}

# The tests: per NAME, prep_NAME (before each run, not timed), ours_NAME and theirs_NAME
# (timed), has_NAME (is the real tool there?).
has_dd_read() { :; }
prep_dd_read() { :; }
ours_dd_read() { "$IOB" dd if="$work/big" of=/dev/null bs=1M "${ns[@]}"; }
theirs_dd_read() { dd if="$work/big" of=/dev/null bs=1M; }

has_dd_write() { :; }
prep_dd_write() { rm -f "$work/w"; sync; }
ours_dd_write() { "$IOB" dd if=/dev/zero of="$work/w" bs=1k count=$((WRITE_MB * 1024)) \
	conv=fdatasync "${ns[@]}"; }
theirs_dd_write() { dd if=/dev/zero of="$work/w" bs=1k count=$((WRITE_MB * 1024)) conv=fdatasync; }

has_cp() { command -v cp > /dev/null && sync --help 2>&1 | grep -q -- --data; }
prep_cp() { rm -f "$work/c"; sync; }
ours_cp() { "$IOB" cp "$work/src" "$work/c" "${ns[@]}"; }
theirs_cp() { cp "$work/src" "$work/c" && sync -d "$work/c"; }

has_bonnie() { command -v bonnie++ > /dev/null; }
prep_bonnie() { sync; }
ours_bonnie() { "$IOB" bonnie -d "$work/b" "${bonnie_args[@]}" -u root "${ns[@]}"; }
theirs_bonnie() { bonnie++ -d "$work/b" "${bonnie_args[@]}" -u root; }

has_postmark() { command -v postmark > /dev/null; }
prep_postmark() { sync; }
ours_postmark() { "$IOB" postmark "$work/pm.script" "${ns[@]}"; }
theirs_postmark() { postmark "$work/pm.script"; }

tests=(dd_read dd_write cp bonnie postmark)
declare -A label=([dd_read]="dd read bs=1M ${READ_MB} MiB (cached)"
	[dd_write]="dd write bs=1k ${WRITE_MB} MiB fdatasync"
	[cp]="cp ${CP_MB} MiB + sync -d" [bonnie]="bonnie $BONNIE"
	[postmark]="postmark $PM_NUMBER files $PM_TRANSACTIONS txns")
declare -A SKIP

# The files: the read file and cp's source written once and read once so they are cached.
dd if=/dev/zero of="$work/big" bs=1M count="$READ_MB" conv=fdatasync 2> /dev/null &&
	cat "$work/big" > /dev/null || { echo "bench: cannot write $work/big" >&2; exit 1; }
dd if=/dev/urandom of="$work/src" bs=1M count="$CP_MB" conv=fdatasync 2> /dev/null &&
	cat "$work/src" > /dev/null || { echo "bench: cannot write $work/src" >&2; exit 1; }
mkdir "$work/b" "$work/pm"
printf 'set location %s\nset number %s\nset transactions %s\nrun\nquit\n' \
	"$work/pm" "$PM_NUMBER" "$PM_TRANSACTIONS" > "$work/pm.script"

echo "bench: whole-process time, $PAIRS pairs ABBA, in $(where "$work")"
[ -n "$pinned" ] && echo "bench: $pinned"
[ ${#ns[@]} = 0 ] && echo "bench: STORE=1: iobattery saves every run in a results store"
for t in "${tests[@]}"; do has_$t || SKIP[$t]="the real tool is missing"; done
for p in $(seq 1 "$PAIRS"); do
	for t in "${tests[@]}"; do
		[ -n "${SKIP[$t]+x}" ] && continue
		for who in $([ $((p % 2)) = 1 ] && echo "ours theirs" || echo "theirs ours"); do
			prep_$t
			if ! timed "${who}_$t"; then
				SKIP[$t]="$who failed: $(tail -n 2 "$work/out" | tr '\n' ' ')"
				break
			fi
			eval "w_$who=\$W u_$who=\$U"
		done
		[ -n "${SKIP[$t]+x}" ] && continue
		add "${label[$t]}" "$(ratio "$w_theirs" "$w_ours")" "$w_ours" "$w_theirs" "$u_ours" "$u_theirs"
	done
	printf '.' >&2
done
echo >&2
table theirs wall_ms cpu_ms 1.0
for t in "${tests[@]}"; do [ -n "${SKIP[$t]+x}" ] && echo "skipped ${label[$t]}: ${SKIP[$t]}"; done
echo "ratio: their wall time / ours (above 1: ours faster; '<' marks a median under 1.0);"
echo "wall_ms and cpu_ms (user+sys) are medians per run of the whole process; cpu: median"
echo "of their cpu_ms / ours (above 1: ours cheaper); $(uptime | sed 's/.*load/load/')"

# Start-up: a command that does nothing but start, print its help and exit, STARTS times
# each, the order rotating; wall time per run (fork and exec by bash included alike).
startup=("/bin/true" "dd --help" "$IOB --help" "$IOB dd --help")
declare -A ST
for i in $(seq 1 "$STARTS"); do
	for k in 0 1 2 3; do
		c=${startup[$(((k + i) % 4))]}
		read -r -a cmd <<< "$c"
		s=$EPOCHREALTIME
		"${cmd[@]}" > /dev/null 2>&1
		e=$EPOCHREALTIME
		ST[$c]="${ST[$c]:-} $(fmt '%.3f' '(e - s) * 1e3' s="$s" e="$e")"
	done
done

# Peak RSS: one run of each under GNU time
rss() { /usr/bin/time -f %M -o "$work/rss" "$@" > /dev/null 2>&1; tail -n 1 "$work/rss"; }
echo
printf '%-34s %14s %12s\n' "start-up (no work)" "median ms" "peak RSS KiB"
for c in "${startup[@]}"; do
	read -r -a cmd <<< "$c"
	r=-; [ -x /usr/bin/time ] && r=$(rss "${cmd[@]}")
	printf '%-34s %14s %12s\n' "${c/#$IOB/iobattery}" "$(col "${ST[$c]}" | median)" "$r"
done
[ -x /usr/bin/time ] || { echo "(GNU time missing: no RSS figures)"; exit 0; }
printf '\n%-36s %14s %14s\n' "peak RSS KiB (one run)" ours theirs
for t in "${tests[@]}"; do
	[ -n "${SKIP[$t]+x}" ] && continue
	prep_$t
	case $t in
	dd_read) ro=$(rss "$IOB" dd if="$work/big" of=/dev/null bs=1M "${ns[@]}")
		rt=$(rss dd if="$work/big" of=/dev/null bs=1M) ;;
	dd_write) ro=$(rss "$IOB" dd if=/dev/zero of="$work/w" bs=1k count=$((WRITE_MB * 1024)) \
			conv=fdatasync "${ns[@]}")
		prep_$t; rt=$(rss dd if=/dev/zero of="$work/w" bs=1k count=$((WRITE_MB * 1024)) \
			conv=fdatasync) ;;
	cp) ro=$(rss "$IOB" cp "$work/src" "$work/c" "${ns[@]}")
		prep_$t; rt=$(rss cp "$work/src" "$work/c") ;;
	bonnie) ro=$(rss "$IOB" bonnie -d "$work/b" "${bonnie_args[@]}" -u root "${ns[@]}")
		rt=$(rss bonnie++ -d "$work/b" "${bonnie_args[@]}" -u root) ;;
	postmark) ro=$(rss "$IOB" postmark "$work/pm.script" "${ns[@]}")
		rt=$(rss postmark "$work/pm.script") ;;
	esac
	printf '%-36s %14s %14s\n' "${label[$t]}" "$ro" "$rt"
done
echo "(cp's RSS is cp's alone; sync -d is a separate small process)"
exit 0
