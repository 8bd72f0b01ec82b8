# The job workload across ranks: two ranks run a mixed job on their own files; the
# merged rows' counts are the sums of the ranks', the latency summaries fio prints
# (lat min, max, mean) are those of all requests (they equal the merged histogram's, as
# for one process with a synchronous engine), bw_bytes is all bytes over the row's time,
# and the device's counts are the host's once, not once per rank. filename= becomes
# NAME.RANK; --stonewall ends a time-based job on every rank, and --wearout then evens
# them out.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
mpi_run 2 "$IOB" job --name=m --rw=randrw --bs=4k --size=2m --no-store --format json \
	--quiet > j.json 2> err || { cat err; fail "job on 2 ranks exited $?"; }
for p in aggregate read write; do
	r="(.rows[] | select(.phase == \"$p\"))"
	jq_true j.json "$r.bytes == ([$r.ranks[].bytes] | add) and
		$r.ops == ([$r.ranks[].ops] | add) and ($r.ranks | length) == 2"
done
jq_true j.json '(.rows[] | select(.phase == "aggregate")).bytes == 2 * 2097152'
for p in read write; do
	r="(.rows[] | select(.phase == \"$p\"))"
	m() { echo "($r.metrics[] | select(.name == \"$1\") | .value)"; }
	jq_true j.json "$(m lat_n) == $r.latency.n and $(m lat_min_ns) == $r.latency.min_ns and
		$(m lat_max_ns) == $r.latency.max_ns and
		(($(m lat_mean_ns) - $r.latency.mean_ns) | fabs) < 1e-6 * $r.latency.mean_ns"
	jq_true j.json "(($(m bw_bytes) * $r.elapsed_ns / 1e9 - $r.bytes) | fabs) < 1e-6 * $r.bytes"
done
# both ranks run on this host: the disk row is the device's, counted once
d='(.rows[] | select(.phase == "disk"))'
jq_true j.json "all($d; .ops == ([.ranks[].ops] | max) and .bytes == ([.ranks[].bytes] | max))"
if have_feature diskstats; then
	jq_true j.json "[$d] | length > 0"
fi

# fio's header counts the threads of all ranks, and says how they are made up
mpi_run 2 "$IOB" job --name=g --rw=write --bs=4k --size=64k --numjobs=2 --group_reporting \
	--no-store > g.txt 2> err || { cat err; fail "job numjobs=2 on 2 ranks exited $?"; }
grep -q '^g: (groupid=0, jobs=4 (2 ranks x 2)): err= 0' g.txt ||
	{ cat g.txt; fail "the header does not count the ranks' threads"; }
rm -f g.txt

mpi_run 2 "$IOB" job --name=f --rw=write --bs=4k --size=256k --filename=data --no-store \
	--quiet > /dev/null 2> err || { cat err; fail "job filename= exited $?"; }
[ "$(wc -c < data.0)" -eq 262144 ] && [ "$(wc -c < data.1)" -eq 262144 ] ||
	fail "filename=data did not give each rank its data.RANK"
[ ! -e data ] || fail "a rank wrote filename=data itself"
rm -f data.0 data.1

mpi_run 2 "$IOB" job --name=s --rw=write --bs=4k --size=64m --time_based --runtime=3600 \
	--sync=dsync --stonewall 0.5 --no-space-check --no-store --format json --quiet \
	> s.json 2> err || { cat err; fail "job --stonewall exited $?"; }
