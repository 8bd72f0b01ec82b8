# The fault matrix: every write path (dd, cp, each writing Bonnie++ phase, PostMark,
# the db workload's SQLite file, iozone's writing tests and its -b workbook, the results
# store, the report writer, result files, job's write_iolog, the verify journal, and the
# listener's journal)
# against every fault (EIO at the Nth write, ENOSPC mid-phase, a failing fsync or
# fdatasync, a short write), through the fault shim tests/fault/iobfault.so (LD_PRELOAD;
# tests/README says how it works). A real fault must give exit 1 (a store fault under a
# measurement: exit 0, the figures are out, and a message), a message naming the phase
# and how far it got, no durable figure after a failed sync, no file left behind and a
# store that holds each run whole or not at all. A short write must be finished: exit 0.
. tests/cli/lib
shim=$PWD/tests/fault/iobfault.so
[ -f "$shim" ] || skip "the fault shim was not built (needs Linux and glibc)"
cd "$T" || exit 1
mkdir w
head -c 4194304 /dev/urandom > src
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made
"$IOB" dd if=/dev/zero of=w/seed bs=4k count=2 --format json --no-store > seed.json \
	2>/dev/null || fail "no seed result"
rm -f w/seed
sed 's/^  "id": .*/  "id": "seed-two",/' seed.json > seed2.json
# a preloaded library before the sanitizer runtime of a SAN build is fine here
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS

# The matrix: NAME | PATH (the shim's path filter) | N (the Nth write) | FAULTS | COMMAND
# | MESSAGE (what the failure message must hold). FAULTS: e = EIO, n = ENOSPC, s = a
# failing fsync/fdatasync, h = a short write. %W is the scratch parent ($T/w).
matrix() {
	cat <<'ROWS'
dd|w/out|3|ensh|dd --no-store if=/dev/zero of=%W/out bs=64k count=16|dd: write failed: '%W/out': * after * bytes written
dd-conv|w/out|3|ensh|dd --no-store if=/dev/zero of=%W/out bs=64k count=16 conv=fsync|dd: write failed: '%W/out': * after * bytes written
cp|w/dst|3|ensh|cp --no-store src %W/dst|cp: copy failed: '%W/dst': * after * bytes copied
cp-range|w/dst|3|ensh|cp --no-store --method copy_file_range src %W/dst|cp: copy failed: '%W/dst': * after * bytes copied
cp-sendfile|w/dst|3|ensh|cp --no-store --method sendfile src %W/dst|cp: copy failed: '%W/dst': * after * bytes copied
bonnie-putc|Bonnie.|1000|enh|bonnie --no-store -d %W -r 0 -f1 -s 4 -n 0|bonnie: putc failed: '%W': * after * bytes written
bonnie-putc-stdio|Bonnie.|3|enh|bonnie --no-store -d %W -r 0 -f1 -s 4 -n 0 --char-method putc|bonnie: putc failed: '%W': * after * bytes written
bonnie-put_block|Bonnie.|3|ensh|bonnie --no-store -d %W -r 0 -f -s 4 -n 0|bonnie: put_block failed: '%W': * after * bytes written
bonnie-rewrite|Bonnie.|700|enh|bonnie --no-store -d %W -r 0 -f -s 4 -n 0|bonnie: rewrite failed: '%W': * after * bytes written
bonnie-seq_create|Bonnie.files|3|enh|bonnie --no-store -d %W -r 0 -s 0 -n 1:4096:4096|bonnie: seq_create failed: '%W': * after * bytes written
bonnie-ran_create|Bonnie.files|1100|enh|bonnie --no-store -d %W -r 0 -s 0 -n 1:4096:4096|bonnie: ran_create failed: '%W': * after * bytes written
postmark|w/iobattery.|20|ensh|postmark --no-store pm.script|postmark run failed: creating a file: * bytes written; every file was removed)
db|w/iobattery.|5|ensh|db --no-store --rows 2000 %W|sqlite failed: * (database * bytes on disk)
iozone|iozone.tmp|3|ensh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 0 -i 1 -f %W/iozone.tmp|iozone: write failed: '%W/iobattery.*/iozone.tmp': * after * bytes written; the file was removed
iozone-rewrite|iozone.tmp|20|enh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 0 -i 1 -f %W/iozone.tmp|iozone: rewrite failed: '%W/iobattery.*/iozone.tmp': write: * after 12288 bytes written
iozone-random_write|iozone.tmp|35|enh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 0 -i 2 -f %W/iozone.tmp|iozone: random_write failed: '%W/iobattery.*/iozone.tmp': pwrite: * after 8192 bytes written
iozone-record_rewrite|iozone.tmp|35|enh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 0 -i 4 -f %W/iozone.tmp|iozone: record_rewrite failed: '%W/iobattery.*/iozone.tmp': pwrite: * after 8192 bytes written
iozone-fwrite|iozone.tmp|3|ensh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 6 -i 7 -f %W/iozone.tmp|iozone: fwrite failed: '%W/iobattery.*/iozone.tmp': f* after * bytes written
iozone-tput|iozone.DUMMY|5|ensh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 0 -i 1 -t 2 -f %W/iozone|iozone: write failed: '%W/iobattery.*/iozone.DUMMY.*': * after * bytes written
iozone-xlsx|w/m.xlsx|1|ensh|iozone --no-store --no-device-probe --format json -s 64k -r 4k -i 0 -b %W/m.xlsx|iozone: cannot write the spreadsheet: '%W/m.xlsx': *
store-import|store/results.db|1|ens|import --no-files seed.json|import: cannot save in the store: *
store-dd|store/results.db|1|ens|dd if=/dev/zero of=%W/out bs=4k count=4|cannot save in the results store: *
report|w/r.html|1|ensh|report --no-store -o %W/r.html seed.json seed.json|report: cannot write: '%W/r.html': *
job-iolog|w/log|1|en|job --no-store -d %W --name=a --rw=write --size=64k --bs=4k --write_iolog=%W/log|job: write failed: 'a': cannot write the request log (write_iolog): *
dd-journal|w/jr|2|en|dd --no-store if=/dev/zero of=%W/out bs=4k count=16 conv=fsync --verify --verify-journal %W/jr|dd: verify failed: acknowledgements stopped after * records: *
results-file|iobattery-results|1|ensh|dd --no-store if=/dev/zero of=%W/out bs=4k count=4 --format json --output-dir %W -q|cannot write results: '%W/iobattery-results.json': *
ROWS
}
printf 'set location %s\nset number 100\nset transactions 200\nset fsync true\nrun\n' \
	"$T/w" > pm.script

