# iozone: bad input gives one clear line and exit 2 and creates nothing; SIGINT in the
# middle of the matrix exits 130 with the partial matrix printed, marked interrupted,
# and every file removed.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1

bad() { # MESSAGE ARGS...: exit 2, MESSAGE on one line, nothing made here
	msg=$1; shift
	expect_exit 2 "$IOB" iozone "$@" --no-store
	expect_out "$msg"
	[ "$(wc -l < "$T/out")" = 1 ] || { cat "$T/out"; fail "more than one line for: $*"; }
	[ -z "$(ls -A)" ] || fail "'$*' created: $(ls -A)"
}
bad "file size must be at least 1 kB: '0'" -s 0
bad "record size not a power of two: '3k'" -r 3k
bad "record size larger than the file size" -s 64k -r 1m
bad "no such test: '-i 99'" -i 99
bad "minimum file size above the maximum" -n 2m -g 1m
bad "bad worker count (-t): '0'" -t 0
bad "cannot use directory: '$T/nope'" -s 64k -i 0 -b "$T/nope/x.xlsx"
bad "needs -i 0" -i 1
touch "$T/afile"
bad "not a directory" -f "$T/afile/x"
bad "iozone option not supported: '-B'" -B
bad "needs an asynchronous engine" -k 4 -i 0
bad "-i 8 (random mix) runs only in throughput mode" -i 0 -i 8

# SIGINT: the whole -a grid runs for long; stop it once the first cells are done
"$IOB" iozone -a -i 0 -i 1 --no-store --no-space-check --quiet > "$T/int" 2>&1 &
pid=$!
i=0
while ! ls -d iobattery.* > /dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { cat "$T/int"; fail "exit status $rc, expected 130"; }
grep -q 'iozone: interrupted: the matrix above stops there' "$T/int" ||
	{ cat "$T/int"; fail "partial matrix not marked interrupted"; }
grep -qE '^ +64 +4 +[0-9]' "$T/int" || { cat "$T/int"; fail "no partial matrix printed"; }
no_scratch .
[ -z "$(ls -A)" ] || fail "files left behind: $(ls -A)"
exit 0
