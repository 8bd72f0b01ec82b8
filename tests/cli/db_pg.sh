# db on a throwaway PostgreSQL (--pg-local): the same counts as SQLite at 100,000 rows,
# the server's version recorded, then no postgres process and no scratch directory left.
. tests/cli/lib
cd "$T" || exit 1
"$IOB" db --no-store --pg x 2>&1 | grep -q "without libpq" && skip "built without libpq"
"$IOB" db --help | grep -q -- --pg-local || fail "no --pg-local in --help"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v pg_config >/dev/null ||
	skip "postgresql server binaries not installed"
chmod 755 "$T"	# the server runs as an unprivileged user when we are root

expect_exit 0 "$IOB" db --pg-local --rows 100000 "$T"
cp "$T/out" "$T/pg.out"
for want in "stmt03  INSERT 0 50000" "stmt04  DELETE 50000" "stmt05  DELETE 3846" \
	"stmt06  SELECT 50000" "stmt07  UPDATE 9231" "stmt10  DELETE 3703" \
	"stmt02  SELECT 100000" "stmt16  VACUUM" "postgresql 1" "script total"; do
	expect_out "$want"
done
no_scratch "$T"
for p in /proc/[0-9]*; do
	case $(readlink "$p/cwd" 2>/dev/null) in "$T"/iobattery.*) fail "process left: $(cat "$p/cmdline")" ;; esac
done

# the same statement tags (apart from the build's) from SQLite
expect_exit 0 "$IOB" db --rows 100000 "$T"
cp "$T/out" "$T/sq.out"
grep -E '^stmt' "$T/pg.out" | awk '{ print $1, $2, $3, $4 }' > "$T/pg.tags"
grep -E '^stmt' "$T/sq.out" | awk '{ print $1, $2, $3, $4 }' > "$T/sq.tags"
# strip the time column that awk may have caught for one-word tags (VACUUM 0.1 s)
sed -E -i 's/ [0-9]+\.[0-9]+( s)?$//; s/ [0-9]+\.[0-9]+ s$//' "$T/pg.tags" "$T/sq.tags"
[ "$(wc -l < "$T/pg.tags")" -eq 16 ] || fail "expected 16 statements from postgresql"
diff "$T/pg.tags" "$T/sq.tags" >&2 || fail "the engines' tags differ"
exit 0
