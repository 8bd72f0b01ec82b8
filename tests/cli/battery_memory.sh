# battery on a file system that keeps its files in memory: the plan sizes every step
# within the memory available (not the file system's free space, which is RAM too, and
# may be more than the RAM), says the target is in memory, and skips the reads of the
# device with the reason. As root on a tmpfs mounted here four times the size of the RAM
# (its free space is then no guide at all); otherwise in /dev/shm when it is a tmpfs.
. tests/cli/lib
have_feature posix_only &&
	skip "a --posix-only build on Linux cannot tell a tmpfs (no statfs f_type, no mountinfo)"
avail_kb() { awk '/^MemAvailable:/ {print $2}' /proc/meminfo; }
[ -r /proc/meminfo ] && [ -n "$(avail_kb)" ] || skip "no MemAvailable in /proc/meminfo"
d=""
if is_root && mkdir "$T/m" &&
	mount -t tmpfs -o "size=$(awk '/^MemTotal:/ {print $2 * 4}' /proc/meminfo)k" tmpfs \
		"$T/m" 2> /dev/null; then
	cleanup_hooks="umount -l '$T/m' 2>/dev/null;"
	d="$T/m"
elif [ "$(stat -f -c %T /dev/shm 2> /dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	d=$(mktemp -d /dev/shm/iob-test.XXXXXX) || exit 1
	cleanup_hooks="rm -rf '$d';"
else
	skip "not root (to mount a tmpfs) and /dev/shm is no writable tmpfs"
fi
# an hour's budget: sized by the budget alone, the dd file would fill the free space
expect_exit 0 "$IOB" battery -d "$d" --dry-run --budget 1h
expect_out "note: the target is in memory (tmpfs): its figures are RAM figures"
grep -Eq '^  dd read +- +- +skipped: .*keeps files in memory' "$T/out" ||
	fail "the read of the device is not skipped with the reason"
# the largest step's files against the memory available now
most=$(sed -n 's/.* at most \([0-9.]*\) \([KMG]\)iB on the target at once.*/\1 \2/p' "$T/out")
[ -n "$most" ] || fail "no 'at most ... on the target' in the plan"
kb=$(echo "$most" | awk '{m = $2 == "G" ? 1048576 : $2 == "M" ? 1024 : 1; print int($1 * m)}')
[ "$kb" -gt 0 ] || fail "nothing planned on the target"
[ "$kb" -le "$(avail_kb)" ] ||
	fail "the plan puts $most on the target, more than the $(avail_kb) kB of memory available"
# each step's size too (dd's files, the largest)
awk '/^  dd write bs=1M / && $4 ~ /iB$/ {m = $4 == "GiB" ? 1048576 : $4 == "MiB" ? 1024 : 1;
	print int($3 * m)}' "$T/out" > "$T/dd"
[ ! -s "$T/dd" ] || [ "$(cat "$T/dd")" -le "$(avail_kb)" ] || fail "dd's file exceeds the memory"
no_scratch "$d"
exit 0
