# fio's priorities per request (cmdprio_percentage, cmdprio_class, cmdprio and both forms
# of cmdprio_bssplit) on libaio: the requests they pick carry their own I/O priority,
# the others the thread's (prio, prioclass), as the priority column of fio's latency log
# shows with log_prio=1; fio gives the same pairs of block size and priority for the
# same job. With a synchronous engine they are warned about and not applied (fio takes
# them only with libaio and io_uring). Classes 2 and 3 only: the real-time class needs
# a privilege.
. tests/cli/lib
have_feature libaio || skip "this build has no libaio"
cd "$T" || exit 1
pairs() { awk -F', ' '{ print $4 "/" $5 }' "$1" | sort -u | tr '\n' ' '; }
job() { # NAME OPTIONS...: a libaio job of 256 reads, its clat log NAME_clat.1.log
	n=$1; shift
	"$IOB" job --no-store --quiet --name="$n" --filename=p.dat --size=1m --rw=randread \
		--ioengine=libaio --iodepth=4 --write_lat_log="$n" --log_prio=1 "$@" > out 2>&1 ||
		{ cat out; fail "$n: the job failed"; }
}
# cmdprio_bssplit, its own class and level per entry: every 4k read at best-effort 1,
# every 8k one at the thread's priority (idle, level 0: prioclass=3)
job a --bssplit=4k/50:8k/50 --cmdprio_bssplit=4k/100/2/1:8k/0 --prioclass=3
[ "$(pairs a_clat.1.log)" = "4096/0x4001 8192/0x6000 " ] || fail "bssplit: $(pairs a_clat.1.log)"
# the first form: the entries take cmdprio_class and cmdprio
job b --bssplit=4k/50:8k/50 --cmdprio_bssplit=8k/100 --cmdprio_class=3 --cmdprio=5
[ "$(pairs b_clat.1.log)" = "4096/0x0000 8192/0x6005 " ] || fail "bssplit 2: $(pairs b_clat.1.log)"
# cmdprio_percentage: all of them; half of them
job c --bs=4k --cmdprio_percentage=100 --cmdprio_class=2 --cmdprio=6
[ "$(pairs c_clat.1.log)" = "4096/0x4006 " ] || fail "percentage 100: $(pairs c_clat.1.log)"
job d --bs=4k --cmdprio_percentage=50 --cmdprio_class=2 --cmdprio=6
[ "$(pairs d_clat.1.log)" = "4096/0x0000 4096/0x4006 " ] ||
	fail "percentage 50: $(pairs d_clat.1.log)"
# psync: warned, none applied
"$IOB" job --no-store --quiet --name=e --filename=p.dat --size=64k --rw=randread \
	--write_lat_log=e --log_prio=1 --cmdprio_percentage=100 > out 2>&1 || fail "psync failed"
grep -q "cmdprio\*: ioengine=psync sets no priority per request" out || { cat out; fail "no warning"; }
[ "$(pairs e_clat.1.log)" = "4096/0x0000 " ] || fail "psync: $(pairs e_clat.1.log)"
if command -v fio > /dev/null 2>&1; then
	mkdir fio && cd fio || exit 1
	fio --name=a --filename=p.dat --size=1m --rw=randread --ioengine=libaio --iodepth=4 \
		--write_lat_log=a --log_prio=1 --bssplit=4k/50:8k/50 \
		--cmdprio_bssplit=4k/100/2/1:8k/0 --prioclass=3 > out 2>&1 || fail "fio failed"
	[ "$(pairs a_clat.1.log)" = "4096/0x4001 8192/0x6000 " ] ||
		fail "fio now gives $(pairs a_clat.1.log)"
	cd ..
fi
no_scratch .
exit 0
