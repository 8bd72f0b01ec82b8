# The battery's database-pattern step end to end (--steps job): planned at a small budget,
# its rows are the four jobs' (8 KiB random reads at depth 1 and 32 read with O_DIRECT,
# random writes each followed by an fdatasync, a 70/30 mix), none short, on the engine
# the run names, with the fio job file it ran in the options (one our job parser and,
# when installed, fio accept); by hand (--size) it runs the same jobs once over the file.
# A file system that refuses O_DIRECT (the fault shim's op=odirect) skips the step with
# the reason, whether the probe finds it out or the job's own open does, and the battery
# does not fail. Nothing is left in the target.
. tests/cli/lib
command -v jq > /dev/null || skip "jq is not installed"
mkdir "$T/w" "$T/o" || exit 1
j="$T/o/iobattery-results.json"
battery() { "$IOB" battery -d "$T/w" --steps job --no-store --quiet --format json \
	--output-dir "$T/o" "$@"; }
leftovers() {
	no_scratch "$T/w"
	[ -z "$(ls "$T/w")" ] || fail "$1: files left: $(ls "$T/w")"
}

expect_exit 0 battery --budget 10s
[ "$(jq -r .options.sizing "$j")" = planned ] || fail "the run was not planned"
jq -e '.options.step11 | test("^job db pattern: expected ")' "$j" > /dev/null ||
	fail "the job step was not planned: $(jq -r .options.step11 "$j")"
eng=$(jq -r .options.job_engine "$j")
case $eng in io_uring|libaio|psync) ;; *) fail "no engine named: '$eng'" ;; esac
got=$(jq -r '[.rows[] | "\(.workload) \(.phase) \(.params.detail)"] | join(";")' "$j")
want="job read randread-qd1 read;job read randread-qd32 read"
want="$want;job write randwrite-fdatasync write;job sync randwrite-fdatasync sync"
want="$want;job read randrw70-qd32 read;job write randrw70-qd32 write"
[ "$got" = "$want" ] || fail "the rows are not the four jobs': $got"
jq -e --arg e "$eng" '.rows | all(.params.ioengine == $e and .params.direct == "1"
	and .params.bs == "8192" and .rate > 0 and .elapsed_ns >= 500000000
	and ((.flags | index("short")) | not) and ((.flags | index("failed")) | not))' "$j" \
	> /dev/null || fail "a row is not an 8 KiB O_DIRECT figure on $eng, or is short"
jq -e '[.rows[] | select(.phase == "read")] | all(.params.read_method == "direct")' "$j" \
	> /dev/null || fail "a read without its read method"
jq -e '[.rows[] | select(.params.detail == "randread-qd32 read")][0].params.iodepth == "32"
	and ([.rows[] | select(.params.detail == "randrw70-qd32 read")][0].params.rwmixread
	== "70")' "$j" > /dev/null || fail "queue depth or mix not as planned"
# an fdatasync after every write, and the writing jobs' durable figures
w=$(jq '[.rows[] | select(.params.detail == "randwrite-fdatasync write")][0].ops' "$j")
s=$(jq '[.rows[] | select(.params.detail == "randwrite-fdatasync sync")][0].ops' "$j")
# (the run can end between the last write and its sync: end_fsync covers that one)
[ "$w" -gt 0 ] && [ "$s" -ge $((w - 1)) ] || fail "$w writes but $s syncs"
jq -e '[.rows[] | select(.phase == "write")] | all(.durable_ns > 0)' "$j" > /dev/null ||
	fail "a write row without its durable time"
# the system figures of each job are on its first row
jq -e '[.rows[] | select(.phase != "sync" and .params.detail != "randrw70-qd32 write")]
	| all(.system != null)' "$j" > /dev/null || fail "a job's first row lacks its system figures"
# the job file it ran, in fio's syntax
jq -r .options.job_file "$j" > "$T/db.fio"
grep -q "^ioengine=$eng\$" "$T/db.fio" || fail "the job file names another engine"
expect_exit 0 "$IOB" job --parse-only "$T/db.fio"
if command -v fio > /dev/null; then
	(cd "$T" && fio --parse-only db.fio > "$T/fio.out" 2>&1) ||
		{ cat "$T/fio.out"; fail "fio refuses the job file"; }
fi
leftovers "planned"

# by hand: each job over the file once, flagged short rather than left out
expect_exit 0 battery --size 4m
[ "$(jq '[.rows[] | select(.workload == "job")] | length' "$j")" -eq 6 ] ||
	fail "not six rows by hand"
jq -e '([.rows[] | select(.params.rw == "randread")] | all(.bytes == 4194304)) and
	([.rows[] | select(.params.rw == "randrw") | .bytes] | add == 4194304)' "$j" \
	> /dev/null || fail "a job did not go over the 4 MiB file once"
leftovers "by hand"

shim=$PWD/tests/fault/iobfault.so
# a preloaded library before the sanitizer runtime of a SAN build is fine here
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
if [ -e "$shim" ]; then
	# the probe finds no O_DIRECT: the plan skips the step with the reason
	expect_exit 0 env IOB_FAULT=op=odirect LD_PRELOAD="$shim" "$IOB" battery -d "$T/w" \
		--steps job --budget 10s --no-store --dry-run
	grep -q "^  job db pattern .* skipped: needs O_DIRECT" "$T/out" ||
		{ cat "$T/out"; fail "the plan does not skip the job for O_DIRECT"; }
	# ... and the rest of the battery runs
	expect_exit 0 env IOB_FAULT=op=odirect LD_PRELOAD="$shim" "$IOB" battery -d "$T/w" \
		--steps dd-1m,job --size 4m --no-store
	expect_out "job db pattern: skipped: needs O_DIRECT"
	grep -Eq '^dd +write ' "$T/out" || fail "the other step did not run"
	leftovers "no O_DIRECT"
	# only the job's file refuses it: the step is skipped when the job opens it
	expect_exit 0 env IOB_FAULT=op=odirect,path=battery-db.dat LD_PRELOAD="$shim" \
		"$IOB" battery -d "$T/w" --steps job --job-engine psync --budget 10s --no-store \
		--format json --output-dir "$T/o"
	jq -e '.rows | length == 1 and .[0].phase == "skipped" and
		(.[0].flags | index("not_measured")) and
		(.[0].note | test("refused O_DIRECT on the job.s file"))' "$j" > /dev/null ||
		fail "a refused open is not a skipped step: $(jq -c .rows "$j")"
	leftovers "O_DIRECT refused at the open"
else
	echo "the fault shim is not built: O_DIRECT refusals not tested"
fi
exit 0
