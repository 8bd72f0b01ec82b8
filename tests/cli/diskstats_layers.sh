# The layered-device walk on real devices: a loop device over a file in the temp dir
# gives [loop, the temp dir's device]; a partitioned loop device with a file system,
# looked up from a path inside it, gives [loopNp1, loopN, the temp dir's device]; a loop
# device over a file on that file system gives all four, each reached from the one
# before. Needs root and loop devices; every loop device made here is detached.
. tests/cli/lib
is_root || skip "needs root to make loop devices"
command -v losetup >/dev/null 2>&1 || skip "losetup missing (util-linux)"
tool=./tests/unit/t_sampler
[ -x "$tool" ] || fail "tests/unit/t_sampler is not built (make units)"
"$tool" devices / > /dev/null 2>&1
[ $? -eq 1 ] && skip "no device statistics in this build"

loops=""
mnt=""
cleanup_hooks='[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; for l in $loops; do losetup -d "$l" 2>/dev/null; done;'
# field IDX COLUMN: column (1-based) of the line for device IDX in $T/out
field() { awk -v i="$1" -v c="$2" '$1 == "dev" && $2 == i {print $c}' "$T/out"; }
# expect IDX NAME ROLE PARENT: device IDX of $T/out is NAME, reached as ROLE from PARENT
expect_dev() {
	got="$(field "$1" 3) $(field "$1" 5) $(field "$1" 6)"
	[ "$got" = "$2 $3 $4" ] || fail "device $1 is '$got', not '$2 $3 $4'"
}
devices() {
	"$tool" devices "$1" > "$T/out" || { cat "$T/out"; fail "no devices for $1"; }
	cat "$T/out"
}

# the temp dir's own device, the bottom of every stack below
"$tool" devices "$T" > "$T/base"
base=$(awk '$1 == "dev" && $2 == 0 {print $3}' "$T/base")
echo "temp dir on: ${base:-no block device}"

# 1. a loop device over a file
truncate -s 64M "$T/img1" || fail "cannot make an image"
l1=$(losetup -f --show "$T/img1" 2>/dev/null) || skip "cannot attach a loop device"
loops="$l1 $loops"
devices "$l1"
expect_dev 0 "${l1#/dev/}" top -1
[ -n "$base" ] && expect_dev 1 "$base" backing 0

# 2. a file system on a loop device, found from a path inside it. The image gets an MBR
# with one Linux partition from sector 2048 to the end (129024 sectors); a kernel that
# reads it makes loopNp1 and the file system goes there, else on loopN itself.
command -v mkfs.ext4 >/dev/null 2>&1 || { echo "no mkfs.ext4: stops here"; exit 0; }
truncate -s 64M "$T/img2"
printf '\000\000\002\000\203\377\377\377\000\010\000\000\000\370\001\000' |
	dd of="$T/img2" bs=1 seek=446 conv=notrunc 2>/dev/null
printf '\125\252' | dd of="$T/img2" bs=1 seek=510 conv=notrunc 2>/dev/null
l2=$(losetup -f --show -P "$T/img2" 2>/dev/null) || fail "cannot attach a second loop device"
loops="$l2 $loops"
d2=${l2#/dev/}
n=0
while [ ! -d "/sys/block/$d2/${d2}p1" ] && [ $n -lt 20 ]; do sleep 0.05; n=$((n + 1)); done
n=0
while [ -d "/sys/block/$d2/${d2}p1" ] && [ ! -b "${l2}p1" ] && [ $n -lt 100 ]; do
	sleep 0.05; n=$((n + 1))
done
if [ -b "${l2}p1" ]; then
	fs="${l2}p1"
else
	echo "the kernel made no partition device for $l2: the file system goes on $l2"
	fs="$l2"
fi
mkfs.ext4 -q -F "$fs" > /dev/null 2>&1 || fail "mkfs.ext4 on $fs failed"
mkdir "$T/m"
mount "$fs" "$T/m" 2>/dev/null || { echo "cannot mount $fs: stops here"; exit 0; }
mnt="$T/m"
devices "$T/m"
grep -q "^fstype ext4" "$T/out" || fail "the file system is not named ext4"
if [ "$fs" != "$l2" ]; then
	expect_dev 0 "${d2}p1" top -1
	[ "$(field 0 7)" = part=1 ] || fail "${d2}p1 is not marked a partition"
	expect_dev 1 "$d2" disk 0
	below=1
else
	expect_dev 0 "$d2" top -1
	below=0
fi
[ -n "$base" ] && expect_dev $((below + 1)) "$base" backing "$below"

# 3. a loop device over a file on that file system: every layer, each reached from the
# one before
truncate -s 16M "$T/m/img3"
l3=$(losetup -f --show "$T/m/img3" 2>/dev/null) || fail "cannot attach a loop device on $fs"
loops="$l3 $loops"
devices "$l3"
expect_dev 0 "${l3#/dev/}" top -1
expect_dev 1 "${fs#/dev/}" backing 0
[ "$fs" != "$l2" ] && expect_dev 2 "$d2" disk 1
[ -n "$base" ] && expect_dev $((below + 2)) "$base" backing $((below + 1))

losetup -d "$l3" || fail "cannot detach $l3"
umount "$T/m" || fail "cannot unmount $T/m"
mnt=""
for l in $l2 $l1; do losetup -d "$l" || fail "cannot detach $l"; done
loops=""
exit 0
