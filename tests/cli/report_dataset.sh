# The report names a workload's data set only when its rows share one: the battery's dd
# rows (195 MiB at bs=1k, 1.31 GiB at bs=1M in this fixture) get no "(data set 195 MiB)"
# heading that 3 of 4 rows contradict.
. tests/cli/lib
"$IOB" report --no-store -o "$T/r.html" tests/data/battery-2fs.json > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "report failed"; }
grep -q 'dd <span class="imp">(data set' "$T/r.html" &&
	fail "the dd heading names one data set for rows of different sizes"
grep -q 'bonnie\|postmark\|cp' "$T/r.html" || fail "the report lacks the other workloads"
exit 0
