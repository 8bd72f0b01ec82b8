# fio's queue policy on an asynchronous engine: one completion reaped at a time unless
# iodepth_batch_complete_max says more (fio's default is the min, 1), so the queue stays
# full: at iodepth=8, fio's IO depths line has (nearly) all I/O at 8 and the complete
# line all reaps in the 1-4 bucket; with iodepth_batch_complete_max=8 the job runs and
# its distributions still add up.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
have_feature io_uring || skip "this build has no io_uring engine"
mkdir "$T/w" && cd "$T/w" || exit 1
cat > q.fio <<'JOB'
[global]
ioengine=io_uring
size=8m
bs=4k
rw=randread
iodepth=8
[one]
[batch]
stonewall
iodepth_batch_complete_max=8
JOB
"$IOB" job --no-store --quiet --format fio-json q.fio > q.json 2> err || {
	grep -q "io_uring" err && skip "io_uring refused here: $(head -n 1 err)"
	cat err
	fail "job failed"
}
python3 - q.json <<'PY' || fail "the IO depths distributions"
import json, sys
one, batch = json.load(open(sys.argv[1]))["jobs"]
d = one["iodepth_level"]
assert d["8"] >= 99.0, d
c = one["iodepth_complete"]
assert c["4"] == 100.0, c
for j in (one, batch):
    for k in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
        assert abs(sum(j[k].values()) - 100) < 0.5, (j["jobname"], k, j[k])
assert batch["read"]["total_ios"] == 2048, batch["read"]["total_ios"]
PY
