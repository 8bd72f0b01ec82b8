# The options of the second job table act as fio 3.33 acts (the figures are fio's on the
# same command lines): io_size past and short of size, offset_increment per clone,
# filename_format naming files several clones share, zonemode=strided (sequential and
# random), fio's file engines, a filename= file the job made kept (and said) or removed
# with unlink=1, cpus_allowed naming a CPU that does not exist, zonemode=zbd refused.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
cd "$T" || exit 1
counts='
import json, sys
print(" ".join("%d/%d" % (j["read"]["total_ios"], j["read"]["io_bytes"])
               for j in json.load(sys.stdin)["jobs"]))'
same() { # WANT OPTIONS...: the jobs' read requests/bytes
	want=$1; shift
	got=$("$IOB" job --no-store --quiet --format fio-json --name=x --size=1m --bs=4k \
		--rw=read "$@" 2> err | python3 -c "$counts") || { cat err; fail "$*: failed"; }
	[ "$got" = "$want" ] || { cat err; fail "$*: got '$got', fio does '$want'"; }
	no_scratch .
}
same "768/3145728" --io_size=3m
same "128/524288" --io_size=512k
same "768/3145728" --io_size=3m --rw=randread
same "2/2097152" --io_size=2500k --bs=1m
same "256/1048576 256/1048576 256/1048576" --offset_increment=1m --numjobs=3 --filename=oi.dat
[ "$(wc -c < oi.dat)" = 3145728 ] || fail "offset_increment: oi.dat is not 3 MiB"
rm -f oi.dat
same "256/1048576" --zonemode=strided --zonesize=128k --zoneskip=256k --write_iolog=z.log
[ "$(awk '$3 == "read" { print $4 }' z.log | sort -n | tail -1)" = 913408 ] ||
	fail "zonemode=strided: the last offset is not fio's 913408"
awk '$3 == "read" { z = int($4 / 131072); if (z % 3) bad++ } END { exit bad > 0 }' z.log ||
	fail "zonemode=strided: a read outside the 128 KiB zones every 384 KiB"
same "256/1048576" --zonemode=strided --zonesize=128k --zonerange=512k --rw=randread
same "50/204800" --ioengine=filestat --nrfiles=50 --filesize=4k
same "50/204800" --ioengine=filecreate --nrfiles=50 --filesize=4k
same "50/204800" --ioengine=filedelete --nrfiles=50 --filesize=4k
# falloc: each request a fallocate (reads too, as fio), trims holes punched; ftruncate:
# each write truncates the file to its offset (fio leaves a 1 MiB write job's file at
# 1044480 bytes)
same "256/1048576" --ioengine=falloc --filename=fa.dat
rm -f fa.dat
expect_exit 0 "$IOB" job --no-store --quiet --name=t --size=1m --rw=write \
	--ioengine=ftruncate --filename=ft.dat
[ "$(wc -c < ft.dat)" = 1044480 ] || fail "ftruncate: ft.dat is $(wc -c < ft.dat) bytes"
rm -f ft.dat
expect_exit 2 "$IOB" job --parse-only --name=t --size=1m --rw=read --ioengine=ftruncate
expect_out "ioengine=ftruncate truncates on writes only"
# fio 3.37's directory engines (this fio has none: the figures follow the file engines')
same "20/81920 20/81920" --ioengine=dircreate --nrfiles=20 --filesize=4k --numjobs=2
same "20/81920" --ioengine=dirstat --nrfiles=20 --filesize=4k
same "20/81920" --ioengine=dirdelete --nrfiles=20 --filesize=4k
# two clones naming the same files share them (fio: one file per name)
expect_exit 0 "$IOB" job --no-store --quiet --name=f --size=1m --rw=write --numjobs=2 \
	--nrfiles=2 '--filename_format=f.$filenum' --showcmd
# a filename= file the job made: kept and said, or removed with unlink=1
expect_exit 0 "$IOB" job --no-store --quiet --name=k --size=1m --rw=write --filename=k.dat
expect_out "iobattery: job: kept 'k.dat' (1.00 MiB), made by this job (unlink=1 removes it)"
[ -f k.dat ] || fail "k.dat is not kept"
rm -f k.dat
expect_exit 0 "$IOB" job --no-store --quiet --name=k --size=1m --rw=write --filename=k.dat \
	--unlink=1
expect_out "removed 'k.dat' (1.00 MiB), made by this job (unlink=1)"
[ ! -e k.dat ] || fail "unlink=1 left k.dat"
# options that change only what fio prints change what the fio summary and JSON show
# (slat needs an asynchronous engine: libaio, which a --posix-only build lacks)
if have_feature libaio; then
	"$IOB" job --no-store --quiet --name=g --size=64k --rw=read --ioengine=libaio \
		--disable_clat=1 > out 2>&1 || fail "disable_clat run failed"
	grep -q "slat (" out && grep -q " lat (" out || fail "disable_clat: slat or lat line missing"
	! grep -q "clat (\|clat percentiles" out || fail "disable_clat: a clat line is printed"
fi
"$IOB" job --no-store --quiet --format fio-json --name=g --size=64k --rw=read \
	--gtod_reduce=1 > out 2>&1 || fail "gtod_reduce run failed"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
sys.exit(0 if (r["slat_ns"]["N"], r["clat_ns"]["N"], r["lat_ns"]["N"]) == (0, 0, 0) and
         "percentile" not in r["clat_ns"] and r["total_ios"] == 16 else 1)' out ||
	fail "gtod_reduce: fio-json still shows latencies"
# refusals naming why
expect_exit 2 "$IOB" job --parse-only --name=z --zonemode=zbd --filename=/dev/null
expect_out "zonemode=zbd needs a zoned block device as filename=, and '/dev/null' is not one"
expect_exit 2 "$IOB" job --parse-only --name=z --size=1m --ioengine=filedelete --filename=x
expect_out "filename= is not allowed with it"
expect_exit 2 "$IOB" job --parse-only --name=b --size=1m --buffer_pattern=0x
expect_out "0xHEX, 'text' or a decimal number"
if [ "$(uname -s)" = Linux ]; then
	expect_exit 1 "$IOB" job --no-store --quiet --name=c --size=64k --cpus_allowed=1023
	expect_out "cpus_allowed: cannot bind the thread"
	no_scratch .
fi
exit 0
