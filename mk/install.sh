#!/bin/sh
# mk/install.sh - install or uninstall iobattery; called by `make install` and
# `make uninstall` with the directories as arguments (DESTDIR already prefixed):
#   sh mk/install.sh install|uninstall BINDIR MAN1DIR BASHCOMPDIR ZSHCOMPDIR DOCDIR LIBDIR
# (LIBDIR: PREFIX/lib/iobattery, the plugins: iobattery-mpi.so where it was built; the
# binary looks for them in ../lib/iobattery from its own folder)
# The list of files below is the only one: install and uninstall read the same list.
#
# Nothing half-installed: before anything is written, every target directory (or, where
# it does not exist yet, its nearest existing parent) must be a writable directory and no
# target may be a directory; then each file is copied to a temporary name in its target
# directory and renamed over the target, so that a target is either the old file or the
# whole new one, never a partial copy. A failure after the checks (a full disk) removes
# the temporary file and stops with a message and a non-zero exit.
set -u
umask 022

if [ $# -ne 7 ]; then
	echo "usage: sh mk/install.sh install|uninstall BINDIR MAN1DIR BASHCOMPDIR" \
		"ZSHCOMPDIR DOCDIR LIBDIR" >&2
	exit 2
fi
action=$1 bindir=$2 man1dir=$3 bashdir=$4 zshdir=$5 docdir=$6 libdir=$7

# manifest: one line per file: SOURCE TARGET-DIRECTORY TARGET-NAME MODE
manifest() {
	echo "iobattery $bindir iobattery 755"
	echo "docs/iobattery.1 $man1dir iobattery.1 644"
	echo "completion/iobattery.bash $bashdir iobattery 644"
	echo "completion/_iobattery $zshdir _iobattery 644"
	echo "README.md $docdir README.md 644"
	echo "docs/methodology.md $docdir methodology.md 644"
	echo "docs/results-schema.md $docdir results-schema.md 644"
	echo "docs/store-schema.md $docdir store-schema.md 644"
	# a plugin where this build made it (uninstall removes it either way)
	if [ -f iobattery-mpi.so ] || [ "$action" = uninstall ]; then
		echo "iobattery-mpi.so $libdir iobattery-mpi.so 644"
	fi
}

die() { echo "iobattery: $*" >&2; exit 1; }

# writable_dir DIR: DIR, or the nearest parent that exists, is a directory we may write.
writable_dir() {
	d=$1
	while [ ! -e "$d" ] && [ ! -L "$d" ]; do
		d=$(dirname "$d")
	done
	[ -d "$d" ] || die "cannot install: '$d': not a directory"
	[ -w "$d" ] && [ -x "$d" ] ||
		die "cannot install: '$d': not writable (run as root, or set PREFIX or DESTDIR)"
}

do_install() {
	# every check first; no file is written until all of them pass
	manifest | while read -r src dir name mode; do
		[ -f "$src" ] || die "cannot install: '$src': missing (run make first)"
		writable_dir "$dir"
		[ -d "$dir/$name" ] && die "cannot install: '$dir/$name': is a directory"
		:
	done || exit 1
	manifest | while read -r src dir name mode; do
		mkdir -p "$dir" || die "cannot install: '$dir': cannot make the directory"
		tmp="$dir/.$name.install-tmp.$$"
		if ! cp "$src" "$tmp" || ! chmod "$mode" "$tmp" || ! mv -f "$tmp" "$dir/$name"; then
			rm -f "$tmp"
			die "cannot install: '$dir/$name': copy failed"
		fi
		echo "installed $dir/$name"
	done || exit 1
}

do_uninstall() {
	manifest | while read -r src dir name mode; do
		if [ -f "$dir/$name" ] || [ -L "$dir/$name" ]; then
			rm -f "$dir/$name" || die "cannot uninstall: '$dir/$name': not removed"
			echo "removed $dir/$name"
		fi
	done || exit 1
	# the documentation and plugin directories are ours alone: removed when empty now
	for d in "$docdir" "$libdir"; do
		if [ -d "$d" ]; then
			rmdir "$d" 2>/dev/null && echo "removed $d"
		fi
	done
	return 0
}

case $action in
install) do_install ;;
uninstall) do_uninstall ;;
*) echo "usage: sh mk/install.sh install|uninstall ..." >&2; exit 2 ;;
esac