# left_in_w: what the command left in w (the scratch parent) but what it was given
left_in_w() { ls -A w | grep -v '^r.html$' | grep -v '^\.seen$' || true; }

runs=0 checked=0
while IFS='|' read -r name path nth faults cmd msg; do
	[ -n "$name" ] || continue
	[ "$name" = iozone-xlsx ] && ! have_feature xlsxwriter && continue
	[ "$name" = cp-range ] && ! have_feature copy_file_range && continue
	[ "$name" = cp-sendfile ] && ! have_feature sendfile && continue
	cmd=$(printf '%s' "$cmd" | sed "s|%W|$T/w|g")
	msg=$(printf '%s' "$msg" | sed "s|%W|$T/w|g")
	for f in $(printf '%s' "$faults" | sed 's/./& /g'); do
		case $f in
		e) spec="op=write,err=EIO,nth=$nth" ;;
		n) spec="op=write,err=ENOSPC,nth=$nth" ;;
		s) spec="op=fsync" ;;
		h) spec="op=short,nth=$nth" ;;
		esac
		rm -rf w store; mkdir w store
		[ "$name" = report ] && cp seed.json w/r.html.keep
		# the store exists with one run: the fault strikes the next run's transaction
		case $name in
		store-*) "$IOB" import --no-files seed2.json > /dev/null 2>&1 ||
				fail "cannot make the store" ;;
		esac
		# shellcheck disable=SC2086
		IOB_FAULT="$spec,path=$path" LD_PRELOAD="$shim" "$IOB" $cmd > out 2>&1
		rc=$?
		runs=$((runs + 1))
		where="$name x $spec"
		if [ "$f" = h ]; then
			[ $rc -eq 0 ] || { cat out >&2; fail "$where: a short write is not finished (exit $rc)"; }
			case $name in
			cp*) cmp -s src w/dst || fail "$where: the copy is not whole" ;;
			dd*) [ "$(wc -c < w/out)" -eq 1048576 ] || fail "$where: the output is not whole" ;;
			esac
			checked=$((checked + 1))
			continue
		fi
		grep -q 'iobfault: ' out || { cat out >&2; fail "$where: the fault never struck"; }
		want=1
		[ "$name" = store-dd ] && want=0
		[ $rc -eq $want ] || { cat out >&2; fail "$where: exit $rc, not $want"; }
		# the message: the phase (or file) and how far it got, with the fault's reason
		reason="Input/output error"
		[ "$f" = n ] && reason="No space left on device"
		case $name in
		db|store-*) reason=" " ;;	# SQLite's own words: disk I/O error, disk is full
		postmark) reason=$(echo "$reason" | tr 'A-Z' 'a-z') ;;
		esac
		line=$(grep -F "iobattery: " out | grep -F -- "$reason" | head -n 1)
		pat=$(printf '%s' "$msg" | sed 's/[][\.^$]/\\&/g; s/\*/.*/g')
		printf '%s\n' "$line" | grep -q -- "$pat" ||
			{ cat out >&2; fail "$where: no message like: $msg"; }
		# no durable figure after a failed sync; nothing left behind
		grep -Eq '^  durable:|"durable_ns": [0-9]' out && [ "$f" = s ] &&
			[ "$name" != store-dd ] && [ "$name" != iozone-xlsx ] &&
			{ cat out >&2; fail "$where: a durable figure after a failed sync"; }
		case $name in
		report) [ "$(ls -A w)" = r.html.keep ] || fail "$where: left: $(ls -A w)" ;;
		store-dd|results-file) rm -f w/out ;;	# the measurement itself succeeded
		job-iolog) rm -f w/log ;;	# the log the user named: what was written
		dd-journal) rm -f w/out w/jr ;;	# dd's output and the journal the user named
		esac
		[ "$name" = report ] || [ -z "$(left_in_w)" ] || fail "$where: left: $(left_in_w)"
		# the store: each run whole or absent (rows of a stored run = the run's rows)
		if [ -f store/results.db ] && command -v sqlite3 >/dev/null 2>&1; then
			bad=$(sqlite3 store/results.db "SELECT count(*) FROM runs r WHERE
				(SELECT count(*) FROM rows w WHERE w.run_id = r.id) = 0" 2>&1) ||
				fail "$where: the store does not open: $bad"
			[ "$bad" = 0 ] || fail "$where: a run stored without its rows"
			case $name in
			store-*) n=$(sqlite3 store/results.db "SELECT count(*) FROM runs")
				 [ "$n" = 1 ] || fail "$where: $n runs stored, not 1 (the one before)"
				 ;;
			esac
			"$IOB" results list > list.out 2>&1 || fail "$where: results list fails"
		fi
		checked=$((checked + 1))
	done
