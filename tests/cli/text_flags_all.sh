# PostMark's and db's text show every flag their JSON carries (short included), by its
# JSON name: a small PostMark run and a small db run, whose phases are all short.
. tests/cli/lib
cd "$T" || fail "cd"
mkdir pm db o1 o2 || fail "mkdir"
printf 'set location %s\nset number 40\nset transactions 40\nrun\nquit\n' "$T/pm" > pm.script
expect_exit 0 "$IOB" postmark --no-store --format text,json --output-dir o1 pm.script
cp "$T/out" pm.txt
expect_exit 0 "$IOB" db --no-store --rows 200 --format text,json --output-dir o2 "$T/db"
cp "$T/out" db.txt
# every flag in a row of the JSON appears in the text as often as rows carry it
check() {	# JSON TEXT WHAT
	tr -d ' \n' < "$1" | grep -o '"flags":\[[^]]*\]' | grep -o '"[a-z_]*"' |
		grep -v '"flags"' | tr -d '"' | sort | uniq -c > "$T/want"
	[ -s "$T/want" ] || fail "$3: no flag in the JSON (the test needs a short phase)"
	while read -r n fl; do
		got=$(grep 'flags: ' "$2" | grep -o "\b$fl\b" | wc -l)
		[ "$got" -ge "$n" ] || fail "$3: flag $fl on $n rows in the JSON, $got in the text"
	done < "$T/want"
}
check o1/iobattery-results.json pm.txt postmark
check o2/iobattery-results.json db.txt db
exit 0
