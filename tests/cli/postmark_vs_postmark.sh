#!/bin/sh
# postmark_vs_postmark.sh - for the same seed and settings, the operation counts and the
# megabytes read and written equal PostMark 1.51's (Debian's postmark package).
set -u
command -v postmark > /dev/null 2>&1 || { echo "postmark is not installed"; exit 77; }
d=$(mktemp -d "$TESTS_TMP/iob-postmark_vs.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$d/a" "$d/b"

# What both print alike: the counts and the megabytes, without times and rates.
counts() {
	grep -E '^	.*(created|read|appended|deleted|alone|Mixed|written)' "$1" |
		sed 's/ *(.*//'
}
i=0
while read -r settings; do
	i=$((i + 1))
	printf '%s\n' $settings | sed 's/_/ /g' > "$d/s$i"
	{ cat "$d/s$i"; echo "set location $d/a"; echo run; echo quit; } |
		postmark > "$d/pm$i" 2>&1
	{ cat "$d/s$i"; echo "set location $d/b"; echo run; echo quit; } |
		"$IOB" postmark > "$d/iob$i" 2>&1 || fail "iobattery failed on $settings"
	counts "$d/pm$i" > "$d/cp$i"
	counts "$d/iob$i" > "$d/ci$i"
	[ -s "$d/cp$i" ] || fail "postmark printed no counts for: $settings"
	cmp -s "$d/cp$i" "$d/ci$i" ||
		fail "counts differ for: $settings
$(diff "$d/cp$i" "$d/ci$i")"
done <<'EOL'
set_number_300
set_seed_7 set_number_250 set_transactions_1500 set_size_100_5000
set_subdirectories_4 set_bias_read_2 set_bias_create_8 set_transactions_1000
set_size_1000 set_read_4096 set_write_4096 set_number_50 set_transactions_2000
set_buffering_false set_bias_read_9 set_bias_create_6 set_seed_99 set_size_10_300
EOL
# Two weighted locations and subdirectories: the location draw comes first.
mkdir "$d/a2" "$d/b2"
printf 'set location %s\nset location +%s 2\nset subdirectories 3\nset transactions 2000\nrun\nquit\n' \
	"$d/a" "$d/a2" | postmark > "$d/pmL" 2>&1
printf 'set location %s\nset location +%s 2\nset subdirectories 3\nset transactions 2000\nrun\nquit\n' \
	"$d/b" "$d/b2" | "$IOB" postmark > "$d/iobL" 2>&1 || fail "iobattery failed on two locations"
counts "$d/pmL" > "$d/cpL"; counts "$d/iobL" > "$d/ciL"
cmp -s "$d/cpL" "$d/ciL" || fail "counts differ with two locations: $(diff "$d/cpL" "$d/ciL")"
i=$((i + 1))
[ -z "$(ls -A "$d/b")$(ls -A "$d/b2")" ] || fail "files left behind"
echo "ok: $i settings give postmark's counts"
