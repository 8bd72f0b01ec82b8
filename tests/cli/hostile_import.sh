# Import of hostile and unusual legacy output: real bonnie++ -s 0 lines (the file tests
# only) import with the byte-I/O figures absent; negative, infinite or absurd numbers are
# refused with the line number; a Latin-1 label keeps its bytes; a failed save prints no
# "imported:" line and exits 1. Nothing is written outside -o DIR.
. tests/cli/lib
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir in dst g
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made

# numbers no tool prints: skipped with their line, nothing imported, nothing written
printf '%s\n' '1048576 bytes transferred in -1.5 secs (699050 bytes/sec)' > in/neg.txt
printf '%s\n' '1e999 bytes (1.0 GB) copied, 1.5 s, 700 MB/s' > in/inf.txt
printf '%s\n' '1.03,vm,512M,1e999,99,46531,9,19843,4,26473,61,46131,5,221.3,0,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++' > in/bonnie-inf.csv
printf '%s\n' '1.03,vm,999999999999T,80011,99,46531,9,19843,4,26473,61,46131,5,221.3,0,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++' > in/bonnie-wrap.csv
tree_snap in "$T/in"
for f in neg.txt inf.txt bonnie-inf.csv bonnie-wrap.csv; do
	expect_exit 2 "$IOB" import --verbose --no-store -o "$T/dst" "in/$f"
	expect_out "skipped line 1: 'in/$f'"
	expect_out "nothing to import"
done
[ -z "$(ls dst)" ] || fail "refused lines left files: $(ls dst)"

# a Latin-1 label (and mail): kept, as the characters of its Latin-1 reading
cp "$OLDPWD/tests/data/dd-time-bsd.txt" g/dd.txt
expect_exit 0 "$IOB" import --verbose --no-store -o "$T/dst" --label "$(printf 'caf\351')" g/dd.txt
grep -q '"label": "café"' dst/*.json || fail "the Latin-1 label was lost"
rm -f dst/*

# a save that fails (a trigger refuses new runs): the message, exit 1, no "imported:"
expect_exit 0 "$IOB" import --verbose --no-files g/dd.txt
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$IOBATTERY_DB" "CREATE TRIGGER no_runs BEFORE INSERT ON runs BEGIN
		SELECT RAISE(ABORT, 'refused by the test'); END;" || fail "sqlite3 failed"
	printf '%s\n' '1048576 bytes transferred in 1.5 secs (699050 bytes/sec)' > g/dd2.txt
	expect_exit 1 "$IOB" import --verbose --no-files g/dd2.txt
	expect_out "cannot save in the store"
	grep -q '^imported:' "$T/out" && fail "'imported:' printed after a failed save"
fi

# real bonnie++ -s 0 lines: the size and byte-I/O fields empty, the file fields present
if command -v bonnie++ >/dev/null 2>&1; then
	mkdir bz
	if is_root; then u="-u root"; else u=""; fi
	# shellcheck disable=SC2086
	timeout 120 bonnie++ -s 0 -n 1 -d "$T/bz" $u -q > g/s0.csv 2>/dev/null ||
		fail "bonnie++ -s 0 -n 1 failed"
	grep -q '^1\.9[0-9]*,[^,]*,[^,]*,[^,]*,[^,]*,,' g/s0.csv ||
		fail "bonnie++ -s 0 printed no empty size field: $(cat g/s0.csv)"
	expect_exit 0 "$IOB" import --verbose --no-store -o "$T/dst" g/s0.csv
	expect_out "imported: bonnie++"
	grep -q '"phase": "seq_create"' dst/*.json || fail "the file figures are missing"
	grep -q '"phase": "put_block"' dst/*.json && fail "byte-I/O figures from an -s 0 line"
	grep -q '"seq_create"' dst/*.json && grep -q 'latency_max' dst/*.json ||
		fail "the file tests' latencies are missing"
	rm -rf bz
fi
tree_same in "$T/in"
exit 0
