# The job-file parser against the installed fio (Debian's fio 3.33): for every job file
# in tests/data/jobs (our ten workloads) and tests/data/jobs/parse (grammar corners),
# fio --parse-only and our parser both accept it and `fio --showcmd` prints the same
# line as our dump; every file in tests/data/jobs/bad is refused by both, ours with a
# message naming the file and line. tests/data/jobs/strict holds what fio 3.33 accepts
# although it misreads it (4q, 10sec, numjobs=-1, ...) or prints an error yet exits 0
# (a missing include): we refuse each (fio is not asked: each call costs 0.3 s).
. tests/cli/lib
command -v fio > /dev/null 2>&1 || skip "fio is not installed"
tool="$(dirname "$IOB")/tests/unit/t_job_parse"
[ -x "$tool" ] || fail "missing $tool (make units builds it)"
data=tests/data/jobs
[ -d "$data" ] || fail "missing $data"
IOB_JOBTEST_BS=8k; export IOB_JOBTEST_BS
unset IOB_JOBTEST_UNSET
fio --version

good=""
for f in "$data"/*.fio "$data"/parse/*.fio; do
	case $f in
	*/keywords.fio) command -v bc > /dev/null 2>&1 || { echo "skip $f: fio needs bc"; continue; } ;;
	esac
	good="$good $f"
done
# one fio call for all of them: it exits non-zero when any is refused
# shellcheck disable=SC2086
fio --parse-only $good > "$T/fio.out" 2>&1 || { cat "$T/fio.out"; fail "fio rejects one of:$good"; }
same=0
for f in $good; do
	"$tool" --parse-only "$f" > "$T/us.out" 2>&1 || { cat "$T/us.out"; fail "we reject $f"; }
	fio --showcmd "$f" > "$T/fio.cmd" 2> "$T/fio.err" || fail "fio --showcmd $f failed"
	"$tool" --showcmd "$f" > "$T/us.cmd" 2> "$T/us.err" || fail "our --showcmd $f failed"
	if ! cmp -s "$T/fio.cmd" "$T/us.cmd"; then
		echo "fio: $(cat "$T/fio.cmd")" >&2
		echo "us:  $(cat "$T/us.cmd")" >&2
		fail "--showcmd differs for $f"
	fi
	same=$((same + 1))
done
[ "$(ls "$data"/*.fio | wc -l)" -ge 10 ] || fail "fewer than ten job files in $data"

bad=0
for f in "$data"/bad/*.fio; do
	if fio --parse-only "$f" > "$T/fio.out" 2>&1; then
		fail "fio accepts $f, which should be a file both refuse"
	fi
	if "$tool" --parse-only "$f" > "$T/us.out" 2>&1; then
		fail "we accept $f, which fio refuses"
	fi
	grep -q "^iobattery: job: '$f' line [0-9]" "$T/us.out" ||
		grep -q "^iobattery: job: '.*' line [0-9]*, section \[" "$T/us.out" ||
		{ cat "$T/us.out"; fail "our message for $f names no file and line"; }
	bad=$((bad + 1))
done

strict=0
for f in "$data"/strict/*.fio; do
	if "$tool" --parse-only "$f" > "$T/us.out" 2>&1; then
		fail "we accept $f"
	fi
	grep -q "^iobattery: job: '.*' line [0-9]" "$T/us.out" ||
		{ cat "$T/us.out"; fail "our message for $f names no file and line"; }
	echo "$f: $(cat "$T/us.out")"
	strict=$((strict + 1))
done
echo "showcmd identical: $same files; refused by both: $bad; refused by us only: $strict"
exit 0
