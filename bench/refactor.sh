#!/bin/bash
# bench/refactor.sh - before/after: this tree's ./iobattery ("ours") against the same
# program built from an earlier revision ("base"), on the same directory, interleaved ABBA
# (pair 1: ours then base, pair 2: base then ours, ...) for PAIRS pairs. Prints per test
# the median and the geometric mean of the pairwise ratios ours/base (speed: above 1 is
# faster; the goal of a refactor is at least 0.98), each binary's figure and its CPU time
# per operation.
#   bench/refactor.sh [DIR] [REV]
# DIR (default $TMPDIR or /tmp) holds the files. REV (default 3bcc13f, the last commit
# before the core refactor) is built in a temporary git worktree under /tmp, removed at the
# end.
# Environment: PAIRS (6), SIZE_MB (256: the dd files and Bonnie's data set), PM_NUMBER
#   (2000), PM_TRANSACTIONS (20000), NULL_COUNT (4M), PIN (a CPU number: the bench shell,
#   and so both binaries, pinned to it with taskset; default none), BASE_IOB (a binary
#   already built from REV: used instead of building), IOB (ours, default ./iobattery).
# Tests: dd bs=1k and bs=1M writes with conv=fdatasync (their figure includes the
# fdatasync) and cached reads of the file just written; Bonnie's put_block, rewrite and
# putc (syscall method) from one `bonnie -n 0` run; PostMark's transactions phase;
# `dd --engine null` (no I/O: the tool's own cost per call). Every run is --no-store
# --format json; a test that either binary cannot run (an option it lacks) is skipped.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
IOB=${IOB:-$top/iobattery}
dir=${1:-${TMPDIR:-/tmp}}
rev=${2:-3bcc13f}
PAIRS=${PAIRS:-6}
SIZE_MB=${SIZE_MB:-256}
PM_NUMBER=${PM_NUMBER:-2000}
PM_TRANSACTIONS=${PM_TRANSACTIONS:-20000}
NULL_COUNT=${NULL_COUNT:-4M}
[ -x "$IOB" ] || { echo "bench: build iobattery first (make)" >&2; exit 2; }
have_json_reader || { echo "bench: jq or python3 is needed to read the JSON results"; exit 77; }
work=$(mktemp -d "$dir/iob-bench-refactor.XXXXXX") || exit 2
src=""
cleanup() {
	[ -n "$src" ] && git -C "$top" worktree remove --force "$src" > /dev/null 2>&1
	[ -n "$src" ] && rm -rf "$src"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export IOBATTERY_DB="$work/results.db"   # --no-store everywhere; this is a safety net
pinned=$(pin_self "${PIN:-}") || exit 2

# The base binary: built from REV in a worktree of this repository, then the worktree goes.
if [ -n "${BASE_IOB:-}" ]; then
	base=$BASE_IOB
else
	command -v git > /dev/null && git -C "$top" rev-parse --verify -q "$rev^{commit}" > /dev/null ||
		{ echo "bench: '$rev' is not a revision of $top (a git checkout is needed)"; exit 77; }
	src=$(mktemp -d /tmp/iob-refactor-base.XXXXXX) || exit 2
	git -C "$top" worktree add --detach -q "$src" "$rev" > "$work/build.log" 2>&1 &&
		(cd "$src" && ./configure && make -j"$(nproc 2> /dev/null || echo 2)" iobattery) \
		>> "$work/build.log" 2>&1 ||
		{ echo "bench: cannot build $rev:" >&2; tail -n 20 "$work/build.log" >&2; exit 1; }
	cp "$src/iobattery" "$work/base-iobattery" || exit 1
	git -C "$top" worktree remove --force "$src" > /dev/null 2>&1
	rm -rf "$src"; src=""
	base=$work/base-iobattery
fi
[ -x "$base" ] || { echo "bench: no base binary ($base)" >&2; exit 2; }

mkdir "$work/pm"
printf 'set location %s\nset number %s\nset transactions %s\nrun\nquit\n' \
	"$work/pm" "$PM_NUMBER" "$PM_TRANSACTIONS" > "$work/pm.script"

declare -A SKIP
# run_one BIN TEST: run BIN's TEST, JSON in $work/out.json; 0 on success
run_one() {
	local b=$1 t=$2 common=(--no-store --format json --quiet)
	case $t in
	dd_write_*) rm -f "$work/f"
		"$b" dd if=/dev/zero of="$work/f" bs="${t#dd_write_}" \
			count=$(( SIZE_MB * 1048576 / $(bsz "${t#dd_write_}") )) conv=fdatasync \
			--overwrite "${common[@]}" ;;
	dd_read_*) "$b" dd if="$work/f" of=/dev/null bs="${t#dd_read_}" "${common[@]}" ;;
	bonnie) "$b" bonnie -d "$work" -s "$SIZE_MB" -r $((SIZE_MB / 2)) -n 0 \
			--char-method syscall "${common[@]}" ;;
	postmark) "$b" postmark "$work/pm.script" "${common[@]}" ;;
	null) "$b" dd if=/dev/zero of="$work/n" bs=1k count="$NULL_COUNT" --engine null \
			--overwrite "${common[@]}" ;;
	esac > "$work/out.json" 2> "$work/err.txt"
}
bsz() { case $1 in 1k) echo 1024 ;; 1M) echo 1048576 ;; esac; }
# figure TEST PHASE JSON: "figure cpu_ns_per_unit" of one run (figure: MB/s for dd, K/s
# for Bonnie, transactions/s for PostMark, ns per call for the null engine; the unit of
# CPU: a dd record or null call, a KiB for Bonnie, a transaction for PostMark)
figure() {
	local f
	f=$(rowfig "$3" "$2")
	[ -n "$f" ] || return 1
	set -- "$1" $f
	case $1 in
	dd_*) fmt '%.1f %.0f' 'b / e * 1e3, c * 1e9 / o' b="$2" e="$4" c="$5" o="$3" ;;
	bonnie) fmt '%.0f %.1f' 'b / 1024 / (e / 1e9), c * 1e9 / (b / 1024)' b="$2" e="$4" c="$5" ;;
	postmark) fmt '%.1f %.0f' 'o / (e / 1e9), c * 1e9 / o' o="$3" e="$4" c="$5" ;;
	null) fmt '%.2f %.2f' 'e / o, c * 1e9 / o' o="$3" e="$4" c="$5" ;;
	esac
}
# pair TEST FIRST: run TEST with both binaries (FIRST: ours or base first) and add the
# figures of its phases (name "label" pairs follow the test)
pair() {
	local t=$1 first=$2 who b fo ft o oc th tc; shift 2
	[ -n "${SKIP[$t]+x}" ] && return
	for who in $([ "$first" = ours ] && echo "ours base" || echo "base ours"); do
		b=$([ "$who" = ours ] && echo "$IOB" || echo "$base")
		run_one "$b" "$t" ||
			{ SKIP[$t]="$who exited $?: $(grep -m 1 . "$work/err.txt")"; return; }
		cp "$work/out.json" "$work/$who.json"
	done
	while [ $# -ge 2 ]; do
		fo=$(figure "$t" "$1" "$work/ours.json") && ft=$(figure "$t" "$1" "$work/base.json") ||
			{ SKIP[$t]="no '$1' row"; return; }
		read -r o oc <<< "$fo"
		read -r th tc <<< "$ft"
		if [ "$t" = null ]; then
			add "$2" "$(ratio "$th" "$o")" "$o" "$th" "$oc" "$tc"
		else
			add "$2" "$(ratio "$o" "$th")" "$o" "$th" "$oc" "$tc"
		fi
		shift 2
	done
}

echo "bench: ours $IOB ($(git -C "$top" describe --always --dirty 2> /dev/null)) vs base $rev;" \
	"$PAIRS pairs ABBA, ${SIZE_MB} MiB, in $(where "$work")"
[ -n "$pinned" ] && echo "bench: $pinned"
for p in $(seq 1 "$PAIRS"); do
	first=$([ $((p % 2)) = 1 ] && echo ours || echo base)
	for bs in 1k 1M; do
		pair "dd_write_$bs" "$first" write "dd write bs=$bs conv=fdatasync"
		pair "dd_read_$bs" "$first" read "dd read bs=$bs (page cache)"
	done
	pair bonnie "$first" put_block "bonnie put_block" rewrite "bonnie rewrite" \
		putc "bonnie putc (syscall)"
	pair postmark "$first" transactions "postmark transactions"
	pair null "$first" write "dd --engine null bs=1k"
	printf '.' >&2
done
echo >&2
table base figure cpu/op 0.98
echo "ratio: ours/base speed (for the null engine: base ns / ours ns); above 1: ours faster;"
echo "'<' marks a median under the goal 0.98. figure: MB/s (dd), K/s (bonnie), tps (postmark),"
echo "ns per call (null). cpu/op: (user+sys) ns per dd record, per KiB (bonnie), per"
echo "transaction, per null call; cpu: median of base cpu/op / ours (above 1: ours cheaper),"
echo "the steadier figure when other work shares the CPUs: $(uptime | sed 's/.*load/load/')"
for t in $(printf '%s\n' "${!SKIP[@]}" | sort); do echo "skipped $t: ${SKIP[$t]}"; done
rm -f "$work/f" "$work/n"
exit 0
