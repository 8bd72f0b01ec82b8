# fio's logs and steady state across ranks: each rank writes its own log files
# (STEM_bw.N.rRANK.log, so that fio's readers' *_bw.*.log still matches), and a
# steady state attained in the first window stops a 20 s job on every rank.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
mpi_run 2 "$IOB" job --name=m --rw=randrw --bs=4k --size=1m --no-store --format json \
	--quiet --write_bw_log=M --ss=iops:100% --ss_dur=1 --time_based --runtime=20 \
	> j.json 2> err || { cat err; fail "job on 2 ranks exited $?"; }
[ "$(ls M_* | tr '\n' ' ')" = "M_bw.1.r0.log M_bw.1.r1.log " ] || fail "rank logs: $(ls)"
for f in M_bw.1.r0.log M_bw.1.r1.log; do
	[ -s $f ] || fail "$f is empty"
	grep -vqE '^[0-9]+, [0-9]+, [01], 4096, 0$' $f && fail "$f: not fio's lines"
done
jq_true j.json '[.rows[] | select(.phase == "read") | .metrics[] |
	select(.name == "ss_attained") | .value] == [1]'
jq_true j.json '(.rows[] | select(.phase == "read")).elapsed_ns < 10e9'
exit 0
