# Ceilings: every result carries the run's (env.ceilings: the link, the memory copy rate)
# and each row its own (ceiling) with the flags they call for.
# 1. dd on the null engine (no I/O, 4 M requests of 512 bytes) is bound by the tool: a row
#    on the null engine is the tool's own loop at its settings, its own limit (tool_bound),
#    and its bytes per second, which no memory copied, are flagged over_ceiling exactly
#    when they pass the memory copy rate; the text says the figures behind both.
# 2. A job on the null engine is likewise its own limit, at its own settings (iodepth=8).
# 3. A crafted sysfs tree (IOBATTERY_SYSFS_ROOT) gives the temp dir's disk a 12 Mb/s USB
#    link (1.5 MB/s): a 16 MiB direct write is over_ceiling, the link applies, its words
#    are in env.ceilings. Skipped where the temp dir has no block device.
. tests/cli/lib
command -v jq > /dev/null || skip "jq missing"

expect_exit 0 "$IOB" dd if=/dev/zero of="$T/f" bs=512 count=4000000 --engine null --no-store \
	--format json
cp "$T/out" "$T/null.json"
jq -e '.env.ceilings.memory_copy_bytes_s > 0' "$T/null.json" > /dev/null ||
	fail "no memory copy rate in env.ceilings"
jq -e '.rows[0].flags | index("tool_bound")' "$T/null.json" > /dev/null ||
	fail "dd on the null engine is not tool_bound: $(jq -c '.rows[0] | [.cpu, .ceiling]' "$T/null.json")"
# over the memory ceiling exactly when its bytes per second are above the memory copy
# rate (usually: it copied nothing; a sanitizer build's null loop may be slower)
jq -e '.rows[0] | ((.flags | index("over_ceiling")) != null) ==
	(.ceiling.rate_bytes_s > .ceiling.memory_copy_bytes_s)' "$T/null.json" > /dev/null ||
	fail "dd on the null engine: over_ceiling does not follow from its figures: $(jq -c \
		'.rows[0] | [.flags, .ceiling]' "$T/null.json")"
jq -e '.rows[0].ceiling.tool_settings | test("^the row itself: .*depth 1, 1 thread, bs 512")' \
	"$T/null.json" > /dev/null || fail "the tool's limit is not the row itself"
rm -f "$T/f"
# the text gives the figures behind both flags
expect_exit 0 "$IOB" dd if=/dev/zero of="$T/f" bs=512 count=400000 --engine null --no-store
if grep -q "^  over_ceiling: " "$T/out"; then
	grep -Eq "^  ceiling: [0-9.]+ [kMGT]?B/s against the memory copy's [0-9.]+ [kMGT]?B/s$" \
		"$T/out" || { cat "$T/out"; fail "no ceiling line in the text"; }
else
	grep -q "^  ceiling: " "$T/out" && fail "a ceiling line without over_ceiling"
fi
grep -Eq "^  tool's limit: [0-9.]+ M requests/s, [0-9.]+ ns CPU a request$" "$T/out" ||
	fail "no tool's limit line in the text"
expect_out "    measured:  the row itself: the null engine does no I/O (depth 1, 1 thread,"
expect_out "               bs 512)"
rm -f "$T/f"

expect_exit 0 "$IOB" job --name=n --rw=randread --bs=4k --size=4M --ioengine=null \
	--iodepth=8 --number_ios=200000 -d "$T" --no-store --format json
jq -e '[.rows[] | select(.phase == "read")][0] | (.flags | index("tool_bound")) and
	.ceiling.tool_ops_s == .ceiling.rate_ops_s and
	(.ceiling.tool_settings | test("^the row itself: the null engine does no I/O " +
		"\\(depth 8, 1 thread, bs 4096\\)$"))' \
	"$T/out" > /dev/null ||
	fail "a job on the null engine is not its own limit: $(jq -c '[.rows[] |
		select(.phase == "read")][0] | [.flags, .ceiling]' "$T/out")"

dev=$(jq -r '.env.device // empty' "$T/null.json")
[ -n "$dev" ] || skip "the temp dir has no block device (parts 1 and 2 passed)"
have_feature o_direct || skip "no O_DIRECT (parts 1 and 2 passed)"
s=$T/sys u=devices/pci0000:00/0000:00:14.0/usb1/1-1
mkdir -p "$s/block/$dev" "$s/$u/1-1:1.0/host0/target0:0:0/0:0:0:0" || fail "mkdir"
echo 0781 > "$s/$u/idVendor"
echo 12 > "$s/$u/speed"
ln -s "../../$u/1-1:1.0/host0/target0:0:0/0:0:0:0" "$s/block/$dev/device" || fail "ln"
IOBATTERY_SYSFS_ROOT=$s expect_exit 0 "$IOB" dd if=/dev/zero of="$T/g" bs=1M count=16 \
	oflag=direct --no-store --format json
jq -e '.env.ceilings | .link_kind == "usb" and .link == "USB 12 Mb/s" and
	.link_bytes_s == 1500000' "$T/out" > /dev/null ||
	fail "the crafted USB link is not in env.ceilings: $(jq -c .env.ceilings "$T/out")"
jq -e '.rows[0] | (.flags | index("over_ceiling")) and .ceiling.applies == "link"' \
	"$T/out" > /dev/null ||
	fail "a write faster than the link is not over_ceiling: $(jq -c '.rows[0] | [.flags, .ceiling]' "$T/out")"
exit 0
