# --watch in a terminal: `iobattery dd if=FIFO ... --watch` runs in a detached tmux
# session while this test feeds the FIFO, so the phase lasts as long as the test needs;
# the captured screen shows the live view's figures (rate, latency, device, CPU steal and
# iowait, wait states); q closes the view; then the writer stops, the phase ends, and the
# run completes (exit 0), prints its results and is saved in the store.
. tests/cli/lib
command -v tmux > /dev/null || skip "tmux is not installed (scripts/install-deps test)"
"$IOB" dd --help | grep -q -- --watch || fail "no --watch in dd --help"
cd "$T" || exit 1
sock=iob-watch-$$
tm() { tmux -L "$sock" "$@"; }
cleanup_hooks="tmux -L '$sock' kill-server 2>/dev/null; touch '$T/stop';"
mkfifo p || fail "mkfifo"

# wait for CMD to succeed, polling, at most about 30 s (the bound is not an assertion
# on speed: every step here waits for the one before it)
wait_for() { # WHAT CMD...
	what=$1; shift
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -gt 150 ] && { tm capture-pane -p -t w > screen.txt 2>&1; cat screen.txt;
			fail "waited in vain for $what"; }
		sleep 0.2
	done
}
screen_has() { tm capture-pane -p -t w > screen.txt 2>/dev/null && grep -q -- "$1" screen.txt; }

tm new-session -d -s w -x 120 -y 40 "cd '$T' && IOBATTERY_DB='$T/store.db' '$IOB' dd if=p \
of=out bs=64k --watch --interval 200ms > result.txt 2> err.txt; echo \$? > rc; sleep 600" ||
	fail "cannot start tmux"
# the writer: 64 KiB every 50 ms until told to stop, then EOF
sh -c 'while [ ! -e stop ]; do head -c 65536 /dev/zero || exit 1; sleep 0.05; done' > p &
writer=$!
cleanup_hooks="$cleanup_hooks kill $writer 2>/dev/null;"

wait_for "the live view" screen_has "wait states"
for w in "phase copy" "rate " "latency " "device " "steal " "iowait " "wait states"; do
	screen_has "$w" || { cat screen.txt; fail "the live view lacks '$w'"; }
done
# the figures change: the elapsed time on the first line moves on
first=$(head -n 1 screen.txt)
wait_for "a redraw" sh -c "tmux -L '$sock' capture-pane -p -t w | head -n 1 | grep -qvxF '$first'"

tm send-keys -t w q
wait_for "the view to close" sh -c "! tmux -L '$sock' capture-pane -p -t w | grep -q 'wait states'"
[ -e rc ] && fail "q ended the run"
touch stop
wait "$writer"
wait_for "the run to end" test -s rc
[ "$(cat rc)" = 0 ] || { cat err.txt; fail "the run exited $(cat rc)"; }
grep -q "records out" result.txt || { cat result.txt; fail "no results after the view"; }
grep -q "system: " result.txt || fail "no system line in the results"
IOBATTERY_DB="$T/store.db" "$IOB" results list > list.txt 2>&1 || fail "results list"
grep -q " dd " list.txt || { cat list.txt; fail "the run was not saved"; }
exit 0
