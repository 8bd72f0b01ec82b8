# The packaging files agree with the tree, without building anything: debian/changelog's
# newest version (and the FreeBSD port's) is VERSION; Build-Depends names every -dev
# package 'scripts/install-deps build' installs (libc6-dev is build-essential); the files
# a package installs are the ones mk/install.sh lists; debian/rules is executable.
. tests/cli/lib
version=$(cat VERSION)
top=$(sed -n '1s/^iobattery (\([^)]*\)).*/\1/p' debian/changelog)
[ "$top" = "$version" ] || fail "debian/changelog is at '$top', VERSION is '$version'"
port=$(sed -n 's/^DISTVERSION=[[:space:]]*//p' ports/sysutils/iobattery/Makefile)
[ "$port" = "$version" ] || fail "the port is at '$port', VERSION is '$version'"
[ -x debian/rules ] || fail "debian/rules is not executable"
grep -qx '3.0 (native)' debian/source/format || fail "debian/source/format"
grep -q '^Build-Depends:.*debhelper-compat (= 13)' debian/control ||
	fail "Build-Depends lacks debhelper-compat (= 13)"

# Build-Depends as one line of names
bd=$(awk '/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, ""); print; next }
	on && /^[ \t]/ { print; next } { on = 0 }' debian/control |
	tr ',' '\n' | sed 's/[[(].*//; s/[[:space:]]//g' | grep -v '^$')
[ -n "$bd" ] || fail "no Build-Depends in debian/control"
deps=$(sed -n 's/^deb_build="\(.*\)"$/\1/p' scripts/install-deps)
[ -n "$deps" ] || fail "no deb_build list in scripts/install-deps"
for p in $deps; do
	case $p in
	libc6-dev) continue ;;
	*-dev|pkg-config) ;;
	*) continue ;;
	esac
	printf '%s\n' "$bd" | grep -qx -- "$p" ||
		fail "debian/control Build-Depends lacks '$p' (scripts/install-deps build installs it)"
done

# the port's plist names what mk/install.sh installs (share/doc via %%PORTDOCS%%)
for f in $(awk '/^manifest\(\)/ { on = 1; next } on && /^}/ { on = 0 }
	on && /echo/ { gsub(/"/, ""); print $3 "/" $4 }' mk/install.sh); do
	case $f in
	'$bindir'/*) p=bin/${f#*/} ;;
	'$man1dir'/*) p=share/man/man1/${f#*/} ;;
	'$bashdir'/*) p=share/bash-completion/completions/${f#*/} ;;
	'$zshdir'/*) p=share/zsh/site-functions/${f#*/} ;;
	'$docdir'/*) p=%%PORTDOCS%%%%DOCSDIR%%/${f#*/} ;;
	# the MPI plugin: the port configures --with-mpi=no (no MPI package chosen yet)
	'$libdir'/*) grep -q -- '--with-mpi=no' ports/sysutils/iobattery/Makefile ||
		fail "the port builds the MPI plugin but its plist lacks it"; continue ;;
	*) fail "unknown directory in mk/install.sh: $f" ;;
	esac
	case $p in share/man/*) p=$p.gz ;; esac
	grep -qxF -- "$p" ports/sysutils/iobattery/pkg-plist ||
		fail "ports/sysutils/iobattery/pkg-plist lacks $p"
done
exit 0
