#!/bin/sh
# Workloads never call an engine or an I/O system call themselves: every request and
# metadata call goes through the runner (src/runner/ioctx.h), which times and counts it.
# This test fails when a file under src/workload/ calls one directly, outside the
# allow-list below (each entry: file, call, and why it must stay).
set -u
cd "$(dirname "$0")/../.." || exit 1

calls='read|write|pread|pwrite|preadv|pwritev|fsync|fdatasync|open|openat|creat|close|unlink|unlinkat|mkdir|mkdirat|rmdir|stat|fstat|lstat|fstatat|statx|lseek|ftruncate|truncate|link|linkat|symlink|symlinkat|rename|renameat|fallocate|posix_fallocate|sync|syncfs|copy_file_range|sendfile|dup|fopen|fdopen|msync|io_uring_[a-z_]+|io_submit|io_getevents'

# file|call|reason
allow='
bonnie/bonnie_io.c|dup|the putc/getc method is stdio itself: its FILE gets its own descriptor
bonnie/bonnie_io.c|fdopen|the putc/getc method is stdio itself (putc_unlocked/getc_unlocked)
bonnie/bonnie_io.c|close|closes that dup when fdopen fails
postmark/postmark_lang.c|stat|checks a directory the user named in "set location" while parsing
db/db_pgserver.c|*|runs a PostgreSQL server: its log, data directory and lock files, not measured I/O
db/db_sqlite.c|*|SQLite does the measured I/O itself; this removes its files afterwards
job/job_parse.c|fopen|reads the job file and its includes (input, not measured I/O)
iozone/iozone_stdio.c|fopen|the iozone tests 6 and 7 (fwrite, fread) are stdio itself: the FILE is what is measured
job/job_xcheck.c|stat|the parse checks: whether filename= is a block device (zonemode=zbd), whether the system lists NUMA nodes; not measured I/O
job/job_logs.c|*|the fio log files (write_bw_log, write_lat_log ...): output the user asked for, not measured I/O
job/job_iolog.c|fopen|write_iolog: the log of the requests the user asked for (output, not measured I/O)
job/job_layout.c|stat|the length a fill_device=1 file reached, for the message that it was kept (after the run, not measured I/O)
job/job_check.c|*|the safety checks of the plan: what each named file is (lstat, holes, a trim probe) before anything runs, not measured I/O
*_cmd.c|*|a command face (dd/dd_cmd.c ...): checks the paths the user typed before anything runs, and reads or writes the files the command itself is given (a script, a report file), not measured I/O
'

# comments are stripped first: a line that starts one, and /* ... */ after code
hits=$(grep -nE "(^|[^_a-zA-Z0-9>.])($calls)[[:space:]]*\(" -r src/workload --include='*.c' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)' | sed -E 's|/\*.*\*/||g' |
	grep -E "(^|[^_a-zA-Z0-9>.])($calls)[[:space:]]*\(")
engine=$(grep -nE '(->|\.)(submit|reap|init|exit|cwrite|cread|openat|close)[[:space:]]*\(|engine_(openat|close|fstat|fstatat|unlinkat|mkdirat|renameat|linkat|symlinkat|ftruncate|fallocate|lseek|syncfs)[[:space:]]*\(' \
	-r src/workload --include='*.c' | grep -E '(e|eng|engine)->|engine_')
bad=0
printf '%s\n' "$hits" | while IFS= read -r line; do
	[ -n "$line" ] || continue
	file=${line%%:*}
	file=${file#src/workload/}
	call=$(printf '%s\n' "$line" | sed -E "s/^[^:]+:[0-9]+://" |
		grep -oE "(^|[^_a-zA-Z0-9>.])($calls)[[:space:]]*\(" | head -n 1 |
		sed -E 's/^[^a-z_]*//; s/[[:space:]]*\($//')
	ok=$(printf '%s\n' "$allow" | awk -F'|' -v f="$file" -v c="$call" \
		'($1 == f || ($1 == "*_cmd.c" && f ~ /_cmd\.c$/)) && ($2 == c || $2 == "*") { print "y"; exit }')
	if [ "$ok" != y ]; then
		echo "direct I/O call in a workload: $line"
		echo x
	fi
done > "${TESTS_TMP:-/tmp}/no_raw_io.$$"
if grep -q '^x$' "${TESTS_TMP:-/tmp}/no_raw_io.$$"; then
	grep -v '^x$' "${TESTS_TMP:-/tmp}/no_raw_io.$$"
	bad=1
fi
rm -f "${TESTS_TMP:-/tmp}/no_raw_io.$$"
if [ -n "$engine" ]; then
	echo "engine called directly from a workload:"
	printf '%s\n' "$engine"
	bad=1
fi
# the test itself must be able to fail: a planted call is caught
probe=$(printf 'static void f(void) { fsync(3); }\n' |
	grep -cE "(^|[^_a-zA-Z0-9>.])($calls)[[:space:]]*\(")
if [ "$probe" != 1 ]; then
	echo "the pattern misses a planted fsync() call"
	bad=1
fi
[ "$bad" = 0 ] && echo "no direct I/O calls in src/workload"
exit "$bad"
