# fio's logs: write_bw_log, write_lat_log, write_iops_log, write_hist_log with
# log_avg_msec, log_hist_msec and per_job_logs, in fio's names (the same set of files fio
# makes for the same job, where fio is installed) and lines; an existing file is never
# overwritten; fio's own readers in Debian's fio package take ours: fio2gnuplot,
# fio_generate_plots (with gnuplot) and fiologparser_hist.py (with numpy and pandas).
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1
logs="--write_bw_log=L --write_lat_log=L --write_iops_log=L --write_hist_log=L"
# 2 threads of 512 reads and writes of 4k each
expect_exit 0 "$IOB" job --no-store --quiet --name=j --rw=randrw --bs=4k --size=4m \
	--numjobs=2 --log_hist_msec=20 $logs
names="L_bw.1.log L_bw.2.log L_clat.1.log L_clat.2.log L_clat_hist.1.log L_clat_hist.2.log L_iops.1.log L_iops.2.log L_lat.1.log L_lat.2.log L_slat.1.log L_slat.2.log"
[ "$(ls L_* | tr '\n' ' ')" = "$names " ] || fail "log files: $(ls)"
for f in L_bw.1.log L_iops.2.log L_lat.1.log L_clat.2.log; do
	[ "$(wc -l < $f)" = 1024 ] || fail "$f: $(wc -l < $f) lines, not one per request"
	grep -vqE '^[0-9]+, [0-9]+, [01], 4096, 0$' $f && fail "$f: not fio's line: $(grep -vE '^[0-9]+, [0-9]+, [01], 4096, 0$' $f | head -n 1)"
done
awk -F', ' '$2 != 1 { exit 1 }' L_iops.1.log || fail "an iops line per request is not 1"
[ -s L_slat.1.log ] && fail "psync has no submission latency: the slat log is empty (as fio's)"
awk -F', ' '$1 < p { exit 1 } { p = $1 }' L_clat.1.log || fail "times go backwards"
# the histogram log: time, direction, bs, fio's 1856 bins; every request counted once
awk -F', ' 'NF != 1859 { exit 1 } { for (i = 4; i <= NF; i++) n += $i } END { if (n != 1024) exit 1 }' \
	L_clat_hist.1.log || fail "histogram lines: $(awk -F, '{print NF}' L_clat_hist.1.log | sort -u)"

# log_avg_msec: a line per direction seen in each window, bs 0; per_job_logs=0 one file
mkdir avg && cd avg || exit 1
expect_exit 0 "$IOB" job --no-store --quiet --name=a --rw=randrw --bs=4k --size=4m \
	--numjobs=2 --rate_iops=1000 --log_avg_msec=50 --per_job_logs=0 --write_bw_log \
	--write_iops_log=A
[ "$(ls | tr '\n' ' ')" = "A_iops.log a_bw.log " ] || fail "shared logs: $(ls)"
grep -vqE '^[0-9]+, [0-9]+, [01], 0, 0$' a_bw.log && fail "windowed bw line: $(head -n 2 a_bw.log)"
awk -F', ' '$1 % 50 != 0 { odd++ } END { exit odd > 4 }' A_iops.log ||
	fail "window ends are not multiples of 50 ms (but each thread's last)"
# both threads in the one file: 1000 I/Os a second each direction each thread, 0.5 s
n=$(awk -F', ' '$1 % 50 == 0 && $2 > 0 { n++ } END { print n + 0 }' A_iops.log)
[ "$n" -ge 8 ] || { cat A_iops.log; fail "too few windows in the shared log"; }
cd ..

# --repeat: the first repeat's logs only (a second would find its files made); a shared
# log across stonewall steps gets each step's lines, appended to the file the run made
mkdir rep && cd rep || exit 1
expect_exit 0 "$IOB" job --no-store --quiet --repeat 2 --name=r --rw=read --bs=4k --size=256k \
	--write_bw_log=R
[ "$(wc -l < R_bw.1.log)" = 64 ] || fail "--repeat 2: $(wc -l < R_bw.1.log) lines, not 64"
printf '[global]\nbs=4k\nsize=256k\nwrite_bw_log=S\nper_job_logs=0\n[a]\nrw=read\n[b]\nstonewall\nrw=write\n' > s.fio
expect_exit 0 "$IOB" job --no-store --quiet s.fio
[ "$(cut -d, -f3 S_bw.log | sort | uniq -c | tr -s ' ')" = "$(printf ' 64 0\n 64 1')" ] ||
	fail "shared log over two steps: $(cut -d, -f3 S_bw.log | sort | uniq -c)"
cd ..

# log_offset: the offset before the priority; log_prio=1: the priority as fio's hex
# ioprio, the one prio and prioclass set for the thread (best-effort level 3: 0x4003;
# none set: 0x0000); windowed lines offset and priority 0
mkdir off && cd off || exit 1
printf '[global]\nbs=4k\nsize=64k\nwrite_lat_log=O\n[a]\nrw=read\nlog_offset=1\n' > o.fio
printf '[b]\nstonewall\nrw=randread\nlog_prio=1\nprioclass=2\nprio=3\n' >> o.fio
printf '[c]\nstonewall\nrw=read\n' >> o.fio
printf 'log_offset=1\nlog_prio=1\nlog_avg_msec=1000\n' >> o.fio
expect_exit 0 "$IOB" job --no-store --quiet o.fio
[ "$(cut -d, -f5 O_clat.1.log | tr -d ' ' | tr '\n' ' ')" = \
  "0 4096 8192 12288 16384 20480 24576 28672 32768 36864 40960 45056 49152 53248 57344 61440 " ] ||
	fail "log_offset: offsets $(cut -d, -f5 O_clat.1.log | tr '\n' ' ')"
