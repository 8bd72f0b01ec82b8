# compare for machines and for many runs: --format json parsed by jq (every line: figure,
# both sides, delta, CI, p, verdict, refusal), --format csv, --baseline, a column per
# run for three runs or more, --group-by label (the stored runs of a label are one side,
# their rows repeats), and bad input (exit 2 with the reason).
. tests/cli/lib
D=tests/data
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
command -v jq > /dev/null 2>&1 || skip "jq is not installed"

# ---- JSON ----------------------------------------------------------------------------
"$IOB" compare --format json $D/cmp-a.json $D/cmp-b.json $D/cmp-c.json > "$T/c.json" ||
	fail "compare --format json"
jq -e . "$T/c.json" > /dev/null || fail "not JSON"
q() { jq -r "$1" "$T/c.json"; }
[ "$(q '.schema_version')" = 1 ] || fail "schema_version"
[ "$(q '.runs | map(.name) | join(",")')" = "A,B,C" ] || fail "runs: $(q '.runs')"
[ "$(q '.comparisons | length')" = 2 ] || fail "two comparisons expected"
w='.comparisons[0].lines[] | select(.figure == "dd write bs=64K")'
[ "$(q "$w | .verdict")" = b_better ] || fail "write verdict: $(q "$w")"
[ "$(q "$w | .significant")" = true ] || fail "write not significant"
[ "$(q "$w | .delta_pct | round")" = 30 ] || fail "delta: $(q "$w | .delta_pct")"
[ "$(q "$w | .ci_low_pct * 10 | round")" = 249 ] || fail "CI low: $(q "$w | .ci_low_pct")"
[ "$(q "$w | .ci_high_pct * 10 | round")" = 354 ] || fail "CI high"
[ "$(q "$w | .p < 0.05")" = true ] || fail "p: $(q "$w | .p")"
[ "$(q "$w | .a.mean")" = 100 ] && [ "$(q "$w | .b.n")" = 3 ] || fail "sides: $(q "$w")"
[ "$(q "$w | .unit")" = "MB/s" ] || fail "unit"
r='.comparisons[0].lines[] | select(.figure == "dd read bs=64K")'
[ "$(q "$r | .verdict")" = refused ] || fail "read verdict"
q "$r | .refusal" | grep -q '^cache-inflated vs not' || fail "read refusal: $(q "$r")"
[ "$(q "$r | .delta_pct")" = null ] || fail "a refused line has a delta"
[ "$(q '.comparisons[1].b')" = C ] || fail "the second comparison is not C against A"
q '.comparisons[1].lines[].refusal' | grep -q "different block sizes" || fail "C refusal"

# ---- CSV -------------------------------------------------------------------------------
expect_exit 0 "$IOB" compare --format csv $D/cmp-a.json $D/cmp-b.json
head -n 1 "$T/out" | grep -q '^a,b,figure,workload,phase,detail,unit,higher_is_better,a_n,a_mean,a_sd,b_n,b_mean,b_sd,delta_pct,ci_low_pct,ci_high_pct,p,significant,verdict,refusal$' ||
	fail "CSV header"
[ "$(wc -l < "$T/out")" -eq 3 ] || fail "CSV: a header and two lines expected"
grep -q '^A,B,dd write bs=64K,dd,write,bs=64K,MB/s,true,3,100,2,3,130,2,30,24\.8' "$T/out" ||
	fail "CSV write line"
grep -q ',refused,cache-inflated vs not' "$T/out" || fail "CSV refusal"

# ---- --baseline, a column per run --------------------------------------------------------
"$IOB" compare $D/cmp-a.json $D/cmp-b.json > "$T/plain" || fail "compare"
"$IOB" compare --baseline $D/cmp-a.json $D/cmp-b.json > "$T/base" || fail "--baseline"
cmp -s "$T/plain" "$T/base" || fail "--baseline A B differs from A B"
expect_exit 0 "$IOB" compare --baseline $D/cmp-a.json $D/cmp-b.json $D/cmp-d.json \
	$D/cmp-e.json
expect_out "side by side"
grep -Eq '^  figure +A +B +C +D$' "$T/out" || fail "no column per run"
grep -Eq '^  dd write bs=64K +100 MB/s +130 MB/s \(\+30\.0%\*\) +80\.0 MB/s \(-20\.0%\*\)' \
	"$T/out" || fail "side-by-side row"
expect_exit 0 "$IOB" compare $D/cmp-a.json $D/cmp-b.json
grep -q "side by side" "$T/out" && fail "a side-by-side table for two runs"
# --fail-if-slower works with the machine formats: JSON still written, exit 1
"$IOB" compare --format json --fail-if-slower 10 $D/cmp-a.json $D/cmp-d.json > "$T/r.json" \
	2> "$T/err"
[ $? -eq 1 ] || fail "--fail-if-slower with JSON: exit 1 expected"
[ "$(jq -r .regressions "$T/r.json")" = 1 ] || fail "regressions in JSON"

# ---- --group-by label: repeats spread over stored runs ------------------------------------
expect_exit 0 "$IOB" import --label slow $D/cmp-a.json $D/cmp-e.json
expect_exit 0 "$IOB" import --label fast $D/cmp-b.json
"$IOB" compare --group-by label --format json slow fast > "$T/g.json" || fail "--group-by"
[ "$(jq -r '.runs[0].run_ids | join(",")' "$T/g.json")" = "test-a,test-e" ] ||
	fail "the slow side: $(jq -c '.runs[0]' "$T/g.json")"
l='.comparisons[0].lines[] | select(.figure == "dd write bs=64K")'
[ "$(jq -r "$l | .a.n" "$T/g.json")" = 6 ] || fail "six repeats on the slow side"
[ "$(jq -r "$l | .b.n" "$T/g.json")" = 3 ] || fail "three on the fast side"
expect_exit 0 "$IOB" compare --group-by label slow fast
expect_out "2 runs taken as repeats: test-a test-e"
# without --group-by a label is its latest run
"$IOB" compare --format json slow fast > "$T/l.json" || fail "labels"
[ "$(jq -r "$l | .a.n" "$T/l.json")" = 3 ] || fail "a label without --group-by"

# ---- bad input ----------------------------------------------------------------------------
expect_exit 2 "$IOB" compare --format xml $D/cmp-a.json $D/cmp-b.json
expect_out "bad --format: 'xml': text, json or csv"
[ "$(wc -l < "$T/out")" -eq 1 ] || fail "output beside the message"
expect_exit 2 "$IOB" compare --group-by host $D/cmp-a.json $D/cmp-b.json
expect_out "bad --group-by: 'host'"
expect_exit 2 "$IOB" compare --group-by label --no-store slow fast
expect_exit 2 "$IOB" compare --baseline $D/cmp-a.json
expect_out "need at least two runs"
expect_exit 2 "$IOB" compare --group-by label slow slow
expect_out "need 2 to 26"
expect_exit 2 "$IOB" compare --baseline "$T/nope.json" $D/cmp-a.json
expect_out "cannot load: '$T/nope.json'"
exit 0
