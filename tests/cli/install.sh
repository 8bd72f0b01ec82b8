# make install / make uninstall: with DESTDIR (and PREFIX) every listed file lands with
# its mode, the installed binary runs and the installed bash completion loads; uninstall
# removes exactly those files (another file in the same directories stays); bmake does the
# same as GNU make. A target directory that cannot be written (or a file where a directory
# must be) stops the install before anything is written: nothing half-installed.
. tests/cli/lib
top=$(pwd)
# the parent make's flags mean nothing to a make started here (and nothing to bmake)
unset MAKEFLAGS MFLAGS MAKELEVEL
files="bin/iobattery share/man/man1/iobattery.1 share/bash-completion/completions/iobattery
share/zsh/site-functions/_iobattery share/doc/iobattery/README.md
share/doc/iobattery/methodology.md share/doc/iobattery/results-schema.md
share/doc/iobattery/store-schema.md share/doc/iobattery/guide.md"
src_of() {
	case $1 in
	bin/iobattery) echo iobattery ;;
	*/iobattery.1) echo docs/iobattery.1 ;;
	*/completions/iobattery) echo completion/iobattery.bash ;;
	*/_iobattery) echo completion/_iobattery ;;
	*/README.md) echo README.md ;;
	*/doc/iobattery/*) echo "docs/${1##*/}" ;;
	esac
}
perms() { ls -ld "$1" | cut -c1-10; }
# expect_fail CMD...: CMD exits non-zero (make's own status for a failed recipe varies)
expect_fail() {
	"$@" > "$T/out" 2>&1 && { sed 's/^/  | /' "$T/out" >&2; fail "succeeded: $*"; }
	return 0
}

# check_installed ROOT: every file under ROOT, same bytes as the source, sane modes
check_installed() {
	for f in $files; do
		[ -f "$1/$f" ] || fail "not installed: $1/$f"
		cmp -s "$1/$f" "$(src_of "$f")" || fail "installed file differs: $1/$f"
		case $f in
		bin/*) want=-rwxr-xr-x ;;
		*) want=-rw-r--r-- ;;
		esac
		[ "$(perms "$1/$f")" = "$want" ] || fail "mode of $1/$f: $(perms "$1/$f")"
		[ "$(perms "$(dirname "$1/$f")")" = drwxr-xr-x ] ||
			fail "mode of $(dirname "$1/$f"): $(perms "$(dirname "$1/$f")")"
	done
	ls -a "$1"/bin "$1"/share/*/* 2>/dev/null | grep -q 'install-tmp' &&
		fail "a temporary file was left behind under $1"
	return 0
}

# check_removed ROOT: none of the files is left, nor the doc directory
check_removed() {
	for f in $files; do
		[ -e "$1/$f" ] && fail "left after uninstall: $1/$f"
	done
	[ -e "$1/share/doc/iobattery" ] && fail "doc directory left after uninstall"
	return 0
}

# GNU make (or whatever 'make' is), default PREFIX
expect_exit 0 make install DESTDIR="$T/g"
expect_out "installed $T/g/usr/local/bin/iobattery"
check_installed "$T/g/usr/local"
"$T/g/usr/local/bin/iobattery" --help > /dev/null || fail "the installed binary does not run"
if command -v bash > /dev/null; then
	bash -c ". '$T/g/usr/local/share/bash-completion/completions/iobattery' &&
		complete -p iobattery" > "$T/out" 2>&1 || fail "installed completion: $(cat "$T/out")"
	grep -q _iobattery "$T/out" || fail "installed completion not registered"
fi
# again over the installed files (an upgrade), with a stranger's file beside ours
echo keep > "$T/g/usr/local/bin/other-tool"
expect_exit 0 make install DESTDIR="$T/g"
check_installed "$T/g/usr/local"
expect_exit 0 make uninstall DESTDIR="$T/g"
check_removed "$T/g/usr/local"
[ "$(cat "$T/g/usr/local/bin/other-tool")" = keep ] || fail "uninstall touched another file"
expect_exit 0 make uninstall DESTDIR="$T/g"

# PREFIX, and bmake where it is installed
if command -v bmake > /dev/null; then mk=bmake; else mk=make; fi
expect_exit 0 $mk install DESTDIR="$T/b" PREFIX=/opt/iob
check_installed "$T/b/opt/iob"
[ -e "$T/b/usr" ] && fail "PREFIX=/opt/iob installed under /usr"
expect_exit 0 $mk uninstall DESTDIR="$T/b" PREFIX=/opt/iob
check_removed "$T/b/opt/iob"

# a file where a target directory must be: refused before anything is written
mkdir -p "$T/f/usr/local/share" && echo x > "$T/f/usr/local/share/man" || fail "setup"
expect_fail make install DESTDIR="$T/f"
expect_out "iobattery: cannot install: '$T/f/usr/local/share/man': not a directory"
[ -e "$T/f/usr/local/bin" ] && fail "bin/ written although the install was refused"
[ -e "$T/f/usr/local/share/doc" ] && fail "doc/ written although the install was refused"

# a directory we may not write, the others writable: nothing written anywhere
mkdir -p "$T/p/usr/local/share/man" || fail "setup"
chmod 555 "$T/p/usr/local/share/man"
as_user=""
if is_root; then
	if command -v setpriv > /dev/null && id nobody > /dev/null 2>&1 &&
	    setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		test -r "$top/Makefile" 2> /dev/null; then
		chmod 755 "$T"
		chown -R nobody "$T/p"
		as_user="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
	else
		echo "note: root, and no unprivileged user to run as: the permission case is skipped"
		exit 0
	fi
fi
expect_fail $as_user make install DESTDIR="$T/p"
expect_out "iobattery: cannot install: '$T/p/usr/local/share/man': not writable"
[ -e "$T/p/usr/local/bin" ] && fail "bin/ written although share/man is not writable"
[ -e "$T/p/usr/local/share/doc" ] && fail "doc/ written although share/man is not writable"
exit 0
