# The ten job files of tests/data/jobs run unchanged: exit 0, the operation and byte
# counts fio does with the same file (exact where the job is deterministic; checked
# against the installed fio when there is one), the steps, groups and threads, and the
# write figures cross-checked against the device's own counters (/proc/diskstats)
# where the temporary directory has a block device.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
data=$PWD/tests/data/jobs
rows=$PWD/tests/cli/job_rows.py
mkdir "$T/w" && cd "$T/w" || exit 1

run() { # FILE: our rows into $T/$1.rows
	"$IOB" job --no-store --quiet --format json "$data/$1" > "$T/$1.json" 2> "$T/$1.err" ||
		{ cat "$T/$1.err"; fail "$1: exit $?"; }
	python3 "$rows" "$T/$1.json" > "$T/$1.rows" || fail "$1: unreadable result"
	no_scratch .
}
want() { # FILE LINE-PREFIX: a row starting so
	grep -q "^$2" "$T/$1.rows" || { cat "$T/$1.rows"; fail "$1: no row '$2'"; }
}
sum() { # FILE FIELD PHASE...: the sum of FIELD over the job rows of those phases
	f=$1 k=$2; shift 2
	for ph in "$@"; do
		awk -v p="$ph" -v k="$k" '$1 == "job" && $3 == p {
			for (i = 4; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' \
			"$T/$f.rows"
	done | awk '{s += $1} END {print s + 0}'
}

run rand-read.fio;  want rand-read.fio "job rand-read read ops=1024 bytes=4194304 "
run rand-write.fio; want rand-write.fio "job rand-write write ops=1024 bytes=4194304 "
run seq-read.fio;   want seq-read.fio "job seq-read read ops=64 bytes=8388608 "
run seq-write.fio;  want seq-write.fio "job seq-write write ops=8 bytes=8388608 "
run zipf-read.fio;  want zipf-read.fio "job zipf-read read ops=1024 bytes=4194304 "
run fsync-heavy.fio
want fsync-heavy.fio "job wal-commit write ops=128 bytes=1048576 "
# fio syncs after every write but the last
want fsync-heavy.fio "job wal-commit sync ops=127 "
run mixed-70-30.fio
[ "$(sum mixed-70-30.fio ops read write)" = 512 ] || fail "mixed-70-30: not 512 requests"
[ "$(sum mixed-70-30.fio bytes read write)" = 4194304 ] || fail "mixed-70-30: not 4 MiB"
reads=$(sum mixed-70-30.fio ops read)
[ "$reads" -gt 320 ] && [ "$reads" -lt 400 ] || fail "mixed-70-30: $reads reads of 512"
run bssplit-mix.fio
b=$(sum bssplit-mix.fio bytes read write)
# norandommap: fio issues until size is reached, the last request not cut to fit
[ "$b" -ge 8388608 ] && [ "$b" -lt $((8388608 + 65536)) ] || fail "bssplit-mix: $b bytes"
run numjobs-4.fio
want numjobs-4.fio "aggregate 0 threads=4 "
[ "$(grep -c '^job four-readers read' "$T/numjobs-4.fio.rows")" = 1 ] ||
	fail "numjobs-4: group_reporting should make one row, not $(grep -c '^job' "$T/numjobs-4.fio.rows")"
el=$(sum numjobs-4.fio elapsed_ns read)
[ "$el" -ge 2000000000 ] || fail "numjobs-4: time_based runtime=2s ran $el ns"
if "$IOB" job --parse-only --ioengine=io_uring --name=probe --size=1m --rw=read > /dev/null 2>&1 &&
	"$IOB" job --no-store -q --name=p --ioengine=io_uring --size=64k --rw=read > /dev/null 2>&1; then
	run iodepth-sweep.fio
	for s in 0 1 2 3; do want iodepth-sweep.fio "aggregate $s threads=1 "; done
	for j in qd1 qd4 qd16 qd32; do want iodepth-sweep.fio "job $j read ops=1024 bytes=4194304 "; done
else
	echo "skip iodepth-sweep.fio: io_uring cannot run here"
fi

# the text is fio's summary where fio users look, then iobattery's lines
"$IOB" job --no-store "$data/fsync-heavy.fio" > "$T/text" 2>&1 || { cat "$T/text"; fail "text"; }
for l in "wal-commit: (g=0): rw=write, bs=(R) 8192B-8192B, (W) 8192B-8192B" \
	"wal-commit: (groupid=0, jobs=1): err= 0" "  write: IOPS=" "    clat (" \
	"    clat percentiles (" "     |  1.00th=[" "  fsync/fdatasync/sync_file_range:" \
	"    sync (" "  cpu          : usr=" "  IO depths    : 1=100.0%" \
	"     issued rwts: total=0,128,0,127" "Run status group 0 (all jobs):" \
	"  WRITE: bw=" "io=1024KiB (1049kB)" "iobattery:" "  wal-commit write:"; do
	grep -qF -- "$l" "$T/text" || { cat "$T/text"; fail "the text lacks '$l'"; }
done
no_scratch .

# the device wrote at least what the jobs made durable (end_fsync)
if grep -q '^disk ' "$T/seq-write.fio.rows"; then
	dw=$(awk '$1 == "disk" {split($4, a, "="); s += a[2]} END {print s + 0}' "$T/seq-write.fio.rows")
	[ "$dw" -ge 8388608 ] || { cat "$T/seq-write.fio.rows"; fail "device wrote $dw bytes for 8 MiB"; }
	dw=$(awk '$1 == "disk" {split($4, a, "="); s += a[2]} END {print s + 0}' "$T/rand-write.fio.rows")
	[ "$dw" -ge 4194304 ] || fail "device wrote $dw bytes for 4 MiB of random writes"
else
	echo "note: no block device under $T: the diskstats cross-check is skipped"
fi

# the installed fio does the same counts with the same files
if command -v fio > /dev/null 2>&1; then
	mkdir "$T/fio" && cd "$T/fio" || exit 1
	for f in rand-read rand-write seq-read seq-write zipf-read fsync-heavy mixed-70-30; do
		fio --output-format=json "$data/$f.fio" > "$T/$f.fio.json" 2> /dev/null ||
			fail "fio failed on $f.fio"
		theirs=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"] + j["write"]["total_ios"], j["read"]["io_bytes"] + j["write"]["io_bytes"])' "$T/$f.fio.json")
		ours="$(sum $f.fio ops read write) $(sum $f.fio bytes read write)"
		[ "$theirs" = "$ours" ] || fail "$f.fio: fio did $theirs (requests bytes), we $ours"
	done
	cd "$T/w" || exit 1
else
	echo "note: fio is not installed: counts checked against the expected figures only"
fi
no_scratch .
exit 0
