# compare marks a side whose figure is the page cache's or too short ([cache], [short])
# and says what that means, also where both sides are alike and a verdict is given: two
# page-cache dd reads compared must not read as a verdict on the disk.
. tests/cli/lib
command -v jq > /dev/null || skip "jq is not installed"
for s in a b; do
	jq '(.rows[] | select(.phase == "read") | .flags) |= (. + ["cache_inflated"] | unique)
	    | (.rows[] | select(.phase == "write") | .flags) |= (. + ["short"] | unique)' \
		"tests/data/cmp-$s.json" > "$T/$s.json" || fail "jq"
done
expect_exit 0 "$IOB" compare "$T/a.json" "$T/b.json"
grep 'dd read' "$T/out" | grep -q '\[cache\].*\[cache\]' ||
	{ cat "$T/out"; fail "the cache sides of dd read are not marked"; }
grep 'dd write' "$T/out" | grep -q '\[short\].*\[short\]' ||
	{ cat "$T/out"; fail "the short sides of dd write are not marked"; }
expect_out "[cache]: read largely from the page cache, not the device"
# an unflagged comparison has no marks and no legend
expect_exit 0 "$IOB" compare tests/data/cmp-a.json tests/data/cmp-a.json
grep -q '\[cache\]\|\[short\]' "$T/out" && fail "marks without a flag"
exit 0
