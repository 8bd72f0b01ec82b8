# Request and byte counts equal to what the installed fio (3.33) does with the same fio
# command line, for jobs whose counts do not depend on random draws: number_ios above
# what size holds (fio stops at size), number_ios below it, loops, rw=read:8k skips and
# read:-8k going back, randread:4 follow-ups, fdatasync=1 (no sync after the last write),
# fsync=3 with end_fsync (not counted as a sync), numjobs, offset, nrfiles, bsrange with
# the random map (bytes only: the split into requests follows the draws), libaio and
# io_uring at depth.
. tests/cli/lib
command -v fio > /dev/null 2>&1 || skip "fio is not installed"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
mkdir "$T/fio" "$T/us" || exit 1
summ='
import json, sys
out = []
for jb in json.load(sys.stdin)["jobs"]:
    r, w = jb["read"], jb["write"]
    if sys.argv[1] == "total":
        out.append("%s %d %d" % (jb["jobname"], r["total_ios"] + w["total_ios"],
                   r["io_bytes"] + w["io_bytes"]))
    elif sys.argv[1] == "bytes":
        out.append("%s %d %d" % (jb["jobname"], r["io_bytes"], w["io_bytes"]))
    else:
        out.append("%s r=%d/%d w=%d/%d s=%d" % (jb["jobname"], r["total_ios"], r["io_bytes"],
                   w["total_ios"], w["io_bytes"], jb["sync"]["lat_ns"]["N"]))
print(" | ".join(out))'
n=0
same() { # WHAT ARGS...: fio and we agree on WHAT (counts, total of both, or bytes)
	what=$1; shift
	a=$(cd "$T/fio" && fio --output-format=json "$@" 2> /dev/null | python3 -c "$summ" "$what")
	b=$(cd "$T/us" && "$IOB" job --no-store --quiet --format fio-json "$@" 2> "$T/err" |
		python3 -c "$summ" "$what")
	[ -n "$a" ] || fail "fio failed: $*"
	[ "$a" = "$b" ] || { cat "$T/err"; echo "fio: $a" >&2; echo "us:  $b" >&2; fail "differ: $*"; }
	n=$((n + 1))
	no_scratch "$T/us"
}
same counts --name=b --size=4m --rw=randread --bs=4k --number_ios=5000
same counts --name=c --size=4m --rw=randread --bs=4k --number_ios=100
same counts --name=d --size=2m --rw=read --bs=4k --loops=3
same counts --name=e --size=4m --rw=read:8k --bs=4k
same counts --name=o --size=1m --rw=read:-8k --bs=4k
same counts --name=f --size=4m --rw=randread:4 --bs=4k
same counts --name=h --size=1m --rw=write --bs=8k --fdatasync=1
same counts --name=i --size=1m --rw=write --bs=8k --fsync=3 --end_fsync=1
same counts --name=k --size=2m --rw=randwrite --bs=4k --numjobs=2
same counts --name=l --size=2m --offset=1m --rw=read --bs=4k
same counts --name=m --size=2m --nrfiles=4 --rw=read --bs=4k
same total --name=a --size=2m --rw=randrw --bs=4k --rwmixread=30 --ioengine=null
same bytes --name=j --size=4m --rw=randread --bsrange=4k-16k
if have_feature libaio; then
	same counts --name=p --size=4m --rw=write --bs=64k --ioengine=libaio --iodepth=8 --direct=1
else
	echo "skip the libaio case: this build has no libaio"
fi
if "$IOB" job --no-store -q --name=u --ioengine=io_uring --size=64k --rw=read > /dev/null 2>&1; then
	same counts --name=q --size=4m --rw=randread --bs=4k --ioengine=io_uring --iodepth=16
else
	echo "skip the io_uring case: io_uring cannot run here"
fi
echo "$n jobs agree with fio"
exit 0
