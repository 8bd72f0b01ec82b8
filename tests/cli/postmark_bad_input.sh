#!/bin/sh
# postmark_bad_input.sh - bad commands: one clear line and exit 2 from a script or stdin,
# a kept session at the interactive prompt; nothing is created.
set -u
d=$(mktemp -d "$TESTS_TMP/iob-postmark_bad.XXXXXX") || exit 1
trap 'chmod -R u+w "$d" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$d/w"

bad() { # COMMAND-LINE EXPECTED-WORDS
	printf 'set location %s\n%s\nrun\n' "$d/w" "$1" > "$d/s"
	"$IOB" postmark "$d/s" > "$d/out" 2> "$d/err"; rc=$?
	[ "$rc" -eq 2 ] || fail "'$1' exited $rc, want 2"
	grep -q "^iobattery: postmark: .*s:2: .*$2" "$d/err" ||
		fail "'$1': message: $(cat "$d/err")"
	[ -z "$(ls -A "$d/w")" ] || fail "'$1' created files"
	grep -q 'Creating files' "$d/out" && fail "'$1': the run went ahead"
	return 0
}
bad 'set size 5000 100' 'above high'
bad 'set size 0 100' 'invalid file size'
bad 'set size -5' 'invalid file size'
bad 'set number 0' 'number of files'
bad 'set number -3' 'number of files'
bad 'set transactions 0' 'transactions'
bad 'set transactions many' 'transactions'
bad 'set bias read 11' 'bias read'
bad 'set bias create -2' 'bias create'
bad 'set buffering maybe' 'true or false'
bad 'set report long' 'terse or verbose'
bad 'set read 0' 'read block size'
bad "set location $d/nonexistent" 'does not exist'
bad "set location $d/s" 'not a directory'
bad 'frobnicate' 'unknown command'
bad 'set colour blue' 'unknown setting'

if [ "$(id -u)" -ne 0 ]; then
	mkdir "$d/ro" && chmod 555 "$d/ro"
	bad "set location $d/ro" 'not writable'
fi

# A script that does not exist (as operand or loaded); too many operands.
printf 'load %s\nrun\n' "$d/nope" > "$d/s"
"$IOB" postmark "$d/s" > "$d/out" 2> "$d/err"; rc=$?
[ "$rc" -eq 2 ] || fail "load of a missing script exited $rc"
grep -q "cannot open script: '$d/nope'" "$d/err" || fail "load message: $(cat "$d/err")"
"$IOB" postmark "$d/no-such-script" 2> "$d/err"; rc=$?
[ "$rc" -eq 2 ] || fail "missing script exited $rc"
grep -q "cannot open script: '$d/no-such-script'" "$d/err" || fail "message: $(cat "$d/err")"
"$IOB" postmark a b 2> /dev/null; [ $? -eq 2 ] || fail "two scripts accepted"

# Piped stdin: the same rule (stops at the bad line, exit 2).
printf 'set number 10\nset number zero\nshow\n' | "$IOB" postmark > "$d/out" 2> "$d/err"
[ $? -eq 2 ] || fail "stdin bad line did not exit 2"
grep -q 'stdin:2:' "$d/err" || fail "stdin message: $(cat "$d/err")"
grep -q 'Current configuration' "$d/out" && fail "went on after the bad line"

# show and help work from stdin, without a prompt.
printf 'set number 77\nshow\nhelp set bias\nquit\n' | "$IOB" postmark > "$d/out" || fail "show"
grep -q 'The base number of files is 77' "$d/out" || fail "show: $(cat "$d/out")"
grep -q '^set bias read' "$d/out" || fail "help: $(cat "$d/out")"
grep -q 'pm>' "$d/out" && fail "prompt printed on a pipe"

# The interactive prompt through a pseudo-terminal: a bad line keeps the session.
if command -v script > /dev/null 2>&1; then
	printf 'set number nope\nset number 33\nshow\nquit\n' > "$d/typed"
	script -qec "'$IOB' postmark < /dev/tty" /dev/null < "$d/typed" > "$d/tty" 2>&1
	if grep -q 'pm>' "$d/tty"; then
		grep -q 'number of files must be' "$d/tty" || fail "pty: no message: $(cat "$d/tty")"
		grep -q 'base number of files is 33' "$d/tty" || fail "pty: session not kept"
	else
		echo "note: no pseudo-terminal here; prompt not checked"
	fi
fi
echo "ok"
