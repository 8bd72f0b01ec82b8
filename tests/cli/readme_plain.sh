# A newcomer's words: "the seeds" (the project's name for the 2005 mailing-list posts)
# appears in neither the README nor --help, battery --help or db --help; the README is
# short (a five-minute read), says how long its two commands take and what they install
# and write, points into docs/, and has no sentence of more than 60 words.
. tests/cli/lib
for c in "" battery db run; do
	"$IOB" $c --help > "$T/help" 2>&1 || fail "'$c --help' failed"
	grep -n -i "seeds\b\|the seed's\|seed [0-9]" "$T/help" &&
		fail "'iobattery $c --help' speaks of the seeds"
done
grep -n -i "seeds\b\|the seed's" README.md && fail "the README speaks of the seeds"
words=$(wc -w < README.md)
[ "$words" -le 1200 ] || fail "the README has $words words: not a five-minute read"
for w in "make run" "make check" "minutes" "scratch" "results store" "chromium" \
	"mpich" "lintian" "docs/guide.md"; do
	grep -q "$w" README.md || fail "the README does not say: $w"
done
[ -f docs/guide.md ] || fail "docs/guide.md missing"
# sentences: prose outside tables and code, joined per paragraph, split at '. '
awk '/^    / || /^\|/ || /^#/ { print ""; next } /^- / { print "" } { print }' README.md docs/guide.md |
	awk 'BEGIN { RS = "" } { gsub(/\n/, " "); n = split($0, s, /[.?!:;] /)
		for (i = 1; i <= n; i++) if (split(s[i], w, " ") > 60) print "LONG: " s[i] }' \
	> "$T/long"
[ -s "$T/long" ] && { cat "$T/long" >&2; fail "sentences of more than 60 words"; }
exit 0
