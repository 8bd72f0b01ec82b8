# What the system did, per phase and per interval, from the real binary: a dd write has
# system figures and a series whose interval bytes and ops add up to the row's exactly,
# with the interval count the merging rule gives for its length; --series writes the
# long CSV table with the same bytes; the text has the system line; the store keeps the
# series. Bad values of the options exit 2 and write nothing; --no-sample leaves the
# figures out; a target without a block device (tmpfs) has no device figures and says
# why; with /proc hidden the run works and says once what it lacks.
. tests/cli/lib
command -v jq > /dev/null || skip "jq is not installed (scripts/install-deps test)"
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
cd "$T" || exit 1

# bad input: exit 2, one clear message, nothing written
bad() { # MESSAGE ARGS...
	msg=$1; shift
	expect_exit 2 "$IOB" dd if=/dev/zero of=bad bs=4k count=4 "$@"
	expect_out "$msg"
	[ -e bad ] && fail "'$*' wrote its output"
	return 0
}
bad "bad value for --interval: '0': from 10ms to 10m" --interval 0
bad "bad value for --interval: '1h': from 10ms to 10m" --interval 1h
bad "bad value for --interval: '2 s'" --interval "2 s"
bad "bad value for --sample-interval: '500us': from 1ms to 1m" --sample-interval 500us
bad "--series writes a CSV table: add --format csv" --series s.csv
bad "drop --no-sample" --format csv --series s.csv --no-sample
if command -v setsid > /dev/null; then	# no controlling terminal: nowhere to draw
	expect_exit 2 setsid -w "$IOB" dd if=/dev/zero of=bad bs=4k count=4 --watch
	expect_out "--watch needs a terminal"
fi
bad "drop --no-sample" --watch --no-sample
bad "bad value for --interval" --interval=
[ -e s.csv ] && fail "a series file was written on bad input"

# a write of a few hundred ms: intervals of 1 s / 2^k, never under 100 ms
"$IOB" dd if=/dev/zero of=f bs=1M count=256 conv=fdatasync --format json,csv --series s.csv \
	--output-dir . --quiet > /dev/null 2> err || { cat err; fail "dd with --series"; }
[ -s iobattery-results.json ] || fail "no result file"
j=iobattery-results.json
jq -e '.rows[0].system.devices | type == "array"' $j > /dev/null || fail "no system figures"
jq -e '.rows[0].series.t_ns | length >= 1' $j > /dev/null || fail "no series"
bytes=$(jq '.rows[0].bytes' $j)
sum=$(jq '[.rows[0].series.bytes[]] | add' $j)
[ "$sum" = "$bytes" ] || fail "interval bytes add up to $sum, the row has $bytes"
ops=$(jq '.rows[0].ops' $j)
[ "$(jq '[.rows[0].series.ops[]] | add' $j)" = "$ops" ] || fail "interval ops do not add up"
n=$(jq '.rows[0].series.t_ns | length' $j)
iv=$(jq '.rows[0].series.interval_ns' $j)
el=$(jq '.rows[0].elapsed_ns' $j)
case $iv in 125000000|250000000|500000000|1000000000) ;;
*) fail "interval $iv is not 1 s / 2^k of at least 100 ms" ;; esac
# the count: every full interval of the phase and the last, partial one (the sampler
# stops a little after the phase clock, so one more when the phase ends on a boundary).
# A sampler thread that a loaded machine kept off the CPU past a whole interval takes
# one late record for the intervals it missed: each such gap counts as the records it
# stands for (its span in intervals, rounded).
late=$(jq --argjson iv "$iv" '([0] + .rows[0].series.t_ns) as $t | [range(1; $t | length - 1)
	| (($t[.] - $t[. - 1]) / $iv + 0.5 | floor) - 1 | select(. > 0)] | add // 0' $j)
want=$(( el / iv + 1 - late ))
[ "$n" -eq "$want" ] || [ "$n" -eq $((want + 1)) ] ||
	fail "$n intervals of $iv ns in a phase of $el ns (expected $want)"
[ "$iv" -eq 125000000 ] || [ "$n" -ge 10 ] || fail "a merged series has $n < 10 intervals"
jq -e '[.rows[0].series.t_ns[]] | . == sort' $j > /dev/null || fail "interval ends not ordered"
if have_feature procstat; then
	jq -e '.rows[0].system.cpu_idle_pct != null' $j > /dev/null || fail "no CPU split"
fi
if have_feature waitstate; then
	jq -e '.rows[0].system.wait_observations >= 1' $j > /dev/null || fail "no wait states"
fi

