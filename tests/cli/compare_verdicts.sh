# compare: fixed result files with known verdicts, each refusal, --fail-if-slower, and
# bad input (exit 2, nothing written).
. tests/cli/lib
D=tests/data
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB

# B is 30% faster on writes (3 repeats each side: significant), its read came from cache
expect_exit 0 "$IOB" compare $D/cmp-a.json $D/cmp-b.json
expect_out "+30.0% [+24.9%, +35.4%]"
expect_out "B better, significant"
expect_out "refused: cache-inflated vs not: B read largely from the page cache"
expect_out "summary: B is better in 1 of 1 figures, significantly in 1"

# different block sizes, buffered vs O_DIRECT
expect_exit 0 "$IOB" compare $D/cmp-a.json $D/cmp-c.json
expect_out "refused: different block sizes: bs '65536' vs '1048576'"
expect_out "refused: buffered vs O_DIRECT: direct 'false' vs 'true'"

# a 20% regression: --fail-if-slower 10 fails, 25 passes; noise is not significant
expect_exit 1 "$IOB" compare --fail-if-slower 10 $D/cmp-a.json $D/cmp-d.json
expect_out "-20.0%"
expect_out "1 figure worse than A by more than 10%"
expect_exit 0 "$IOB" compare --fail-if-slower 25 $D/cmp-a.json $D/cmp-d.json
expect_exit 0 "$IOB" compare --fail-if-slower 10 $D/cmp-a.json $D/cmp-e.json
expect_out "not significant"
expect_out "CV 39.9%, inconsistent"

# several runs at once: each against A
expect_exit 0 "$IOB" compare $D/cmp-a.json $D/cmp-b.json $D/cmp-d.json
expect_out "C against A"

# per-character method: Bonnie++ 1.03 (putc) vs 1.93c (a syscall per byte), same size
expect_exit 0 "$IOB" import --no-store -o "$T" $D/bonnie-103.csv $D/bonnie-193c-mail.txt
a=$(ls "$T"/iobattery-import-*.json | head -1)
set -- "$T"/iobattery-import-*.json
[ $# -eq 5 ] || fail "expected 5 imported files, got $#"
expect_exit 0 "$IOB" compare "$T/iobattery-import-imp-b44be2361e541dc7.json" \
	"$T/iobattery-import-imp-da3025b0e5025916.json"
expect_out "refused: measured differently: per-character method: char_method 'putc' vs 'syscall'"
expect_out "bonnie put_block"

# bad input: exit 2
expect_exit 2 "$IOB" compare $D/cmp-a.json
expect_out "need at least two runs"
expect_exit 2 "$IOB" compare
expect_exit 2 "$IOB" compare $D/cmp-a.json "$T/nope.json"
expect_out "cannot load: '$T/nope.json'"
head -c 300 $D/cmp-a.json > "$T/trunc.json"
expect_exit 2 "$IOB" compare $D/cmp-a.json "$T/trunc.json"
expect_out "cannot load: '$T/trunc.json'"
echo '{"hello": "world"}' > "$T/other.json"
expect_exit 2 "$IOB" compare $D/cmp-a.json "$T/other.json"
expect_exit 2 "$IOB" compare --no-such-option $D/cmp-a.json $D/cmp-b.json
[ -e "$IOBATTERY_DB" ] && fail "compare created a store"
exit 0
