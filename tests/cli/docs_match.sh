# --help, the man page and the README agree with the code: every command the binary lists
# has a section in the man page and a line in the README, and every long option a
# command's --help prints is in the man page. The man page's SYNOPSIS has a line for every
# command and every form its --help's usage shows (results list, results show ...), each
# on a line of its own (a .br between them).
. tests/cli/lib
man=docs/iobattery.1
[ -f "$man" ] || fail "man page missing"
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man" > "$T/synopsis"
# two .B lines of the synopsis with no .br between them run together
awk '/^\.B iobattery/ { if (seen && !br) { print "merged before: " $0; bad = 1 }
	seen = 1; br = 0; next } /^\.br/ { br = 1 } END { exit bad }' "$T/synopsis" ||
	fail "SYNOPSIS lines run together"
cmds=$("$IOB" --help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
[ -n "$cmds" ] || fail "no commands in --help"
for c in $cmds; do
	grep -q "^\.B $c\$" "$man" || fail "man page has no section for command '$c'"
	grep -q "iobattery $c" README.md || fail "README does not show 'iobattery $c'"
	grep -q "^\.B iobattery $c\( \|\$\)" "$T/synopsis" ||
		fail "SYNOPSIS has no line for command '$c'"
	# the forms of a command with verbs: "usage: iobattery results show ID"
	"$IOB" "$c" --help 2>&1 | sed -n 's/^\(usage:\)\{0,1\} *iobattery '"$c"' \([a-z][a-z]*\)\( .*\)\{0,1\}$/\2/p' |
		sort -u > "$T/verbs"
	while read -r v; do
		grep -q "^\.B iobattery $c $v\( \|\$\)" "$T/synopsis" ||
			fail "SYNOPSIS has no line for 'iobattery $c $v'"
	done < "$T/verbs"
	"$IOB" "$c" --help > "$T/help" 2>&1 || fail "'$c --help' failed"
	for o in $(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u); do
		[ "$o" = "--help" ] && continue
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$man" || fail "man page lacks option $o of '$c'"
	done
done
# job: every engine name ioengine= takes (the refusal of an unknown one lists them, the
# aliases and fio's file engines too) is in job --help and in the man page
engines=$("$IOB" job --parse-only --name=x --size=1m --ioengine=no-such-engine 2>&1 |
	sed -n 's/.*unknown engine (\(.*\))$/\1/p' | tr -d ',')
[ -n "$engines" ] || fail "job: the unknown-engine refusal lists no engines"
"$IOB" job --help > "$T/jobhelp" 2>&1
for e in $engines; do
	grep -qw -- "$e" "$T/jobhelp" || fail "job --help does not name the engine $e"
	grep -qw -- "$e" "$man" || fail "the man page does not name the engine $e"
done
man -l "$man" > /dev/null 2>&1 || command -v man > /dev/null || true
exit 0
