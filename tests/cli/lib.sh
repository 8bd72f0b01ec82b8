# lib.sh - helpers for CLI tests (sourced). Each test: . tests/cli/lib.sh; then uses
# $T (a fresh temp dir, removed at exit), fail MSG, skip MSG, expect_exit N CMD...
set -u
: "${IOB:?IOB must point to the iobattery binary}"
: "${TESTS_TMP:=/tmp}"
T=$(mktemp -d "$TESTS_TMP/iob-test.XXXXXX") || exit 1
cleanup_hooks=""
trap 'eval "$cleanup_hooks"; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }

# expect_exit N CMD...: run CMD (stdout+stderr to $T/out), check its exit status.
expect_exit() {
	want=$1; shift
	"$@" > "$T/out" 2>&1
	got=$?
	if [ "$got" != "$want" ]; then
		echo "command: $*" >&2
		sed 's/^/  | /' "$T/out" >&2
		fail "expected exit $want, got $got"
	fi
}

# expect_out TEXT: $T/out contains TEXT (fixed string).
expect_out() {
	grep -qF -- "$1" "$T/out" || { sed 's/^/  | /' "$T/out" >&2; fail "output lacks: $1"; }
}

# no_scratch DIR: no iobattery.XXXXXX scratch directory left in DIR.
no_scratch() {
	for x in "$1"/iobattery.??????; do
		[ -e "$x" ] && fail "scratch directory left behind: $x"
	done
	return 0
}

is_root() { [ "$(id -u)" = 0 ]; }
