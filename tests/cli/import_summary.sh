# import prints one summary line (--verbose adds a line per run and per skipped line),
# labels each run from the paste's latest heading (a Subject: line, a line naming the
# system or the file system), and keeps what the old output said and nothing more: a
# BSD dd with `time` shows no invented "0+0 records" and no "system busy" share.
. tests/cli/lib
IOBATTERY_DB="$T/store.db"; export IOBATTERY_DB
cat > "$T/mail.txt" << 'EOF2'
Subject: FreeBSD 5.3 I/O Performance
Some words about the test that are no record at all.
> sc400 freeBSD5:
> $ time dd bs=1024 if=/dev/zero of=tstfile count=1M
> 1073741824 bytes transferred in 71.807645 secs (14953029 bytes/sec)
> 71.82 real 0.68 user 8.83 sys
>
> Fedora C3 EXT3
> $ time dd bs=1024 if=/dev/zero of=tstfile count=1M
> 1073741824 bytes transferred in 30.5 secs (35204647 bytes/sec)
> 30.52 real 0.50 user 6.10 sys
EOF2
"$IOB" import "$T/mail.txt" > "$T/stdout" 2> "$T/stderr" || fail "import failed: $(cat "$T/stderr")"
[ "$(wc -l < "$T/stdout")" = 1 ] || { cat "$T/stdout" >&2; fail "not one summary line"; }
[ -s "$T/stderr" ] && { cat "$T/stderr" >&2; fail "skipped lines listed without --verbose"; }
grep -q '^import: 2 runs read from 1 file ' "$T/stdout" || fail "summary: $(cat "$T/stdout")"
grep -q '(store ids 1-2)' "$T/stdout" || fail "the summary does not name the store ids"
expect_exit 0 "$IOB" results list
grep -q ' sc400 freeBSD5$' "$T/out" || { cat "$T/out" >&2; fail "no label from the heading"; }
grep -q ' Fedora C3 EXT3$' "$T/out" || { cat "$T/out" >&2; fail "no label from the second heading"; }
expect_exit 0 "$IOB" results show 1
grep -q 'records in\|records out' "$T/out" && fail "invented records lines: $(cat "$T/out")"
grep -q 'system busy' "$T/out" && fail "invented a system share: $(cat "$T/out")"
expect_out "1073741824 bytes"
# --verbose: a line per run and the skipped lines
expect_exit 0 "$IOB" import --verbose --no-store "$T/mail.txt"
[ "$(grep -c '^imported: ' "$T/out")" = 2 ] || fail "--verbose: no line per run"
expect_out "skipped line 2:"
exit 0
