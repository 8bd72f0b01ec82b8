# The battery's sustained write is planned only when the budget leaves it a minute after
# every other step. battery --dry-run (a probe, nothing measured): with one minute the
# plan says it is skipped for the budget (or for the space, where the probe's write rate
# asks a minute's file larger than the free space); with three hours it is planned (up to ten
# minutes, stopping at the knee), unless the free space cannot hold a minute of writing
# at the probe's rate, which the plan then says in its place. --steps sustained names it;
# an unknown step lists it among the steps there are.
. tests/cli/lib
mkdir "$T/w" || fail "mkdir"
have_feature o_direct || skip "no O_DIRECT in this build: the step needs it"

expect_exit 0 "$IOB" battery -d "$T/w" --budget 1m --dry-run --no-store
# the budget's words, or the space's where a fast probe asks for more than is free
want='^  sustained write .*skipped: needs (1:0[0-9] at the smallest honest size, '
want="$want.* of the budget left; give a larger --budget|.* \\(60 s\\), .* free.*)\$"
grep -Eq "$want" "$T/out" || { sed 's/^/  | /' "$T/out" >&2
	fail "a minute's battery does not say why the sustained write is left out"; }
grep '^  sustained write ' "$T/out"

expect_exit 0 "$IOB" battery -d "$T/w" --budget 3h --dry-run --no-store
line=$(grep '^  sustained write ' "$T/out")
[ -n "$line" ] || { sed 's/^/  | /' "$T/out" >&2; fail "no sustained write in the plan"; }
case $line in
*"--size "*" --time "*" (stops at the knee)"*"writes for up to "*" s, stopping once the "*)
	echo "planned: $line" ;;
*"skipped: needs "*" (60 s), "*" free"*)
	echo "no room here for a minute of writing: $line" ;;
*)
	sed 's/^/  | /' "$T/out" >&2
	fail "three hours do not plan the sustained write nor say why not" ;;
esac
grep -q '^expected .* in all' "$T/out" || fail "no total in the plan"

expect_exit 0 "$IOB" battery -d "$T/w" --budget 3h --dry-run --no-store --steps sustained
grep -q '^  dd write bs=1M .*skipped: not in --steps' "$T/out" || fail "--steps sustained"
expect_exit 2 "$IOB" battery -d "$T/w" --budget 1m --dry-run --steps nosuch
expect_out "fsync, job or sustained"
no_scratch "$T/w"
exit 0
