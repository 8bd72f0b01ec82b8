# iobattery sustained reads the device's temperature at the end of every knee interval
# and keeps it in the row's series beside the bytes of each interval (temp_c), shows it
# in the text and the report. The temperature comes from a crafted sysfs tree
# (IOB_SYSFS_ROOT, observe/devtemp.h): an NVMe hwmon for the temp dir's disk at 47.5 C,
# warning at 70 C. Without the tree the series has no temp_c and the text no line.
# verify --result passes on the result and names temp_max_c once it is edited by hand.
# Skipped where the temp dir has no block device.
. tests/cli/lib
command -v jq > /dev/null || skip "jq missing"
command -v python3 > /dev/null || skip "python3 missing"

run() {
	expect_exit 0 "$IOB" sustained -d "$T" --size 96m --bs 1m --step 0.01 --hold 1000 \
		--no-store --format "$1" --quiet
}
run json
dev=$(jq -r '.env.device // empty' "$T/out")
[ -n "$dev" ] || skip "the temp dir has no block device"
jq -e '.rows[0].series | (.t_ns | length) > 0 and has("temp_c") == false' "$T/out" \
	> /dev/null || fail "a series without a sensor has temp_c: $(jq -c .rows[0].series "$T/out")"
run text
grep -q '^  temperature:' "$T/out" && fail "a temperature line without a sensor"

s=$T/tree
mkdir -p "$s/sys/class/block" "$s/sys/class/hwmon/hwmon3" "$s/sys/devices/pci0/nvme9" ||
	fail "mkdir"
mkdir "$s/sys/class/block/$dev" || fail "mkdir"
ln -s ../../../devices/pci0/nvme9 "$s/sys/class/block/$dev/device" || fail "ln"
ln -s ../../../devices/pci0/nvme9 "$s/sys/class/hwmon/hwmon3/device" || fail "ln"
echo nvme > "$s/sys/class/hwmon/hwmon3/name"
echo 47500 > "$s/sys/class/hwmon/hwmon3/temp1_input"
echo 70000 > "$s/sys/class/hwmon/hwmon3/temp1_max"
IOB_SYSFS_ROOT=$s run json
jq -e '.rows[0] | (.series.t_ns | length) as $n | $n > 0 and
	(.series.temp_c | length) == $n and all(.series.temp_c[]; . == 47.5) and
	.params.temp_source == "nvme" and
	([.metrics[] | select(.name == "temp_warn_c")][0].value == 70) and
	([.metrics[] | select(.name == "temp_max_c")][0].value == 47.5)' "$T/out" > /dev/null ||
	fail "no temperature per interval: $(jq -c '.rows[0] | [.series, .params.temp_source]' \
		"$T/out")"
n=$(jq '.rows[0].series.t_ns | length' "$T/out")
# verify --result follows temp_max_c from the readings, and names it once edited by hand
cp "$T/out" "$T/t.json"
expect_exit 0 "$IOB" verify --result "$T/t.json"
result_edit "$T/t.json" "$T/e2.json" "for x in d['rows'][0]['metrics']:
    if x['name'] == 'temp_max_c':
        x['value'] += 5"
expect_exit 1 "$IOB" verify --result "$T/e2.json"
expect_out "metrics.temp_max_c: is 52.5, its data give 47.5"
IOB_SYSFS_ROOT=$s run text
# (the line is wrapped at 80 columns: its continuation lines joined again)
tr -s ' \n' '  ' < "$T/out" |
	grep -q " temperature: 47.5 C at [0-9.]* s.* ([0-9]* readings, one an interval) " ||
	{ sed 's/^/  | /' "$T/out" >&2; fail "no temperature line in the text"; }
mkdir "$T/o" || fail "mkdir"
IOB_SYSFS_ROOT=$s expect_exit 0 "$IOB" sustained -d "$T" --size 96m --bs 1m --step 0.01 \
	--hold 1000 --quiet --format json --output-dir "$T/o" --label temp
expect_exit 0 "$IOB" report "$T/o/iobattery-results.json" -o "$T/r.html"
grep -q "device temperature" "$T/r.html" || fail "no temperature chart in the report"
echo "$n intervals, each with its temperature"
exit 0
