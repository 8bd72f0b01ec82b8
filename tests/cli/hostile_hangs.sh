# Nothing waits without a limit (issue 23, cases 5-8): a FIFO as a job file, an include,
# verify's file or journal is refused at once; a --report-to peer that never answers ends
# the writer; stray peers of fsync --listen are dropped while it waits for the writer,
# whose journal is capped; nrfiles=1048576 plans in seconds and a stop signal ends the
# planning; $mb_memory substitution is linear; rate=-1 is refused. Every wait here is
# bounded by timeout: a hang fails the test instead of holding it.
. tests/cli/lib
# the limits on linear work: a sanitizer build runs several times slower (still linear:
# the quadratic planner took minutes on the plain build)
slow=1
san_build && slow=8
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir w
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made
mkfifo ff
printf '[a]\nrw=write\nsize=64k\ninclude ff\n' > inc.fio

# FIFOs: refused at once (timeout 124 would mean a wait)
expect_exit 2 timeout 20 "$IOB" job --no-store ff
expect_out "job: 'ff': not a regular file"
expect_exit 2 timeout 20 "$IOB" job --no-store inc.fio
expect_out "include 'ff': not a regular file"
expect_exit 2 timeout 20 "$IOB" verify ff
expect_out "verify: not a regular file: 'ff'"
printf 'x' > data
expect_exit 2 timeout 20 "$IOB" verify --journal ff data
expect_out "verify: not a regular file: 'ff'"
# dd reads a FIFO as dd does (a pipe from another program), but says that it waits for a
# writer, and a stop signal ends the wait (exit 130), nothing left behind
expect_exit 130 timeout --preserve-status -s INT 2 "$IOB" dd --no-store if=ff of=w/out bs=4k count=1
expect_out "dd: input is a FIFO: 'ff': waiting for a writer"
[ -e w/out ] && fail "dd left its output after a stopped wait"
# a directory as a job file says so (it said "Input/output error")
expect_exit 2 timeout 20 "$IOB" job --no-store w
expect_out "job: 'w': Is a directory"

# rate=-1 would be write and trim at 1 byte/s for ever
expect_exit 2 timeout 20 "$IOB" job --no-store --name=a --rw=write --size=64k --ioengine=null \
	--rate=-1 -d w
expect_out "a rate is a positive number"

# a peer that accepts and never answers: the writer ends within its limit (10 s)
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
c, _ = s.accept(); time.sleep(60)' port.mute &
	mp=$!
	cleanup_hooks="$cleanup_hooks kill $mp 2>/dev/null;"
	for i in 1 2 3 4 5 6 7 8 9 10; do [ -s port.mute ] && break; sleep 0.5; done
	expect_exit 1 timeout 60 "$IOB" fsync -s 1 -f w/c1 --report-to "127.0.0.1:$(cat port.mute)" \
		--blocks 4 --no-store
	expect_out "cannot reach the listener"
	expect_out "no answer within the time limit"
	[ -e w/c1 ] && fail "the writer made its file although the listener never answered"
	kill $mp 2>/dev/null

	# stray peers: logged and dropped, then the writer is served; the journal is capped
	timeout 120 "$IOB" fsync --listen 127.0.0.1:0 --listen-max 2k --verify-journal "$T/j" \
		> lis.out 2>&1 &
	lp=$!
	for i in $(seq 1 40); do
		port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\);.*/\1/p' lis.out)
		[ -n "$port" ] && break
		sleep 0.25
	done
	[ -n "$port" ] || { cat lis.out >&2; fail "the listener did not say where it listens"; }
	python3 -c '
import socket, sys
p = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", p)); s.close()
s = socket.create_connection(("127.0.0.1", p)); s.sendall(b"GET / HTTP/1.0\r\n\r\n")
s.settimeout(20)
try:
    s.recv(100)
except ConnectionResetError:
    pass
s.close()' "$port" || fail "the listener did not hang up the probe"
	[ -e "$T/j" ] && fail "a stray peer made the journal"
	expect_exit 1 timeout 60 "$IOB" fsync -s 1 -f w/c2 --report-to "127.0.0.1:$port" \
		--blocks 16 --no-store
	expect_out "File too large"
	wait $lp; rc=$?
	[ $rc -eq 1 ] || { cat lis.out >&2; fail "the capped listener exited $rc"; }
	grep -q "dropped a peer that is not an iobattery writer.*closed the connection" lis.out ||
		{ cat lis.out >&2; fail "the silent stray was not logged"; }
	grep -q "dropped a peer that is not an iobattery writer.*does not speak the protocol" \
		lis.out || { cat lis.out >&2; fail "the HTTP probe was not logged"; }
	grep -q "the journal reached its cap" lis.out || { cat lis.out >&2; fail "no cap"; }
	[ "$(stat -c %s "$T/j")" -le 2048 ] || fail "the journal passed its cap"
	grep -q "Protocol error" lis.out && fail "a stray ended the listener"
fi

# nrfiles=1048576 plans in seconds (it took minutes): the plan is made and checked,
# then refused for space (1 EiB), nothing laid out
printf '[a]\nrw=write\nnrfiles=1048576\nfilesize=1t\n' > nr.fio
expect_exit 2 timeout $((60 * slow)) "$IOB" job --no-store -d w nr.fio
expect_out "the files do not fit"
printf '[a]\nrw=write\nioengine=null\nsize=64k\nnumjobs=4096\n[b]\nrw=write\nioengine=null\nsize=64k\n' \
	> threads.fio
expect_exit 2 timeout 20 "$IOB" job --no-store -d w threads.fio
expect_out "more than 4096 threads in the run"
no_scratch w
# $mb_memory 240000 times in one line: linear (it took a minute)
awk 'BEGIN { printf "[a]\nrw=write\nioengine=null\nsize=64k\ndescription="
	for (i = 0; i < 240000; i++) printf "$mb_memory"; printf "\n" }' > subst.fio
expect_exit 0 timeout $((30 * slow)) "$IOB" job --no-store --parse-only subst.fio
exit 0
