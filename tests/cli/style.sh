#!/bin/sh
# The tree's C style (Linux kernel style, as DESIGN.md section 6 states): tabs for
# indentation, no trailing white space, lines of at most 100 columns (a tab is 8), no
# space before a tab in the indentation. clang-format cannot express the tab-aligned
# trailing comments the code uses, so this check replaces a .clang-format file.
# Files over 800 lines are listed as a warning (the rule says "about").
set -u
cd "$(dirname "$0")/../.." || exit 1
bad=0
files=$(ls src/*.c src/*/*.[ch] src/*/*/*.[ch] tests/unit/*.[ch] tests/engine/*.[ch] \
	tests/fuzz/*.[ch] 2>/dev/null)
for f in $files; do
	out=$(awk -v f="$f" '
	{
		line = $0
		if (line ~ /[ \t]+$/) { printf "%s:%d: trailing white space\n", f, NR }
		if (line ~ /^\t* +\t/) { printf "%s:%d: space before tab\n", f, NR }
		if (line ~ /^        / && line !~ /^ +\*/) { printf "%s:%d: indented with spaces\n", f, NR }
		col = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "\t") col = int(col / 8) * 8 + 8; else col++
		}
		if (col > 100) { printf "%s:%d: %d columns (at most 100)\n", f, NR, col }
	}
	END { if (NR > 800) printf "warning: %s: %d lines (about 800 at most)\n", f, NR > "/dev/stderr" }
	' "$f")
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		bad=1
	fi
done
# the checker itself must be able to fail
t=${TESTS_TMP:-/tmp}/style.$$.c
printf 'int x; \n' > "$t"
if [ -z "$(awk '/[ \t]+$/' "$t")" ]; then
	echo "the trailing white space check misses a planted case"
	bad=1
fi
rm -f "$t"
[ "$bad" = 0 ] && echo "style: ok"
exit "$bad"
