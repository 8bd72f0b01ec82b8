# battery --fs ext4,xfs,btrfs on loop devices (root): the rows name their file system,
# mkfs and mount options, and the loop device stack their samplers watched; no loop device,
# mount or scratch directory is left, also after SIGINT in the middle of the second file
# system; the comparison report of the run, rendered by headless Chromium, shows the
# summary line.
. tests/cli/lib
need_fs_matrix mkfs.ext4 mkfs.xfs mkfs.btrfs losetup jq
mkdir "$T/w" "$T/o" || exit 1

leftovers() { # WHEN: no loop device over a file of $T, no mount under $T, no scratch
	losetup -a | grep -F "$T/" && fail "$1: a loop device is left"
	grep -F " $T/" /proc/self/mounts && fail "$1: a mount is left"
	no_scratch "$T/w"
	[ -z "$(ls "$T/w")" ] || fail "$1: files left in the target: $(ls "$T/w")"
}

# three file systems, sized by hand so that it is quick (the figures are flagged short)
expect_exit 0 "$IOB" battery -d "$T/w" --fs ext4,xfs@noatime,btrfs --fs-size 512m \
	--size 4m --no-store --quiet --format json --output-dir "$T/o"
j="$T/o/iobattery-results.json"
for fs in ext4 xfs btrfs; do
	n=$(jq --arg fs "$fs" '[.rows[] | select(.params.fs == $fs and .workload == "dd")]
		| length' "$j")
	[ "$n" -ge 3 ] || fail "no dd rows on $fs ($n)"
done
jq -e '[.rows[] | select(.params.fs == "xfs")] | all(.params.mount_options == "noatime"
	and .params.fs_config == "xfs@noatime")' "$j" > /dev/null ||
	fail "xfs rows do not carry their mount options"
jq -e '[.rows[] | select(.params.fs == "ext4")] | all(.params.mkfs_options == "")' "$j" \
	> /dev/null || fail "ext4 rows do not carry their mkfs options"
jq -e '.rows | map(select(.workload == "bonnie")) | length > 0' "$j" > /dev/null ||
	fail "no bonnie rows"
# the samplers watch each pass's own loop device and the disk under its image, not the
# target directory's disk alone
for fs in ext4 xfs btrfs; do
	jq -e --arg fs "$fs" '[.rows[] | select(.params.fs == $fs and .workload == "dd"
		and (.system.devices | length) > 0)] | length > 0 and all(
		(.system.devices[0].name | test("^loop[0-9]+$")) and
		.system.devices[0].role == "top" and
		any(.system.devices[]; .role == "backing"))' "$j" > /dev/null ||
		fail "the $fs rows do not name the loop device stack: $(jq -c --arg fs "$fs" \
			'[.rows[] | select(.params.fs == $fs) | .system.devices // [] |
			map("\(.name):\(.role)")] | .[0]' "$j")"
done
leftovers "after the matrix"

# the comparison report, against xfs
expect_exit 0 "$IOB" report --no-store -o "$T/r.html" --baseline xfs@noatime "$j"
grep -q 'Comparison of configurations' "$T/r.html" || fail "no comparison section"
grep -Eq '[^ <>]+ leads in [0-9]+ of [0-9]+ figures, [0-9]+ significantly' "$T/r.html" ||
	fail "no summary line"
# without the fsync step (sized by hand), the commit quoted is the database pattern's
grep -q 'latency p99 of job sync randwrite-fdatasync sync: ext4 ' "$T/r.html" ||
	fail "the summary does not quote the database pattern's commit latency"
grep -q 'Baseline: xfs@noatime' "$T/r.html" || fail "the baseline is not xfs"
grep -q 'loop device over a file on the same storage' "$T/r.html" ||
	fail "the report does not say that it compares file systems on this device"
expect_exit 2 "$IOB" report --no-store -o "$T/r2.html" --baseline zfs "$j"
[ -e "$T/r2.html" ] && fail "a report written for an unknown baseline"
chrome=""
for c in chromium chromium-browser google-chrome; do
	command -v $c > /dev/null 2>&1 && { chrome=$c; break; }
done
if [ -n "$chrome" ]; then
	mkdir "$T/prof" || exit 1
	timeout 120 $chrome --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/prof" --window-size=1400,1600 --dump-dom "file://$T/r.html" \
		> "$T/dom.html" 2> "$T/chrome.log"
	grep -Eq 'leads in [0-9]+ of [0-9]+ figures' "$T/dom.html" ||
		{ tail -5 "$T/chrome.log"; fail "the rendered page lacks the summary line"; }
	timeout 120 $chrome --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/prof" --window-size=1400,1600 --screenshot="$T/r.png" \
		"file://$T/r.html" > "$T/chrome.log" 2>&1
	[ "$(wc -c < "$T/r.png")" -gt 30000 ] || fail "the screenshot is nearly blank"
else
	echo "chromium is not installed: the report is not rendered"
fi

# SIGINT while the second file system is mounted and measured
"$IOB" battery -d "$T/w" --fs ext4,xfs --fs-size 1g --size 256m --no-store --quiet \
	> "$T/sig.out" 2>&1 &
pid=$!
i=0
while ! grep -q " $T/w/iobattery\.[^/]*/mnt-2 " /proc/self/mounts && [ $i -lt 600 ]; do
	kill -0 $pid 2> /dev/null || break
	sleep 0.1
	i=$((i + 1))
done
grep -q " $T/w/iobattery\.[^/]*/mnt-2 " /proc/self/mounts ||
	{ kill $pid; cat "$T/sig.out"; fail "the second file system never came up"; }
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$T/sig.out"; fail "exit status $rc after SIGINT, expected 130"; }
leftovers "after SIGINT"
exit 0
