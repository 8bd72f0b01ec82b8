# result_keys_declared: every param and metric the workloads really write (dd, cp,
# bonnie with two copies, postmark with fsync and O_DIRECT, db, iozone's table and
# throughput modes, and
# every importer) is declared in the key tables for its workload, each metric with the
# declared unit; tests/unit/t_result_keys does the checking (a misspelt key in a writer
# fails here). The runs are tiny: this checks names, not speed.
. tests/cli/lib
unit=tests/unit/t_result_keys
[ -x "$unit" ] || fail "$unit not built (make units)"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
mkdir "$T/w" "$T/res" "$T/imp" || exit 1
cd "$T/w" || exit 1

run_json() { # NAME CMD...: CMD --format json into $T/res/NAME.json
	name=$1; shift
	"$@" --format json --no-store > "$T/res/$name.json" 2> "$T/err" ||
		{ cat "$T/err" >&2; fail "$name: '$*' exited $?"; }
}

run_json dd_write "$IOB" dd if=/dev/zero of=f bs=64k count=16 conv=fdatasync
run_json dd_read "$IOB" dd if=f of=/dev/null bs=4k
dd if=/dev/urandom of=src bs=1M count=9 2> /dev/null || fail "cannot make the source"
run_json cp_auto "$IOB" cp src dst1
run_json cp_rw "$IOB" cp --method rw src dst2
run_json bonnie "$IOB" bonnie -d . -s 4 -f1 -n 1 -r 0 -c 2
printf 'set location %s\nset number 50\nset transactions 100\nset fsync true\nset direct true\nrun\nquit\n' \
	"$T/w" > pm.txt
run_json postmark "$IOB" postmark pm.txt
run_json db "$IOB" db -n 500 .
run_json iozone "$IOB" iozone -s 64k -r 16k -E -j 3
run_json iozone_t "$IOB" iozone -t 2 -s 64k -r 16k -i 0 -i 1 -i 2 -i 8 -+p 50

cd "$OLDPWD" || exit 1
D=tests/data
"$IOB" import -o "$T/imp" --no-store $D/bonnie-103.csv $D/bonnie-193c.csv \
	$D/bonnie-193c-mail.txt $D/bonnie-200a.csv $D/postmark-seed.txt $D/postmark-151.txt \
	$D/postmark-terse.txt $D/dd-time-bsd.txt $D/time-bash.txt $D/dd-bsd-read.txt \
	> "$T/out" 2>&1 || { cat "$T/out" >&2; fail "import exited $?"; }
set -- "$T"/imp/*.json
[ $# -ge 20 ] || { cat "$T/out" >&2; fail "expected the imports' result files, got $#"; }

expect_exit 0 "$unit" "$T"/res/*.json "$T"/imp/*.json $D/cmp-*.json
expect_out "ok "
exit 0
