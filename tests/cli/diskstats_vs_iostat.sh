# The device figures against sysstat's own iostat -dx.
#
# 1. Every formula, exactly: iostat reads crafted counters from an alternative directory
#    (-f DIR, DIR/block/NAME/stat) and prints its first report, the figures since boot:
#    the counters over the uptime. t_sampler computes the same counters from zero over the
#    uptime read just before. Means per request and shares must agree to iostat's two
#    decimals; rates to 1e-4 of their value as well, since the two programs read
#    /proc/uptime a few milliseconds and at most a centisecond tick apart, on an uptime of
#    at least a minute (a relative difference below 2e-4 even then; 1e-4 at ten minutes).
#    The lines cover all 17 fields, a kernel's 11 (no discard or flush figures), and a
#    device with no reads, writes or discards (every mean 0, none divided by zero).
# 2. Live: dd writes with oflag=dsync while t_sampler and iostat -dx -y T 1 sample the
#    device of the temp dir over the same T seconds; w/s and wkB/s must agree within 3%
#    (plus 2 requests/s or 8 kB/s for a slow device). Why 3%: both programs start within
#    a few milliseconds of each other and sleep T, so their windows differ by that offset
#    at each end; on a steady dsync stream that is 2 x 10 ms / 3 s = 0.7% at most, and
#    iostat measures its interval in 1/100 s (0.3% of 3 s). Other programs writing to the
#    same disk inside those few milliseconds can spoil one attempt: three attempts, one
#    must agree (each is printed).
# 3. As root with loop devices: the same on a loop device over a file in the temp dir,
#    which only this test writes to: three attempts again, the same tolerance.
. tests/cli/lib
command -v iostat >/dev/null 2>&1 || skip "iostat missing (sysstat)"
tool=./tests/unit/t_sampler
[ -x "$tool" ] || fail "tests/unit/t_sampler is not built (make units)"
[ -r /proc/uptime ] && [ -r /proc/diskstats ] || skip "no /proc/uptime or /proc/diskstats"
"$tool" devices / > /dev/null 2>&1
[ $? -eq 1 ] && skip "no device statistics in this build"

# compare OURS THEIRS DEV COLUMNS REL ABS: every named column (or "all") of iostat's line
# for DEV agrees with t_sampler's key/value lines within ABS + REL x |value|.
compare() {
	awk -v dev="$3" -v cols="$4" -v rel="$5" -v abs="$6" '
		FNR == NR { ours[$1] = $2; next }
		$1 == "Device" { for (i = 2; i <= NF; i++) name[i] = $i; nf = NF; next }
		$1 == dev && nf {
			seen = 1
			for (i = 2; i <= nf; i++) {
				if (cols != "all" && index(" " cols " ", " " name[i] " ") == 0)
					continue
				if (!(name[i] in ours)) { print "no figure " name[i]; bad = 1; continue }
				d = ours[name[i]] - $i; if (d < 0) d = -d
				t = $i < 0 ? -$i : $i
				ok = d <= abs + rel * t
				printf "%s %-9s ours %.4f iostat %s %s\n", dev, name[i], ours[name[i]],
					$i, ok ? "ok" : "DIFFERS"
				if (!ok) bad = 1
			}
		}
		END { if (!seen) { print "iostat printed no line for " dev; bad = 1 }; exit bad }
	' "$1" "$2"
}

# 1. crafted counters
alt="$T/alt"
mkdir -p "$alt/block/sdq" "$alt/block/sdr" "$alt/block/sds"
echo "300000000 60000000 11200000000 900000000 600000000 150000000 28800000000 3000000000 3 45000000 70000000 15000000 11000000 22528000000 60000000 27000000 44000000" > "$alt/block/sdq/stat"
echo "123456 789 987654 3210 654321 0 5242880 99999 0 77777 88888" > "$alt/block/sdr/stat"
echo "0 0 0 12 0 0 0 34 1 500000 600000 0 0 0 56 4000 9000" > "$alt/block/sds/stat"
up=$(awk '{print $1}' /proc/uptime)
awk -v u="$up" 'BEGIN { exit !(u >= 60) }' || skip "uptime under a minute: rates too coarse"
iostat -dx -f "$alt" sdq sdr sds > "$T/theirs" 2>&1 || fail "iostat -f failed: $(cat "$T/theirs")"
for d in sdq sdr sds; do
	"$tool" compute "$up" - "0 0 $d $(cat "$alt/block/$d/stat")" > "$T/ours.$d" ||
		fail "t_sampler compute failed for $d"
	compare "$T/ours.$d" "$T/theirs" "$d" all 0.0001 0.011 ||
		fail "figures differ from iostat for crafted device $d"
done

# 2. live, the temp dir's device
dev=$("$tool" devices "$T" | awk '$1 == "dev" && $2 == 0 {print $3}')
# one_live TARGET DEV DDOUT: dd with dsync on DDOUT while both sample DEV; 0 when agreed
one_live() {
	dd if=/dev/zero of="$3" bs=4k count=50000 oflag=dsync 2>/dev/null &
	ddpid=$!
	sleep 0.5
	"$tool" watch "$1" 3 > "$T/ours" 2>&1 &
	tp=$!
	iostat -dx -y 3 1 "$2" > "$T/theirs" 2>&1 &
	ip=$!
	wait $tp; trc=$?
	wait $ip; irc=$?
	kill "$ddpid" 2>/dev/null
	wait "$ddpid" 2>/dev/null
	[ $trc -eq 0 ] || { cat "$T/ours"; fail "t_sampler watch failed"; }
	[ $irc -eq 0 ] || { cat "$T/theirs"; fail "iostat failed"; }
	compare "$T/ours" "$T/theirs" "$2" "w/s" 0.03 2 &&
		compare "$T/ours" "$T/theirs" "$2" "wkB/s" 0.03 8
}
if [ -n "$dev" ]; then
	agreed=0
	for attempt in 1 2 3; do
		echo "attempt $attempt on $dev"
		if one_live "$T" "$dev" "$T/dsync"; then agreed=1; break; fi
	done
	rm -f "$T/dsync"
	[ $agreed -eq 1 ] || fail "w/s or wkB/s of $dev differ from iostat in three attempts"
else
	echo "the temp dir has no block device: $("$tool" devices "$T" | head -n 1)"
fi

# 3. a loop device only this test writes to
if is_root && command -v losetup >/dev/null 2>&1; then
	truncate -s 256M "$T/img" || fail "cannot make the image"
	loop=$(losetup -f --show "$T/img" 2>/dev/null) || { echo "no loop device"; exit 0; }
	cleanup_hooks="losetup -d '$loop' 2>/dev/null;"
	name=${loop#/dev/}
	echo "loop device $name"
	# three attempts as above: the two samplers' start can lag on a loaded machine (or
	# a sanitizer build's slow start), and the dsync stream is not steady at its start
	agreed=0
	for attempt in 1 2 3; do
		echo "attempt $attempt on $name"
		if one_live "$loop" "$name" "$loop"; then agreed=1; break; fi
	done
	[ $agreed -eq 1 ] || fail "w/s or wkB/s of $name differ from iostat in three attempts"
	losetup -d "$loop" || fail "cannot detach $loop"
	cleanup_hooks=""
fi
exit 0
