# --verify on the other write workloads: Bonnie++'s block phases (pass 1, rewrite pass 2,
# the seeks' write-backs), PostMark's files (written in chunks, appended, with odd tails),
# iozone's records (one cell; iozone_verify.sh has the rest), cp's copy of a verified file
# by each method; each run's verify row finds every block
# as written, and each row's keys are declared. What cannot carry a header is refused.
. tests/cli/lib
command -v python3 > /dev/null || skip "python3 missing"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
unit=tests/unit/t_result_keys
mkdir "$T/w" "$T/res" || exit 1

ok_json() { # NAME CMD...: CMD --format json into $T/res/NAME.json; its verify row clean
	name=$1; shift
	"$@" --format json --no-store > "$T/res/$name.json" 2> "$T/err" ||
		{ cat "$T/err" >&2; fail "$name: '$*' exited $?"; }
	python3 - "$T/res/$name.json" <<'EOF' || { cat "$T/err" >&2; fail "$name: verify row"; }
import json, sys
rows = json.load(open(sys.argv[1]))['rows']
v = [r for r in rows if r['phase'] == 'verify']
if len(v) != 1:
    sys.exit('%d verify rows' % len(v))
m = {x['name']: x['value'] for x in v[0]['metrics']}
if m['verify_bad_blocks'] != 0 or m['verify_blocks'] < 1 or m['verify_ok'] != m['verify_blocks']:
    sys.exit('verify: %r' % m)
if any('failed' in r['flags'] for r in rows):
    sys.exit('a row failed')
if any(r['params'].get('verify') != 'true' for r in rows):
    sys.exit('a row is not marked verify')
EOF
}

ok_json bonnie "$IOB" bonnie -d "$T/w" -s 8 -n 0 -r 0 -f --verify-after-drop
ok_json iozone "$IOB" iozone -s 256k -r 16k -i 0 -i 1 -i 2 -f "$T/w/iozone.tmp" \
	--no-device-probe --verify-after-drop
printf 'set location %s\nset number 100\nset transactions 300\nset size 64 3000\nrun\nquit\n' \
	"$T/w" > "$T/pm1.txt"
ok_json postmark_buffered "$IOB" postmark "$T/pm1.txt" --verify
printf 'set location %s\nset number 100\nset transactions 300\nset buffering false\n' \
	"$T/w" > "$T/pm2.txt"
printf 'set size 100 2000\nset fsync true\nrun\nquit\n' >> "$T/pm2.txt"
ok_json postmark_raw "$IOB" postmark "$T/pm2.txt" --verify-journal "$T/pm.journal"
"$IOB" dd if=/dev/zero of="$T/w/src" bs=256k count=12 --data random --verify --no-store \
	> /dev/null || fail "dd --verify for cp's source failed"
ok_json cp_auto "$IOB" cp "$T/w/src" "$T/w/dst1" --verify
ok_json cp_rw "$IOB" cp --method rw "$T/w/src" "$T/w/dst2" --verify
expect_exit 0 "$IOB" verify "$T/w/dst1" "$T/w/dst2"
left=$(ls "$T/w" | grep -v '^src$' | grep -v '^dst[12]$')
[ -z "$left" ] || fail "left behind: $left"

# refused: a source that is no verified file; chunks and files too small for a header
head -c 100000 /dev/urandom > "$T/plain"
expect_exit 2 "$IOB" cp "$T/plain" "$T/w/dst3" --verify --no-store
expect_out "is not one"
printf 'set location %s\nset size 10 100\nset number 20\nset transactions 20\nrun\nquit\n' \
	"$T/w" > "$T/pm3.txt"
expect_exit 1 "$IOB" postmark "$T/pm3.txt" --verify --no-store
expect_out "--verify needs files and writes of at least 64 bytes"
expect_exit 2 "$IOB" bonnie -d "$T/w" -s 8:32 -n 0 -r 0 -f --verify --no-store
expect_out "chunk"

[ -x "$unit" ] || fail "$unit not built (make units)"
expect_exit 0 "$unit" "$T"/res/*.json
exit 0
