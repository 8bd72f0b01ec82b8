# The Debian package: built with dpkg-buildpackage -us -uc -b from a copy of the tracked
# (and untracked, not ignored) files, so the worktree stays clean; lintian reports no
# error; installed with apt-get, it runs (--help, a tiny dd, a small 'run', the completion
# loads, the manual page is found); apt-get remove takes every file it installed away again.
# Root only, with the tools of 'scripts/install-deps package'; skipped otherwise, and
# when an iobattery package is installed already (it is not replaced).
. tests/cli/lib
top=$(pwd)
is_root || skip "not root (apt-get install needs root)"
command -v dpkg-buildpackage > /dev/null || skip "no dpkg-buildpackage (scripts/install-deps package)"
command -v dh > /dev/null || skip "no debhelper (scripts/install-deps package)"
command -v apt-get > /dev/null || skip "no apt-get"
command -v git > /dev/null && git -C "$top" rev-parse --git-dir > /dev/null 2>&1 ||
	skip "not a git checkout: no list of the files to package"
st=$(dpkg-query -W -f='${db:Status-Status}' iobattery 2> /dev/null)
[ "$st" = installed ] && skip "an iobattery package is installed here; not replacing it"
version=$(cat VERSION)
before=$(git status --porcelain)

# the tree, as a clean checkout has it (no build outputs, no config.mk)
src="$T/build/iobattery-$version"
mkdir -p "$src" || fail "mkdir"
git ls-files -z -c -o --exclude-standard | xargs -0 sh -c '
	for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	xargs -0 tar cf - | (cd "$src" && tar xf -) || fail "copying the tree"
[ -f "$src/debian/rules" ] || fail "no debian/rules in the copy"
[ -e "$src/config.mk" ] && fail "the copy has a build output (config.mk)"

# the package is built as a distribution builds it: not with the make flags (SAN=1) or
# the CI setting (-Werror) of the tree that runs this test
(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN -u CI \
	DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc -b) \
	> "$T/build.log" 2>&1 || { tail -n 30 "$T/build.log" >&2; fail "dpkg-buildpackage failed"; }
deb=$(ls "$T/build"/iobattery_"$version"_*.deb 2> /dev/null)
[ -n "$deb" ] && [ -f "$deb" ] || fail "no iobattery_${version}_*.deb built"
[ "$(git status --porcelain)" = "$before" ] || fail "the build changed the worktree"

if command -v lintian > /dev/null; then
	lintian "$deb" > "$T/lintian" 2>&1
	grep -q '^E:' "$T/lintian" && { cat "$T/lintian" >&2; fail "lintian reports errors"; }
	grep '^W:' "$T/lintian" || true
fi

dpkg-deb -c "$deb" > "$T/contents" || fail "dpkg-deb -c"
for f in ./usr/bin/iobattery ./usr/share/man/man1/iobattery.1.gz \
	./usr/share/bash-completion/completions/iobattery \
	./usr/share/zsh/vendor-completions/_iobattery ./usr/share/doc/iobattery/copyright; do
	grep -q " $f\$" "$T/contents" || fail "the package lacks $f"
done

# a plain install pulls no MPI runtime: the MPI plugin is the iobattery-mpi package
dpkg-deb -f "$deb" Depends > "$T/depends" || fail "dpkg-deb -f Depends"
grep -qi 'mpi' "$T/depends" && fail "iobattery depends on MPI: $(cat "$T/depends")"
grep -q 'lib/iobattery/iobattery-mpi.so' "$T/contents" && fail "the MPI plugin is in iobattery"
if grep -q '^#define HAVE_MPI 1' "$top/src/config.h"; then
	mdeb=$(ls "$T/build"/iobattery-mpi_"$version"_*.deb 2> /dev/null)
	[ -n "$mdeb" ] && [ -f "$mdeb" ] || fail "no iobattery-mpi_${version}_*.deb built"
	dpkg-deb -c "$mdeb" | grep -q ' ./usr/lib/iobattery/iobattery-mpi.so$' ||
		fail "iobattery-mpi lacks usr/lib/iobattery/iobattery-mpi.so"
fi

# install; from here on, remove it again whatever happens
cleanup_hooks="apt-get remove -y -q iobattery > /dev/null 2>&1;"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=120 "$deb" \
	> "$T/apt.log" 2>&1 || { tail -n 20 "$T/apt.log" >&2; fail "apt-get install failed"; }
dpkg-query -L iobattery > "$T/files" || fail "dpkg-query -L"
[ -x /usr/bin/iobattery ] || fail "/usr/bin/iobattery not installed"
/usr/bin/iobattery --help > "$T/out" 2>&1 || fail "the installed iobattery --help failed"
expect_out "commands:"
mkdir "$T/run" || fail "mkdir"
(cd "$T/run" && /usr/bin/iobattery dd if=/dev/zero of=X bs=4k count=16 --no-store) \
	> "$T/out" 2>&1 || { cat "$T/out" >&2; fail "the installed iobattery dd failed"; }
expect_out "65536 bytes"
[ "$(wc -c < "$T/run/X")" -eq 65536 ] || fail "dd wrote $(wc -c < "$T/run/X") bytes"
# the issue's check: the quick battery, small, in a temporary directory
mkdir "$T/battery" || fail "mkdir"
(cd "$T/battery" && /usr/bin/iobattery run --size 1m --no-store --no-json --quiet) \
	> "$T/out" 2>&1 || { tail -n 20 "$T/out" >&2; fail "the installed iobattery run failed"; }
no_scratch "$T/battery"
bash -c '. /usr/share/bash-completion/completions/iobattery && complete -p iobattery' \
	> "$T/out" 2>&1 || fail "the installed bash completion does not load"
if command -v man > /dev/null; then
	[ "$(man -w iobattery 2> /dev/null)" = /usr/share/man/man1/iobattery.1.gz ] ||
		fail "man -w iobattery: $(man -w iobattery 2>&1)"
fi

DEBIAN_FRONTEND=noninteractive apt-get remove -y -q -o DPkg::Lock::Timeout=120 iobattery \
	> "$T/apt.log" 2>&1 || { tail -n 20 "$T/apt.log" >&2; fail "apt-get remove failed"; }
cleanup_hooks=""
while IFS= read -r f; do
	[ -d "$f" ] && continue
	[ -e "$f" ] && fail "left after apt-get remove: $f"
done < "$T/files"
[ -e /usr/share/doc/iobattery ] && fail "left after apt-get remove: /usr/share/doc/iobattery"
st=$(dpkg-query -W -f='${db:Status-Status}' iobattery 2> /dev/null)
[ "$st" = installed ] && fail "dpkg still has iobattery installed"
exit 0
