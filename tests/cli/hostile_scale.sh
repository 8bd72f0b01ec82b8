# Many figures: compare and report match 5,000 figures per run by sorted keys (O(n log n);
# they used to compare every pair). Asserts what is matched, never how long it took:
# 4,999 figures of A find their own in B (same params), the one with changed params is
# matched by its phase alone (and refused), and the report has a column per figure.
. tests/cli/lib
cd "$T" || exit 1
gen() { # ID SCALE N: a result of N dd figures, bs=4096+i, the last with other params
	awk -v id="$1" -v s="$2" -v n="$3" 'BEGIN {
		printf "{\"schema_version\": 1, \"tool\": \"iobattery\", \"id\": \"%s\",", id
		printf " \"workload\": \"dd\", \"env\": {\"host\": \"h\"}, \"rows\": ["
		for (i = 0; i < n; i++) {
			ph = i == n - 1 ? "odd" : "write"
			bs = i == n - 1 ? (id == "a" ? 1 : 2) : 4096 + i
			printf "%s{\"workload\": \"dd\", \"phase\": \"%s\", \"params\": " \
				"{\"bs\": \"%d\", \"detail\": \"bs=%d\"}, \"bytes\": 1048576, " \
				"\"elapsed_ns\": 1000000, \"rate\": %.1f, \"rate_unit\": \"MB/s\"}",
				i ? ", " : "", ph, bs, bs, 100 * s
		}
		printf "]}\n"
	}'
}
gen a 1 5000 > a.json
gen b 1.1 5000 > b.json
expect_exit 0 "$IOB" compare --no-store a.json b.json
expect_out "B is better in 4999 of 4999 figures"
expect_out "1 refused, 0 unmatched"
expect_out "dd odd bs=1"
expect_exit 0 "$IOB" report --no-store -o "$T/r.html" a.json b.json
n=$(grep -o '<th colspan="2">dd [a-z]* bs=[0-9]*</th>' r.html | sort -u | wc -l)
[ "$n" -eq 5001 ] || fail "the report has $n columns, not 5001 (4999 figures, the odd one twice)"
exit 0