r='(.rows[] | select(.phase == "aggregate"))'
jq_true s.json "all($r.ranks[]; .stonewall_bytes > 0 and .bytes < 3600 * 67108864) and
	any($r.metrics[]; .name == \"stonewall_rate\")"
# --wearout: after the wall every rank does as much as the busiest (its threads go on,
# each with a share of what is left), so the ranks' bytes come out equal, and equal to
# the largest stonewall figure; with two threads a rank the same. write_iolog= holds
# both rounds: the second appends its "open" lines, its requests and its "close" lines
# to the first's log (one header), on the same clock, so a rank's logged writes add up
# to its bytes. The second round goes on where the first stopped: a sequential job
# writes no block twice before its file is full.
# iolog_check LOG: a valid version 3 log (one header, each file added once, requests
# only on an open file, every open closed, times never going back); prints how many
# times its files were opened (the same for each), the bytes its writes add up to and
# how many writes went to an offset written before.
iolog_check() {
	awk 'NR == 1 { if ($0 != "fio version 3 iolog") bad = "no header"; next }
	$0 == "fio version 3 iolog" { bad = "a second header at line " NR; next }
	NF == 2 && $2 == "add" { if (added[$1]++) bad = $1 " added twice"; next }
	NF == 2 && $2 == "open" {
		if (!added[$1] || isopen[$1]) bad = "open of " $1 " at line " NR
		isopen[$1] = 1; opens[$1]++; next
	}
	NF == 2 && $2 == "close" {
		if (!isopen[$1]) bad = "close of " $1 " at line " NR
		isopen[$1] = 0; next
	}
	NF == 5 {
		if (!isopen[$2]) bad = "a request to a closed file at line " NR
		if ($1 + 0 < last) bad = "the time goes back at line " NR
		last = $1 + 0
		if ($3 == "write") { sum += $5; if (seen[$2 " " $4]++) again++ }
		next
	}
	{ bad = "line " NR ": " $0 }
	END {
		n = -1
		for (f in added) {
			if (isopen[f]) bad = f " left open"
			if (n >= 0 && opens[f] != n) bad = "files opened unequally"
			n = opens[f]
		}
		if (bad != "") print "bad: " bad; else printf "%d %.0f %d\n", n, sum, again
	}' "$1"
}
for nj in 1 2; do
	mpi_run 2 "$IOB" job --name=w --rw=write --bs=4k --size=64m --time_based --runtime=3600 \
		--sync=dsync --numjobs=$nj --group_reporting --stonewall 0.5 --wearout \
		--write_iolog=log --no-space-check --no-store --format json --quiet > w.json 2> err ||
		{ cat err; fail "job --wearout (numjobs=$nj) exited $?"; }
	r='(.rows[] | select(.phase == "aggregate"))'
	most=$(jq "[$r.ranks[].stonewall_bytes] | max" w.json)
	for rk in 0 1; do
		sum=0
		sw=$(jq "$r.ranks[$rk].stonewall_bytes" w.json)
		c=0
		while [ $c -lt $nj ]; do
			l=log.$rk
			[ "$nj" -eq 1 ] || l=log.$c.$rk
			[ -f "$l" ] || fail "no request log $l (numjobs=$nj)"
			got=$(iolog_check "$l")
			case $got in
			bad:*) fail "$l (numjobs=$nj): $got" ;;
			esac
			again=${got##* }
			got=${got% *}
			# each thread its own 64 MiB file: until it is full, no offset twice
			[ "${got#* }" -gt 67108864 ] || [ "$again" -eq 0 ] ||
				fail "$l: $again writes to blocks written before (the round began again)"
			# the busiest rank has no second round; another's first thread has one
			if [ "$sw" -eq "$most" ]; then
				[ "${got% *}" -eq 1 ] || fail "$l: opened ${got% *} times, not once"
			elif [ $c -eq 0 ]; then
				[ "${got% *}" -eq 2 ] || fail "$l: opened ${got% *} times, not twice"
			else
				[ "${got% *}" -eq 1 ] || [ "${got% *}" -eq 2 ] ||
					fail "$l: opened ${got% *} times"
			fi
			sum=$((sum + ${got#* }))
			c=$((c + 1))
		done
		b=$(jq "$r.ranks[$rk].bytes" w.json)
		[ "$b" -eq "$sum" ] ||
			fail "rank $rk's logged writes are $sum bytes, not its $b (numjobs=$nj)"
	done
	rm -f log.*
	for p in aggregate write; do
		r="(.rows[] | select(.phase == \"$p\"))"
		jq_true w.json "$r.ranks[0].bytes == $r.ranks[1].bytes and
			$r.bytes == ([$r.ranks[].bytes] | add)"
	done
	r='(.rows[] | select(.phase == "aggregate"))'
	jq_true w.json "$r.ranks[0].bytes == ([$r.ranks[].stonewall_bytes] | max) and
		.options.wearout == \"1\""
done
[ -z "$(ls | grep -v '\.json$\|^err$\|^out$')" ] || fail "left behind: $(ls)"
exit 0