# a plain run raises none of the flags of these figures (steal depends on the host)
quiet_flags() { # FILE WHAT
	jq -e '[.rows[].flags[] | select(. == "device_idle" or . == "writeback_pending")] |
		length == 0' "$1" > /dev/null || fail "$2 flagged: $(jq -c '.rows[].flags' "$1")"
}
quiet_flags $j "a conv=fdatasync write"
"$IOB" dd if=f of=/dev/null bs=1M --drop-cache --format json --no-store > rd.json ||
	fail "dd read"
jq -e '.rows[0].system.devices[0].rd_bytes > 0 or .rows[0].system.devices == []' rd.json \
	> /dev/null || fail "the device read nothing after --drop-cache"
quiet_flags rd.json "a read after --drop-cache"

# the long table: the same bytes
head -n 1 s.csv | grep -qx 'run_id,row,workload,phase,repeat,interval,t_s,series,device,value' ||
	fail "series header: $(head -n 1 s.csv)"
csum=$(awk -F, '$8 == "bytes" { s += $10 } END { printf "%.0f", s }' s.csv)
[ "$csum" = "$bytes" ] || fail "the CSV's bytes add up to $csum, the row has $bytes"
[ "$(awk -F, '$8 == "bytes"' s.csv | wc -l)" -eq "$n" ] || fail "one bytes line per interval"
# a second --series over our own file is fine; over a user's file it is refused
"$IOB" dd if=f of=/dev/null bs=1M --format csv --series s.csv --no-store > /dev/null 2>&1 ||
	fail "--series over its own earlier file"
echo "my data" > mine.csv
expect_exit 1 "$IOB" dd if=f of=/dev/null bs=1M --format csv --series mine.csv --no-store
expect_out "refusing to overwrite: '"
[ "$(cat mine.csv)" = "my data" ] || fail "a user's file was overwritten"

# the text: a system line; the store: the series in its own table (without device
# statistics in this build, the line says there are no device figures)
expect_exit 0 "$IOB" dd if=f of=/dev/null bs=1M
expect_out "  system: "
expect_exit 0 sqlite3 "$IOBATTERY_DB" "SELECT count(*) FROM series"
[ "$(cat "$T/out")" -ge 1 ] || fail "no series in the store"

# --no-sample: nulls, no system line
"$IOB" dd if=f of=/dev/null bs=1M --no-sample --format json --no-store > ns.json ||
	fail "--no-sample"
jq -e '.rows[0].system == null and .rows[0].series == null' ns.json > /dev/null ||
	fail "figures with --no-sample"
expect_exit 0 "$IOB" dd if=f of=/dev/null bs=1M --no-sample --no-store
grep -q "system:" "$T/out" && fail "a system line with --no-sample"

# no block device: tmpfs (root only)
if is_root && mkdir mnt && mount -t tmpfs -o size=256m tmpfs mnt 2> /dev/null; then
	cleanup_hooks="umount '$T/mnt' 2>/dev/null;"
	"$IOB" dd if=/dev/zero of=mnt/f bs=64k count=16 --format json --no-store > t.json 2> err ||
		{ cat err; fail "dd on tmpfs"; }
	jq -e '.rows[0].system.devices == [] and (.rows[0].system.devices_reason |
		test("tmpfs|not available in this build"))' t.json > /dev/null ||
		fail "no reason for the missing devices"
	[ -s err ] && { cat err; fail "a message for a tmpfs target"; }
	expect_exit 0 "$IOB" dd if=/dev/zero of=mnt/g bs=64k count=16 --no-store
	expect_out "system: no device figures ("
	umount mnt && cleanup_hooks=""
else
	echo "note: not root: the tmpfs case was not run"
fi

# /proc hidden (a mount namespace with an empty /proc; root only): it still works, and
# says what it lacks once, not per phase
# (not in a sanitizer build: without /proc the sanitizers read no options from the
# environment, and LeakSanitizer cannot stop the threads, which it does through /proc)
if san_build; then
	echo "note: a sanitizer build: the case without /proc was not run"
elif is_root && have_feature procstat && command -v unshare > /dev/null &&
	unshare -m true 2> /dev/null; then
	unshare -m sh -c "mount -t tmpfs none /proc && exec '$IOB' dd if=/dev/zero of=p bs=64k \
		count=32 --repeat 3 --no-store" > out 2> err || { cat err; fail "dd without /proc"; }
	grep -q "records out" out || fail "no dd output without /proc"
	[ "$(grep -c "cannot read: '/proc/stat'" err)" -eq 1 ] ||
		{ cat err; fail "/proc/stat not said exactly once"; }
else
	echo "note: no mount namespace here: the /proc case was not run"
fi
exit 0
