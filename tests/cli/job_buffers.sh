# fio's buffer options change what a job writes, and the data really is what they ask:
# buffer_compress_percentage=50 compresses (gzip, zstd) to about half, with
# buffer_compress_chunk=1k and 70% to about 30%; dedupe_percentage=40 leaves about 60%
# distinct 4 KiB blocks; zero_buffers writes zeros; buffer_pattern repeats its bytes;
# refill_buffers does not compress; scramble_buffers (fio's default) makes every block
# distinct, and scramble_buffers=0 writes the same block again and again.
. tests/cli/lib
command -v gzip > /dev/null 2>&1 || skip "gzip is not installed"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
stats='
import hashlib, sys
d = open(sys.argv[1], "rb").read()
n = len(d) // 4096
u = len(set(hashlib.sha1(d[i * 4096:(i + 1) * 4096]).digest() for i in range(n)))
print(u * 100 // n)'
# check OPTIONS... -- GZIP_LO GZIP_HI UNIQUE_LO UNIQUE_HI: percent of the file's size
# gzip leaves, and of its 4 KiB blocks that are distinct
check() {
	opts=""
	while [ "$1" != -- ]; do opts="$opts $1"; shift; done
	shift
	rm -f "$T/c.dat"
	# shellcheck disable=SC2086
	(cd "$T" && "$IOB" job --no-store --quiet --name=c --filename=c.dat --size=4m \
		--bs=4k --rw=write $opts) > "$T/out" 2>&1 || { cat "$T/out"; fail "job failed:$opts"; }
	g=$(( $(gzip -1 -c "$T/c.dat" | wc -c) * 100 / 4194304 ))
	u=$(python3 -c "$stats" "$T/c.dat")
	[ "$g" -ge "$1" ] && [ "$g" -le "$2" ] || fail "$opts: gzip leaves $g%, not $1-$2%"
	[ "$u" -ge "$3" ] && [ "$u" -le "$4" ] || fail "$opts: $u% distinct blocks, not $3-$4%"
	if command -v zstd > /dev/null 2>&1 && [ -n "${5:-}" ]; then
		z=$(( $(zstd -q -c "$T/c.dat" | wc -c) * 100 / 4194304 ))
		[ "$z" -ge "$5" ] && [ "$z" -le "$6" ] || fail "$opts: zstd leaves $z%, not $5-$6%"
	fi
	return 0
}
check --buffer_compress_percentage=50 -- 47 53 100 100 47 53
check --buffer_compress_percentage=70 --buffer_compress_chunk=1k -- 27 33 100 100 27 33
check --dedupe_percentage=40 -- 0 100 55 65
check --dedupe_percentage=50 --buffer_compress_percentage=50 -- 0 53 45 55
check --zero_buffers -- 0 1 0 1
check --refill_buffers -- 98 101 100 100
check -- 0 100 100 100
check --scramble_buffers=0 -- 0 5 0 1
check --buffer_pattern=0xdeadbeef -- 0 1 0 1
od -A n -t x1 -N 8 "$T/c.dat" | grep -q "de ad be ef de ad be ef" ||
	fail "buffer_pattern=0xdeadbeef: the file does not repeat de ad be ef"
check "--buffer_pattern='ab'|0x01" -- 0 1 0 1
[ "$(head -c 6 "$T/c.dat")" = "$(printf 'ab\001ab\001')" ] ||
	fail "buffer_pattern='ab'|0x01: the file does not repeat a b 01"
exit 0