grep -vqE '^[0-9]+, [0-9]+, 0, 4096, [0-9]+, 0$' O_lat.1.log && fail "log_offset line: $(head -n 1 O_lat.1.log)"
grep -vqE '^[0-9]+, [0-9]+, 0, 4096, 0x4003$' O_lat.2.log && fail "log_prio line: $(head -n 1 O_lat.2.log)"
[ "$(wc -l < O_lat.2.log)" = 16 ] || fail "log_prio: $(wc -l < O_lat.2.log) lines"
grep -vqE '^[0-9]+, [0-9]+, 0, 0, 0, 0x0000$' O_lat.3.log && fail "windowed line: $(head -n 1 O_lat.3.log)"
if command -v fio > /dev/null 2>&1; then	# fio's lines have the same shape
	mkdir fio && cd fio && sed 's/^bs=4k/bs=4k\nfilename=data/' ../o.fio > o.fio || exit 1
	fio o.fio > /dev/null 2>&1 || fail "fio failed on o.fio"
	for f in O_lat.1.log O_lat.2.log O_lat.3.log; do
		[ "$(sed 's/[0-9]*, [0-9]*, /T, V, /' $f | sort -u)" = \
		  "$(sed 's/[0-9]*, [0-9]*, /T, V, /' ../$f | sort -u)" ] ||
			fail "$f: fio's $(head -n 1 $f), ours $(head -n 1 ../$f)"
	done
	cd ..
fi
cd ..

# an existing file: refused before any I/O, left as it was, nothing else made
mkdir keep && cd keep || exit 1
echo mine > K_bw.1.log
expect_exit 2 "$IOB" job --no-store --quiet --name=k --rw=read --bs=4k --size=64k --write_bw_log=K \
	--write_iops_log=K
expect_out "log file exists: 'K_bw.1.log'"
[ "$(cat K_bw.1.log)" = mine ] || fail "an existing log was overwritten"
[ "$(ls)" = K_bw.1.log ] || fail "made files although refused: $(ls)"
# a link in the log's place (even one to nowhere) is not followed
rm K_bw.1.log && ln -s "$T/elsewhere" K_iops.1.log
expect_exit 2 "$IOB" job --no-store --quiet --name=k --rw=read --bs=4k --size=64k --write_iops_log=K
expect_out "log file exists: 'K_iops.1.log'"
[ -e "$T/elsewhere" ] && fail "wrote through a link"
[ "$(ls)" = K_iops.1.log ] || fail "made files although refused: $(ls)"
cd ..

# the same job through fio makes the same set of files
if command -v fio > /dev/null 2>&1; then
	mkdir fio && cd fio || exit 1
	fio --name=j --rw=randrw --bs=4k --size=4m --numjobs=2 --log_hist_msec=20 $logs \
		--filename=data > /dev/null 2>&1 || fail "fio failed"
	rm -f data
	[ "$(ls | tr "\n" " ")" = "$names " ] || fail "fio's files differ: $(ls | tr "\n" " ")"
	cd ..
fi

# fio's readers
if command -v fio2gnuplot > /dev/null 2>&1; then
	mkdir g && cp L_bw.1.log L_bw.2.log g/ && cd g || exit 1
	fio2gnuplot -b -t ours > out.txt 2>&1 || { cat out.txt; fail "fio2gnuplot failed"; }
	grep -q 'L_bw.1.log' out.txt || { cat out.txt; fail "fio2gnuplot did not take our logs"; }
	awk -F= '$1 == "avg" { exit !($2 > 0) }' result.global || fail "fio2gnuplot: no average"
	cd ..
fi
if command -v fio_generate_plots > /dev/null 2>&1 && command -v gnuplot > /dev/null 2>&1; then
	mkdir p && cp L_*.log p/ && cd p || exit 1
	fio_generate_plots ours > out.txt 2>&1 || { cat out.txt; fail "fio_generate_plots failed"; }
	for k in bw iops lat clat; do
		grep -q '<path' ours-$k.svg || fail "fio_generate_plots drew no $k"
	done
	cd ..
fi
flh=/usr/share/doc/fio/fiologparser_hist.py.gz
if [ -f $flh ] && /usr/bin/python3 -c 'import numpy, pandas' 2> /dev/null; then
	zcat $flh > flh.py
	/usr/bin/python3 flh.py --noweight -i 100 L_clat_hist.1.log > flh.txt 2>&1 ||
		{ cat flh.txt; fail "fiologparser_hist.py failed"; }
	# its samples column counts our requests (unweighted: each window whole in one line)
	awk -F', ' 'NR > 1 { n += $2 } END { exit n != 1024 }' flh.txt ||
		{ cat flh.txt; fail "fiologparser_hist.py does not count 1024 requests"; }
fi
exit 0
