# `iobattery` with no command prints its usage on stderr and exits 2, writing nothing:
# it neither starts the quick battery in the current directory nor saves a run.
. tests/cli/lib
mkdir "$T/cwd" || fail "mkdir"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
( cd "$T/cwd" && exec "$IOB" ) > "$T/stdout" 2> "$T/stderr"
rc=$?
[ "$rc" = 2 ] || fail "expected exit 2, got $rc"
[ -s "$T/stdout" ] && fail "usage went to stdout: $(head -n 3 "$T/stdout")"
grep -q '^usage: iobattery COMMAND' "$T/stderr" || fail "no usage on stderr"
grep -q "iobattery run" "$T/stderr" || fail "the usage does not name 'iobattery run'"
[ -z "$(ls -A "$T/cwd")" ] || fail "it wrote into the current directory: $(ls -A "$T/cwd")"
[ -e "$T/store.db" ] && fail "it opened the results store"
# --help stays on stdout with exit 0
expect_exit 0 "$IOB" --help
expect_out "usage: iobattery COMMAND"
exit 0
