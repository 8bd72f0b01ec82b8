# The wait-state sampler, pointed at another process doing synchronous writes (dd with
# oflag=dsync: every write waits for the device), must see that process asleep (D or S)
# in a kernel function of the sync and writeback paths. Which one depends on the kernel
# and the file system (folio_wait_bit, jbd2_log_wait_commit, xlog_wait, ...), so any
# sync-related name passes. Where wchan is hidden from this user the test skips.
. tests/cli/lib
tool=./tests/unit/t_sampler
[ -x "$tool" ] || fail "tests/unit/t_sampler is not built (make units)"
[ -d /proc/self/task ] || skip "no /proc/self/task"

dd if=/dev/zero of="$T/f" bs=4k count=100000 oflag=dsync 2>/dev/null &
ddpid=$!
cleanup_hooks="kill $ddpid 2>/dev/null;"
sleep 0.3
"$tool" wait 2 "$ddpid" > "$T/out" 2>&1
rc=$?
kill "$ddpid" 2>/dev/null
wait "$ddpid" 2>/dev/null
cleanup_hooks=""
cat "$T/out"
[ $rc -eq 3 ] && skip "no wait states in this build"
[ $rc -eq 0 ] || fail "t_sampler wait failed"
grep -q '^passes [1-9]' "$T/out" || fail "no wait-state pass"
grep -q '^observations [1-9]' "$T/out" || fail "the dd process was not observed"
grep -q '^hidden 1$' "$T/out" && skip "wchan is hidden from this user"
grep -q '^hidden -1$' "$T/out" && fail "dd never slept in two seconds of dsync writes"
# key STATE WCHAN SYSCALL COUNT
sync_re='sync|jbd2|journal|writeback|folio_wait|wait_on_page|wait_on_buffer|bit_wait|io_schedule|blk_|bio|balance_dirty|wbt_|rq_qos|xlog|xfs_|btrfs_|f2fs_|wait_for_completion|filemap_'
awk -v re="$sync_re" '$1 == "key" && ($2 == "D" || $2 == "S") && $3 ~ re { found = 1 }
	END { exit !found }' "$T/out" ||
	fail "no D or S state with a sync-related wait channel"
exit 0
