# exitall with fio's exit_what: when a job with exitall finishes, the jobs of its group
# stop (group, the default), or every job running, whatever its group (stonewall), or
# those and every job of the later steps, which then do no I/O (all), as fio 3.33 does.
# A job that must be stopped runs time_based for 30 s: a run that does not stop it shows
# a runtime of 30 s, whatever the machine's speed.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
cd "$T" || exit 1
show='
import json, sys
print(" ".join("%s:%d:%s" % (j["jobname"], j["read"]["total_ios"],
                             "cut" if j["read"]["runtime"] < 25000 else "full")
               for j in json.load(sys.stdin)["jobs"]))'
mk() { # EXIT_WHAT C_OPTIONS: a finishes at once; b (its group) would run 30 s; c is in a
	# group of its own; d is the next step
	printf '[global]\nfilename=e.dat\nbs=4k\nsize=64k\nrate_iops=100\n' > e.fio
	printf '[a]\nrw=read\nsize=16k\nrate_iops=0\nexitall\nexit_what=%s\n' "$1" >> e.fio
	printf '[b]\nrw=read\ntime_based\nruntime=30\n' >> e.fio
	printf '[c]\nnew_group\nrw=read\n%s\n' "$2" >> e.fio
	printf '[d]\nstonewall\nrw=read\nrate_iops=0\n' >> e.fio
}
run() { # WANT (a pattern: b and c do as many reads as they can before a is done)
	"$IOB" job --no-store --quiet --format fio-json e.fio 2> err | python3 -c "$show" > got ||
		{ cat err; fail "job failed"; }
	grep -q "^$1\$" got || { cat e.fio; fail "got '$(cat got)', want '$1'"; }
}
# group: b stops with a; c, another group, does its 16 reads; d runs
mk group ""
run "a:4:cut b:[0-9]*:cut c:16:cut d:16:cut"
# stonewall: c stops too
mk stonewall "time_based
runtime=30"
run "a:4:cut b:[0-9]*:cut c:[0-9]*:cut d:16:cut"
# all: and d, the next step, does nothing
mk all "time_based
runtime=30"
run "a:4:cut b:[0-9]*:cut c:[0-9]*:cut d:0:cut"
no_scratch .
exit 0
