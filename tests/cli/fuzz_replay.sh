# Every fuzz harness replays its whole corpus (the seeds and every input that once
# crashed) through the plain driver (tests/fuzz/replay.c), built with the normal compiler,
# or with ASan and UBSan under `make check SAN=1`: a crash, a sanitizer report or a
# harness assertion fails the test. Each harness must have a corpus and a dictionary.
. tests/cli/lib
n=0
for src in tests/fuzz/fuzz_*.c; do
	name=${src#tests/fuzz/fuzz_}; name=${name%.c}
	bin=tests/fuzz/bin/$name
	[ -x "$bin" ] || fail "harness not built: $bin (make fuzz-replay)"
	[ -d "tests/fuzz/corpus/$name" ] || fail "no seed corpus: tests/fuzz/corpus/$name"
	[ -f "tests/fuzz/$name.dict" ] || fail "no dictionary: tests/fuzz/$name.dict"
	(cd "$T" && "$OLDPWD/$bin" "$OLDPWD/tests/fuzz/corpus/$name") > "$T/out" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		tail -n 30 "$T/out" >&2
		fail "$name: the replay of its corpus failed (exit $rc)"
	fi
	got=$(sed -n 's/^replay: \([0-9]*\) inputs$/\1/p' "$T/out")
	[ "${got:-0}" -gt 0 ] || fail "$name: no input replayed"
	echo "$name: $got inputs"
	n=$((n + 1))
done
[ $n -ge 17 ] || fail "only $n harnesses"
exit 0
