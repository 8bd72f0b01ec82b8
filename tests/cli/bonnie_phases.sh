# iobattery bonnie at small sizes: all twelve phases with each per-character method, the
# table, the Bonnie++ 2.00a CSV line (read back by bon_csv2txt when installed), -q, -f,
# link and symlink file tests, and nothing left behind.
. tests/cli/lib
mkdir "$T/d" || exit 1

# Default method: one system call per byte. 1 MiB per-char keeps it quick.
expect_exit 0 "$IOB" bonnie -d "$T/d" -s 16 -r 8 -n 1 -f1 -u root -m testbox --quiet
for p in putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del \
	 ran_create ran_stat ran_del; do
	grep -q "^$p " "$T/out" || fail "phase $p missing from the table"
done
expect_out "Name:Size etc        /sec %CP"
expect_out "testbox             -Create-- --Read--- -Delete--"
grep -q '^1\.98,2\.00a,testbox,1,[0-9]*,16M,,8192,5,[0-9]' "$T/out" || fail "no CSV line"
[ -z "$(ls "$T/d")" ] || fail "files left behind: $(ls "$T/d")"

# -q: the CSV line alone on stdout, the table on stderr; the line has 50 fields.
"$IOB" bonnie -d "$T/d" -s 16 -r 8 -n 1 -f1 -q -z 7 -m testbox > "$T/csv" 2> "$T/err" ||
	fail "bonnie -q failed: $(cat "$T/err")"
[ "$(wc -l < "$T/csv")" -eq 1 ] || fail "-q wrote more than the CSV line: $(cat "$T/csv")"
[ "$(awk -F, '{print NF}' "$T/csv")" -eq 50 ] || fail "CSV line has not 50 fields"
grep -q '^1\.98,2\.00a,testbox,1,7,16M,' "$T/csv" || fail "seed or size wrong: $(cat "$T/csv")"
grep -q "Latency" "$T/err" || fail "table not on stderr"
grep -q '+++' "$T/csv" && fail "a +++++ placeholder in our CSV line"
if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt < "$T/csv" > "$T/txt" 2>&1 || fail "bon_csv2txt failed"
	grep -q "Expected" "$T/txt" && fail "bon_csv2txt refused our line: $(cat "$T/txt")"
	grep -q '^testbox ' "$T/txt" || fail "bon_csv2txt shows no figures: $(cat "$T/txt")"
	grep -q '^Latency' "$T/txt" || fail "bon_csv2txt shows no latencies"
fi

# putc method (stdio, as Bonnie++ 1.03): the rows name the method; JSON carries it.
expect_exit 0 "$IOB" bonnie -d "$T/d" -s 16 -r 8 -n 0 -f1 --char-method putc \
	--format json --quiet
grep -q '"char_method": *"putc"' "$T/out" || fail "putc method not recorded"
grep -q '"phase": *"getc"' "$T/out" || fail "no getc row"
grep -q '"p99_ns"' "$T/out" || fail "no latency percentiles in JSON"

# -f: no per-char tests; -s 0: file tests only, with links and symlinks.
expect_exit 0 "$IOB" bonnie -d "$T/d" -s 16 -r 8 -n 0 -f -q
grep -q '^1\.98,2\.00a,[^,]*,1,[0-9]*,16M,,8192,5,,,[0-9]' "$T/out" ||
	fail "-f still ran the per-char tests"
expect_exit 0 "$IOB" bonnie -d "$T/d" -s 0 -n 1:-1 -q
expect_out ",,1,link,,,,"
expect_exit 0 "$IOB" bonnie -d "$T/d" -s 0 -n 1:-2:0:2 -q
expect_out ",,1,symlink,,,2,"
expect_exit 0 "$IOB" bonnie -d "$T/d" -s 0 -n 1:4096:1024:3 -b -q
expect_out ",,1,4096,1024,,3,"
[ -z "$(ls "$T/d")" ] || fail "files left behind: $(ls "$T/d")"
exit 0
