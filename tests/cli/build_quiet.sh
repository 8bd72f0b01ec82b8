# The build is quiet by default (one short line a file) and `make V=1` prints the full
# command lines, with GNU make and with bmake alike (mk/build.mk computes the prefix's
# variable name from V: no conditionals).
. tests/cli/lib
top=$(dirname "$IOB")
[ -f "$top/config.mk" ] || skip "no config.mk beside the binary"
command -v cc > /dev/null || skip "no C compiler"
for m in make bmake; do
	command -v $m > /dev/null || continue
	rm -rf "$T/tree"; mkdir -p "$T/tree/src" || fail "mkdir"
	cp -R "$top/src/core" "$T/tree/src/" && cp "$top/src/config.h" "$T/tree/src/" &&
		cp -R "$top/mk" "$top/config.mk" "$T/tree/" || fail "copy"
	rm -f "$T/tree/src/core/clock.o"
	( cd "$T/tree" && $m -f mk/build.mk src/core/clock.o ) > "$T/quiet" 2>&1 ||
		{ cat "$T/quiet" >&2; fail "$m: the quiet build failed"; }
	grep -v '^\(g\|b\)\?make\[[0-9]*\]:' "$T/quiet" | grep -v '^$' > "$T/q2"
	[ "$(cat "$T/q2")" = "  CC      src/core/clock.o" ] ||
		{ cat "$T/quiet" >&2; fail "$m: the default build is not one short line a file"; }
	rm -f "$T/tree/src/core/clock.o"
	( cd "$T/tree" && $m -f mk/build.mk V=1 src/core/clock.o ) > "$T/loud" 2>&1 ||
		fail "$m V=1: the build failed"
	grep -q -- "-c -o src/core/clock.o src/core/clock.c" "$T/loud" ||
		{ cat "$T/loud" >&2; fail "$m V=1 does not print the command line"; }
	grep -q "^  CC " "$T/loud" && fail "$m V=1 prints the short line as well"
done
exit 0
