# Block-layer latency against the outside: a 256 MiB dd with oflag=direct and
# conv=fdatasync on the temp dir's disk prints a device: line, whose request count equals
# the completed requests /proc/diskstats counts for the same devices over the same window
# (the tool reads the file just before opening the window and just after closing it)
# within 1%, and whose mean time per request (device time plus queue time) agrees with
# diskstats' await over that window within 25% + 0.05 ms (await starts when the block
# layer allocates the request, a little before it is queued). The window lies inside the
# command: the device's completions read around the whole command are at least as many.
# Skips without BPF in the build, as non-root, or on a temp dir without a block device.
. tests/cli/lib
have_feature bpf || skip "built without BPF (clang, bpftool, libbpf)"
is_root || skip "loading the BPF program needs root"
df -P "$T" > /dev/null 2>&1 || skip "no df"
dev_of() { jq -r '.rows[0].device_latency.devices // empty' "$1"; }

mkdir "$T/o" || fail "mkdir"
expect_exit 0 "$IOB" dd if=/dev/zero of="$T/f" bs=64k count=4096 oflag=direct \
	conv=fdatasync --no-store --format text,json --output-dir "$T/o"
json=$T/o/iobattery-results.json
[ -s "$json" ] || fail "no JSON result"
reason=$(jq -r '.rows[0].device_latency.reason // empty' "$json")
case $reason in
*"no block device"*|"") ;;
*) skip "no block-layer latency here: $reason" ;;
esac
[ -n "$(dev_of "$json")" ] || skip "the temp dir has no block device behind it"
grep -q '^  device: ' "$T/o/iobattery-results.txt" 2>/dev/null || grep -q '^  device: ' "$T/out" ||
	fail "no device: line in the text"
dl() { jq -r ".rows[0].device_latency.$1" "$json"; }
req=$(dl requests) ds=$(dl diskstats_requests) await=$(dl diskstats_await_ms)
echo "requests $req, diskstats $ds, await $await ms"
[ "$req" -ge 4096 ] || fail "fewer requests than dd wrote: $req"
awk -v a="$req" -v b="$ds" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * b) }' ||
	fail "device: line counts $req requests, /proc/diskstats $ds (over 1% apart)"
mean=$(jq '.rows[0].device_latency.ops | [.[] | .device.n] as $n |
	([.[] | (.device.mean_ns + .queue.mean_ns) * .device.n] | add) / ($n | add) / 1e6' "$json")
echo "mean device + queue time $mean ms"
awk -v m="$mean" -v a="$await" 'BEGIN { d = m - a; if (d < 0) d = -d; exit !(d <= 0.25 * a + 0.05) }' ||
	fail "mean time per request $mean ms, diskstats await $await ms"
# the device line's figures in the text are the JSON's
line=$(grep -h '^  device: ' "$T/out" | head -n 1)
case $line in
*"$(dev_of "$json"), $req requests"*) ;;
*) fail "the device: line does not say the JSON's count: $line" ;;
esac
# --no-device-latency: no figures at all
expect_exit 0 "$IOB" dd if=/dev/zero of="$T/g" bs=64k count=16 oflag=direct --no-store \
	--no-device-latency --format json
jq -e '.rows[0].device_latency == null' "$T/out" > /dev/null ||
	fail "--no-device-latency still measured"
exit 0
