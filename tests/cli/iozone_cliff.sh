# iozone's cache cliff on a small target: the run is put in a cgroup with a 24 MiB memory
# limit (v2 memory.max or v1 memory.limit_in_bytes, where this machine lets us make one),
# so that files of 4 to 16 MiB are read from the page cache and 32 and 64 MiB ones are
# not. The page cache size is found from the limit, the small files' reads are marked,
# the big ones' are not, and the cliff line names two sizes around the limit.
. tests/cli/lib
is_root || skip "making a cgroup needs root"
# a sanitizer build's own memory (shadow, quarantine, the allocator's pools) is charged to
# the cgroup as the page cache is, so the cache holds well under the limit there
san_build &&
	skip "a sanitizer build: its memory shares the cgroup's limit with the page cache"
limit=$((24 * 1024 * 1024))
cg=""
v2=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
v1=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	d="$base${v2%/}/iob-iozone.$$"
	[ -n "$v2" ] && [ -f "$base${v2%/}/cgroup.procs" ] &&
		grep -qw memory "$base${v2%/}/cgroup.subtree_control" 2> /dev/null &&
		mkdir "$d" 2> /dev/null && { cg=$d; knob=memory.max; break; }
done
if [ -z "$cg" ] && [ -n "$v1" ] && [ -d "/sys/fs/cgroup/memory${v1%/}" ]; then
	d="/sys/fs/cgroup/memory${v1%/}/iob-iozone.$$"
	mkdir "$d" 2> /dev/null && { cg=$d; knob=memory.limit_in_bytes; }
fi
[ -n "$cg" ] || skip "no writable cgroup memory controller here"
cleanup_hooks="rmdir '$cg' 2> /dev/null;"
echo "$limit" > "$cg/$knob" 2> /dev/null || skip "cannot set $cg/$knob"
mkdir "$T/w" && cd "$T/w" || exit 1

sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	"$IOB" iozone -a -n 4m -g 64m -r 1m -i 0 -i 1 -+n --no-store --quiet \
	--format text,json --output-dir "$T" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "iozone in the cgroup failed"; }
cat "$T/iobattery-results.txt"
line=$(grep 'cache cliff:' "$T/iobattery-results.txt")
case $line in
*"rates fall from"*) ;;
*) fail "no cliff found: $line" ;;
esac
python3 - "$T/iobattery-results.json" "$limit" "$line" << 'PY' || fail "the cliff is off"
import json, re, sys
d = json.load(open(sys.argv[1]))
limit = int(sys.argv[2])
assert int(d["options"]["page_cache_bytes"]) == limit, d["options"]["page_cache_bytes"]
units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
m = re.search(r"between ([0-9.]+) (\w+) and ([0-9.]+) (\w+)", sys.argv[3])
lo, hi = float(m.group(1)) * units[m.group(2)], float(m.group(3)) * units[m.group(4)]
assert lo <= 2 * limit and hi > limit, (lo, hi)
reads = {int(w["params"]["file_kb"]): w for w in d["rows"] if w["phase"] == "read"}
ram = lambda w: next(x["value"] for x in w["metrics"] if x["name"] == "ram_speed")
for kb in (4096, 8192):
    assert reads[kb]["cache_pct"] >= 90, (kb, reads[kb]["cache_pct"])
    assert "cache_inflated" in reads[kb]["flags"]
for kb in (32768, 65536):	# bigger than what the page cache can hold: never marked
    assert ram(reads[kb]) == 0, kb
assert reads[65536]["cache_pct"] < 50, reads[65536]["cache_pct"]
PY
exit 0
