# A phase on a layered device, through the runner: ext4 on a loop device over a file in
# the temp dir. `dd oflag=dsync` there has the loop device as the top of its device
# figures and the temp dir's device as its backing one; the loop device wrote at least
# the bytes dd wrote (each dsync write reaches it), so write amplification is at least
# 1; and the phase's wait states show the writer asleep (D or S) in a sync or writeback
# path, as top's WCHAN column would. Needs root and loop devices; everything made here
# is removed.
. tests/cli/lib
is_root || skip "needs root to make loop devices"
have_feature diskstats || skip "no device statistics in this build"
command -v losetup > /dev/null 2>&1 || skip "losetup missing (util-linux)"
command -v mkfs.ext4 > /dev/null 2>&1 || skip "mkfs.ext4 missing (e2fsprogs)"
command -v jq > /dev/null || skip "jq is not installed (scripts/install-deps test)"
loop=""
cleanup_hooks='umount "$T/mnt" 2>/dev/null; [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null;'
truncate -s 128M "$T/img" || fail "cannot make an image"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "cannot attach a loop device"
mkfs.ext4 -q -F "$loop" > /dev/null 2>&1 || fail "mkfs.ext4 on $loop"
mkdir "$T/mnt" && mount "$loop" "$T/mnt" || fail "cannot mount $loop"

"$IOB" dd if=/dev/zero of="$T/mnt/f" bs=4k count=1500 oflag=dsync --sample-interval 5ms \
	--format json --no-store > "$T/d.json" 2> "$T/err" || { cat "$T/err"; fail "dd"; }
j=$T/d.json
top=$(jq -r '.rows[0].system.devices[0].name' "$j")
[ "$top" = "${loop#/dev/}" ] || fail "the top device is '$top', not ${loop#/dev/}"
[ "$(jq -r '.rows[0].system.devices[0].role' "$j")" = top ] || fail "role of the top"
jq -e '.rows[0].system.devices | length >= 2' "$j" > /dev/null ||
	fail "the loop device's backing device is missing"
[ "$(jq -r '.rows[0].system.devices[1].role' "$j")" = backing ] || fail "no backing role"
bytes=$(jq '.rows[0].bytes' "$j")
wr=$(jq '.rows[0].system.devices[0].wr_bytes' "$j")
[ "$wr" -ge "$bytes" ] || fail "the loop device wrote $wr bytes of dd's $bytes dsync bytes"
jq -e '.rows[0].system.write_amplification >= 1' "$j" > /dev/null ||
	fail "write amplification under 1 for dsync writes: $(jq '.rows[0].system.write_amplification' "$j")"
jq -e '.rows[0].system.devices[0].f_s != null' "$j" > /dev/null || echo "note: no flush counts"
# the writer slept in the sync path (wchan as root is readable)
have_feature waitstate || skip "no wait states in this build"
[ "$(jq '.rows[0].system.wchan_hidden' "$j")" = true ] && skip "wchan is hidden here"
sync_re='sync|jbd2|journal|writeback|folio_wait|wait_on_page|wait_on_buffer|bit_wait|io_schedule|blk_|bio|balance_dirty|wbt_|rq_qos|wait_for_completion|filemap_|ext4_'
jq -e --arg re "$sync_re" '[.rows[0].system.wait[] | select((.state == "D" or
	.state == "S") and (.wchan | test($re)))] | length >= 1' "$j" > /dev/null ||
	{ jq -c '.rows[0].system.wait' "$j"; fail "no D or S state in a sync path"; }
# the text names the loop device
"$IOB" dd if=/dev/zero of="$T/mnt/g" bs=64k count=64 conv=fdatasync --no-store > "$T/out" ||
	fail "dd text"
grep -q "system: ${loop#/dev/} util" "$T/out" || { cat "$T/out"; fail "no system line"; }
exit 0
