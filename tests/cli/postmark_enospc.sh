#!/bin/sh
# postmark_enospc.sh - a full file system in the middle of the transactions: a clear
# message with the counts so far, every file removed, exit 1. Needs root (a small tmpfs).
set -u
[ "$(id -u)" -eq 0 ] || { echo "needs root to mount a small tmpfs"; exit 77; }
d=$(mktemp -d "$TESTS_TMP/iob-postmark_enospc.XXXXXX") || exit 1
trap 'umount "$d/m" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$d/m"
mount -t tmpfs -o size=24m tmpfs "$d/m" 2>/dev/null ||
	{ echo "cannot mount a tmpfs here"; exit 77; }
# The pool (2000 files of 5-10 KB, 15 MB) fits; creating in every transaction
# (up to the table's 4000 files, 30 MB) fills 24 MiB.
printf 'set location %s\nset number 2000\nset size 5000 10000\nset bias create 10\n' \
	"$d/m" > "$d/s"
printf 'set transactions 5000\nrun\nquit\n' >> "$d/s"
"$IOB" postmark "$d/s" > "$d/out" 2> "$d/err"; rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc, want 1: $(cat "$d/err")"
grep -q 'no space left on device' "$d/err" || fail "message: $(cat "$d/err")"
grep -q 'files created' "$d/err" || fail "no counts in message: $(cat "$d/err")"
[ -z "$(ls -A "$d/m")" ] || fail "left behind: $(ls -A "$d/m")"
echo "ok"
