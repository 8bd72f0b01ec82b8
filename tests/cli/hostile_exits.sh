# Exit status and message from every output path and odd input: results that cannot be
# written (--format json > /dev/full) exit 1 for dd, cp and run; a postmark script that
# is a directory, a NUL byte in a db or postmark script (with its line); compare's gate
# on runs with nothing in common and its bad limits; dd of=DIR; a store that refuses a
# delete exits 1. Nothing is written outside the directories given.
. tests/cli/lib
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir w in
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made
a=$OLDPWD/tests/data/cmp-a.json
tree_snap root "$OLDPWD/tests/data"

# results to a full device: exit 1 and the reason, for every measuring command
"$IOB" dd --no-store if=/dev/zero of=w/f bs=4k count=4 --format json > /dev/full 2> err
rc=$?; [ $rc -eq 1 ] || fail "dd --format json > /dev/full exited $rc"
grep -q "No space left on device" err || fail "dd: no reason: $(cat err)"
"$IOB" cp --no-store w/f w/g --format json > /dev/full 2> err
rc=$?; [ $rc -eq 1 ] || fail "cp --format json > /dev/full exited $rc"
"$IOB" run --no-store --size 1m --dir w -q --format json > /dev/full 2> err
rc=$?; [ $rc -eq 1 ] || fail "run --format json > /dev/full exited $rc"
grep -q "cannot write results" err || fail "run: no reason: $(cat err)"
no_scratch w

# dd of=DIR: a directory, not a device
expect_exit 2 "$IOB" dd --no-store if=/dev/zero of=w bs=4k count=1
expect_out "dd: output is a directory: 'w'"
# cp F F
expect_exit 2 "$IOB" cp --no-store w/f w/f
expect_out "source and destination are the same file"
grep -q -- "--overwrite" "$T/out" && fail "cp F F advises --overwrite"

# scripts: a directory is refused, a NUL byte is refused with its line number
mkdir in/dir.pm
expect_exit 2 "$IOB" postmark --no-store in/dir.pm
expect_out "cannot open script: 'in/dir.pm': Is a directory"
printf 'set number 10\nset transactions 10\nset loc\000ation w\nrun\n' > in/nul.pm
expect_exit 2 "$IOB" postmark --no-store in/nul.pm
expect_out "postmark: in/nul.pm:3: a NUL byte in the line"
printf 'CREATE TABLE a (x int);\nINSERT INTO a VALUES (1);\000\nDROP TABLE a;\n' > in/nul.sql
expect_exit 2 "$IOB" db --no-store --rows 10 --script in/nul.sql w
expect_out "bad script: 'in/nul.sql': a NUL byte at line 2"
no_scratch w

# compare: bad gates are refused; a gate over runs with nothing in common fails
expect_exit 2 "$IOB" compare --no-store --fail-if-slower nan "$a" "$a"
expect_out "bad value for --fail-if-slower"
expect_exit 2 "$IOB" compare --no-store --fail-if-slower -5 "$a" "$a"
expect_out "bad value for --fail-if-slower"
"$IOB" dd if=/dev/zero of=w/f2 bs=4k count=4 --no-store --format json > in/other.json 2>/dev/null
sed 's/"workload": "dd"/"workload": "cp"/g; s/"phase": "write"/"phase": "copy"/' in/other.json \
	> in/unrelated.json
expect_exit 0 "$IOB" compare --no-store "$a" in/unrelated.json
expect_exit 1 "$IOB" compare --no-store --fail-if-slower 5 "$a" in/unrelated.json
expect_out "nothing compared"

# a delete the store refuses: exit 1 (a failure), not 2 (usage)
expect_exit 0 "$IOB" import --no-files "$a"
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$IOBATTERY_DB" "CREATE TRIGGER keep BEFORE DELETE ON runs BEGIN
		SELECT RAISE(ABORT, 'refused by the test'); END;" || fail "sqlite3 failed"
	expect_exit 1 "$IOB" results delete 1
	expect_out "cannot delete run 1"
fi
expect_exit 2 "$IOB" results delete 99
# report on a full file system: ENOSPC named, no temporary file left (root: a tmpfs)
if is_root && mkdir mnt && mount -t tmpfs -o size=64k tmpfs "$T/mnt" 2>/dev/null; then
	cleanup_hooks="umount '$T/mnt' 2>/dev/null;"
	head -c 60k /dev/zero > mnt/fill 2>/dev/null
	expect_exit 1 "$IOB" report --no-store -o "$T/mnt/r.html" "$a" "$a"
	expect_out "cannot write: '$T/mnt/r.html': No space left on device"
	[ "$(ls mnt)" = fill ] || fail "the report left files: $(ls mnt)"
	umount "$T/mnt"
	cleanup_hooks=""
fi
tree_same root "$OLDPWD/tests/data"
exit 0
