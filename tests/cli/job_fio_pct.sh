# size=N% and offset=N% of an existing file as fio 3.33 computes them: N% of the length
# multiplied before dividing (a 64 MiB file read at 100% is 16384 reads, not one less),
# the offset rounded up to the smallest block size, a size in percent stopping at the
# file's end. The figures are fio's on the same file (fixed here, so the test runs
# without fio too; job_vs_fio.sh compares with the installed fio).
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
# 64 MiB and 12345 bytes of data (a length no block size divides)
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * (262144 + 48) + b"x" * 57)' \
	> "$T/p.dat" || exit 1
[ "$(wc -c < "$T/p.dat")" = $((64 * 1048576 + 12345)) ] || fail "test file size"
run() { # WANT_IOS WANT_FIRST WANT_END OPTIONS...: the requests and the region they cover
	want=$1 first=$2 end=$3; shift 3
	rm -f "$T/l.log"
	(cd "$T" && "$IOB" job --no-store --quiet --overwrite --name=p --filename=p.dat \
		--rw=read --write_iolog=l.log "$@") > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "job failed: $*"; }
	got=$(awk '$3 == "read" { n++; if (n == 1) f = $4; e = $4 + $5 } END { print n, f, e }' \
		"$T/l.log")
	[ "$got" = "$want $first $end" ] || fail "$*: got '$got', fio does '$want $first $end'"
}
run 16387 0 67121152 --bs=4k --size=100%
run 5407 0 22147072 --bs=4k --size=33%
run 10979 22151168 67121152 --bs=4k --offset=33%
run 8193 22151168 55709696 --bs=4k --offset=33% --size=50%
run 10979 22151168 67121152 --bs=4k --offset=33% --size=80%
run 4915 6721536 67117056 --bs=12k --offset=10%
exit 0