done <<EOF2
$(matrix)
EOF2

# the listener's journal fails: the listener exits 1 naming it, the writer exits 1 with
# the listener's reason, and a stray peer before it changes nothing
if command -v python3 >/dev/null 2>&1; then
	for f in EIO ENOSPC; do
		rm -rf w; mkdir w
		IOB_FAULT="op=write,err=$f,nth=3,path=w/lj" LD_PRELOAD="$shim" timeout 60 \
			"$IOB" fsync --listen 127.0.0.1:0 --verify-journal "$T/w/lj" > lis.out 2>&1 &
		lp=$!
		port=""
		for i in $(seq 1 40); do
			port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\);.*/\1/p' lis.out)
			[ -n "$port" ] && break
			sleep 0.25
		done
		[ -n "$port" ] || { cat lis.out >&2; fail "listener x $f: no port"; }
		python3 -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); s.close()' "$port"
		timeout 60 "$IOB" fsync --no-store -s 1 -f w/c --blocks 64 \
			--report-to "127.0.0.1:$port" > out 2>&1
		rc=$?
		[ $rc -eq 1 ] || { cat out >&2; fail "listener x $f: the writer exited $rc"; }
		wait $lp; lrc=$?
		runs=$((runs + 1))
		[ $lrc -eq 1 ] || { cat lis.out >&2; fail "listener x $f: exit $lrc, not 1"; }
		grep -q "iobattery: fsync: listener failed: '$T/w/lj'" lis.out ||
			{ cat lis.out >&2; fail "listener x $f: no message naming the journal"; }
		checked=$((checked + 1))
	done
fi
echo "fault matrix: $runs runs, $checked checked"
[ $runs -ge 50 ] || fail "only $runs runs"
exit 0
