# dd: every bad input gives one clear line, exit 2, and creates nothing.
. tests/cli/lib
mkdir "$T/w" && cd "$T/w" || exit 1

check_bad() { # MESSAGE-PART ARGS...
	msg=$1; shift
	expect_exit 2 "$IOB" dd "$@"
	expect_out "$msg"
	[ "$(wc -l < "$T/out")" -eq 1 ] || { cat "$T/out"; fail "more than one line for: $*"; }
	[ -z "$(ls)" ] || fail "something was created for: $* ($(ls))"
}
check_bad "unrecognized operand: 'foo=1'" if=/dev/zero of=f bs=1k count=1 foo=1
check_bad "unrecognized operand: 'junk'" if=/dev/zero of=f junk
check_bad "invalid number: 'bs=0'" if=/dev/zero of=f bs=0 count=1
check_bad "invalid number: 'count=-1'" if=/dev/zero of=f bs=1k count=-1
check_bad "invalid number: 'bs=1Q'" if=/dev/zero of=f bs=1Q count=1
check_bad "of= is required" if=/dev/zero bs=1k count=1
check_bad "count= is required" if=/dev/zero of=f bs=1k
check_bad "invalid conv flag: 'bogus'" if=/dev/zero of=f bs=1k count=1 conv=bogus
check_bad "invalid oflag flag: 'append'" if=/dev/zero of=f bs=1k count=1 oflag=append
check_bad "cannot read input" if=nonexistent of=f bs=1k count=1
check_bad "cannot write in directory" if=/dev/zero of=nodir/f bs=1k count=1
check_bad "unknown option: '--bogus'" if=/dev/zero of=f bs=1k count=1 --bogus
check_bad "unknown output format: 'xml'" if=/dev/zero of=f bs=1k count=1 --format xml
check_bad "not enough free space" if=/dev/zero of=f bs=1M count=1Gx1024

# An existing file iobattery did not make is never touched without --overwrite.
echo "precious" > user.txt
expect_exit 2 "$IOB" dd if=/dev/zero of=user.txt bs=1k count=1
expect_out "refusing to overwrite a file iobattery did not create"
[ "$(cat user.txt)" = precious ] || fail "user file was modified"
ln -s user.txt link
expect_exit 2 "$IOB" dd if=/dev/zero of=link bs=1k count=1 --overwrite
expect_out "symbolic link"
[ "$(cat user.txt)" = precious ] || fail "user file was modified through a link"

# A directory the user cannot write (run as an unprivileged user when root).
mkdir ro && chmod 555 ro
if is_root; then
	command -v setpriv >/dev/null || skip "setpriv missing"
	chmod 755 "$T"
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$IOB" dd if=/dev/zero of="$T/ro/f" bs=1k count=1
else
	expect_exit 2 "$IOB" dd if=/dev/zero of=ro/f bs=1k count=1
fi
expect_out "cannot write in directory"
[ -z "$(ls ro)" ] || fail "a file was created in the read-only directory"
exit 0
