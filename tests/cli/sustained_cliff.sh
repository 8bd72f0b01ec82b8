# iobattery sustained finds a cliff made on purpose: a loop device with ext4, written by
# a process in a cgroup of this test's own whose throttle lets 50 MB/s through, cut to
# 10 MB/s once the run's file holds half of the 128 MiB it may write. The knee must lie
# within 10% of the file's size when the cut was made, or within one interval's writing
# (the throttle, once lowered, holds writes back longer than the new rate needs, which
# the knee's model of one fall inside one interval places early); the burst and
# sustained rates must be near the two limits; the run stops after the hold, well before
# its size limit. The loop device is given a crafted NVMe hwmon (IOB_SYSFS_ROOT,
# observe/devtemp.h) at 40 C, warning at 70 C, raised to 80 C when the throttle is cut:
# the series holds a temperature per interval, and the knee is flagged throttled.
# verify --result passes on the result and names cliff_bytes once it is edited by hand.
# Needs root, loop devices, mkfs.ext4 and a cgroup write throttle (v2 io or v1 blkio);
# skips otherwise. A few seconds.
. tests/cli/lib
need_fs_matrix losetup mkfs.ext4 mount umount
command -v python3 > /dev/null || skip "python3 missing"
loop="" mnt="$T/mnt" cg=""
cleanup_hooks='[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null;
umount "$mnt" 2>/dev/null; [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null;
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null;'
pid=""
truncate -s 512M "$T/img" || fail "cannot make an image"
loop=$(losetup -f --show --direct-io=on "$T/img" 2> /dev/null) ||
	loop=$(losetup -f --show "$T/img" 2> /dev/null) || skip "cannot attach a loop device"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" > /dev/null 2>&1 || fail "mkfs.ext4 on $loop"
mkdir "$mnt" && mount "$loop" "$mnt" || fail "cannot mount $loop"
name=${loop#/dev/}
dev=$(cat "/sys/block/$name/dev") || fail "no device number for $loop"
# the throttle: a cgroup of this test's own, its rule on this loop device alone (cgroup
# v2's io.max, or v1's blkio where that is what the machine has)
if grep -qw io /sys/fs/cgroup/cgroup.subtree_control 2> /dev/null; then
	cg=/sys/fs/cgroup/iobattery-sustained.$$
	limit() { echo "$dev wbps=$1" > "$cg/io.max"; }
elif [ -f /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
	cg=/sys/fs/cgroup/blkio/iobattery-sustained.$$
	limit() { echo "$dev $1" > "$cg/blkio.throttle.write_bps_device"; }
else
	skip "no blkio throttle here (cgroup v2 io controller, or v1 blkio)"
fi
mkdir "$cg" 2> /dev/null || { cg=""; skip "cannot make a cgroup"; }
limit 50000000 2> /dev/null || skip "cannot throttle $loop"
sh -c 'echo $$ > "$1/cgroup.procs"' sh "$cg" 2> /dev/null ||
	skip "cannot move a process into the cgroup $cg"
hw=$T/tree/sys/class/hwmon/hwmon0
mkdir -p "$T/tree/sys/class/block/$name" "$hw" "$T/tree/sys/devices/pci0/nvme0" || fail "mkdir"
ln -s ../../../devices/pci0/nvme0 "$T/tree/sys/class/block/$name/device" || fail "ln"
ln -s ../../../devices/pci0/nvme0 "$hw/device" || fail "ln"
echo nvme > "$hw/name"
echo 40000 > "$hw/temp1_input"
echo 70000 > "$hw/temp1_max"
size_of() { # bytes the run has written: its file's size (it writes from offset 0)
	f=$(ls -d "$mnt"/iobattery.*/sustained.dat 2> /dev/null | head -n 1)
	[ -n "$f" ] && stat -c %s "$f" 2> /dev/null || echo 0
}
IOB_SYSFS_ROOT=$T/tree sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" sustained -d "$3" --size 128m --step 0.2 \
	--hold 5 --no-store --format json --quiet' sh "$cg" "$IOB" "$mnt" > "$T/r.json" \
	2> "$T/err" &
pid=$!
half=$((64 * 1048576))
while [ "$(size_of)" -lt $half ]; do
	kill -0 "$pid" 2> /dev/null || break
	sleep 0.01
done
# hot as it slows (a new file put in place at once: a reading never sees half of it)
echo 80000 > "$hw/t" && mv "$hw/t" "$hw/temp1_input" || fail "cannot raise the temperature"
limit 10000000 || fail "cannot lower the throttle"
made=$(size_of)
wait "$pid"
st=$?
pid=""
[ "$st" = 0 ] || { cat "$T/err"; fail "sustained exited $st"; }
echo "throttle cut at $made bytes"
python3 - "$T/r.json" "$made" <<'PY' || fail "the cliff"
import json, sys
d = json.load(open(sys.argv[1]))
made = int(sys.argv[2])
r = [x for x in d['rows'] if x['phase'] == 'write'][0]
m = {x['name']: x['value'] for x in r['metrics']}
print('cliff found at %d bytes (%.1f s), made at %d; burst %.1f MB/s, sustained %.1f MB/s; '
      'stopped by %s' % (m.get('cliff_bytes', -1), m.get('cliff_s', -1), made,
      m['burst_rate'], m.get('sustained_rate', -1), r['params']['stopped_by']))
if m['knee_found'] != 1:
    sys.exit('no knee found')
# the throttle's transient after the cut can put the knee up to one interval's writing
# (--step 0.2 s) at the burst rate early (docs/methodology.md, "Testing without an SSD")
step = m['burst_rate'] * 1e6 * 0.2
if abs(m['cliff_bytes'] - made) > max(0.10 * made, step * 1.05):
    sys.exit('the cliff is more than 10%% (or one interval, %d bytes) away from where it '
             'was made' % step)
if not (30 < m['burst_rate'] < 60 and 5 < m['sustained_rate'] < 14):
    sys.exit('the rates are not the two limits')
if r['params']['stopped_by'] != 'knee' or r['bytes'] >= 128 * 1048576:
    sys.exit('it did not stop at the knee')
s = r['series']
temps = s.get('temp_c') or []
print("temperatures: %s" % temps)
if len(temps) != len(s['t_ns']) or temps[0] != 40 or temps[-1] != 80:
    sys.exit('the series does not hold the temperature of each interval')
if m.get('throttled') != 1 or 'throttled' not in r['note']:
    sys.exit('a fall as the device reached its warning temperature is not throttled')
PY
"$IOB" verify --result "$T/r.json" > "$T/out" 2>&1 || { cat "$T/out"; fail "verify --result"; }
# the size before the cliff edited by hand, the digest made again: the figure is named
result_edit "$T/r.json" "$T/e2.json" "for x in d['rows'][0]['metrics']:
    if x['name'] == 'cliff_bytes':
        x['value'] += 1048576"
expect_exit 1 "$IOB" verify --result "$T/e2.json"
expect_out "metrics.cliff_bytes: is"
grep -q ": digest:" "$T/out" && fail "the digest made again still fails"
exit 0
