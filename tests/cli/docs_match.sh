# --help, the man page and the README agree with the code: every command the binary lists
# has a section in the man page and a line in the README, and every long option a
# command's --help prints is in the man page.
. tests/cli/lib
man=docs/iobattery.1
[ -f "$man" ] || fail "man page missing"
cmds=$("$IOB" --help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
[ -n "$cmds" ] || fail "no commands in --help"
for c in $cmds; do
	grep -q "^\.B $c\$" "$man" || fail "man page has no section for command '$c'"
	grep -q "iobattery $c" README.md || fail "README does not show 'iobattery $c'"
	"$IOB" "$c" --help > "$T/help" 2>&1 || fail "'$c --help' failed"
	for o in $(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u); do
		[ "$o" = "--help" ] && continue
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$man" || fail "man page lacks option $o of '$c'"
	done
done
man -l "$man" > /dev/null 2>&1 || command -v man > /dev/null || true
exit 0
