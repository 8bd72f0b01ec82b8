# Other builds: configure --with-mpi=mpich compiles in a copy of the tree and its two
# ranks merge into one result under MPICH's launcher (skipped without libmpich-dev); a
# binary built without MPI refuses to run as unrelated copies under an MPI launcher
# (the launcher's variables, and a real mpirun where one is installed); the Open MPI
# binary refuses another MPI's launcher. Two builds of a minute or so on two cores.
. tests/cli/lib
top=$(pwd)
command -v jq > /dev/null || skip "no jq"
copy() { # DIR: the sources, not the build outputs
	mkdir -p "$1" && (cd "$top" && tar cf - --exclude='*.o' --exclude=src/config.h \
		configure Makefile mk VERSION src) | (cd "$1" && tar xf -) ||
		fail "cannot copy the tree"
}
build() { # DIR ARGS...: configure and make there, quietly
	d=$1; shift
	# the copy is built as configured here, not with this tree's make flags (SAN=1 would
	# configure it again without ARGS)
	(cd "$d" && ./configure "$@" > conf.log 2>&1 &&
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN make -j2 > make.log 2>&1) ||
		{ tail -n 20 "$d/conf.log" "$d/make.log" >&2; fail "build $* failed"; }
}
# under the sanitizers, no leak check of Open MPI's own allocations (see mpi_lib)
if san_build; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; export ASAN_OPTIONS
fi
OMPI_ALLOW_RUN_AS_ROOT=1; OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
export OMPI_MCA_btl_vader_single_copy_mechanism
mkdir "$T/w"

# MPICH
if pkg-config --exists mpich 2>/dev/null || command -v mpicc.mpich > /dev/null; then
	copy "$T/mpich"
	build "$T/mpich" --with-mpi=mpich
	grep -q '#define IOB_MPI_IMPL "mpich"' "$T/mpich/src/config.h" || fail "not an MPICH build"
	run=$(sed -n 's/^#define IOB_MPI_LAUNCHER "\(.*\)"$/\1/p' "$T/mpich/src/config.h")
	if [ -n "$run" ] && [ -x "$run" ]; then
		(cd "$T/w" && "$run" -n 2 "$T/mpich/iobattery" dd if=/dev/zero of=m bs=4k count=8 \
			--no-store --format json --quiet > m.json 2> err) ||
			{ cat "$T/w/err"; fail "the MPICH build's two ranks exited $?"; }
		[ "$(jq -r '.rows[0].bytes == 65536 and (.ranks | length) == 2' "$T/w/m.json")" = true ] ||
			fail "MPICH: not one merged result of two ranks"
	else
		echo "note: no MPICH launcher: its two-rank run skipped"
	fi
	rm -rf "$T/mpich" "$T/w"/*
else
	echo "note: no MPICH (libmpich-dev): its build skipped"
fi

# without MPI: refuse what a launcher started as several copies (this binary, when it was
# built so; else a build of its own)
if have_feature mpi; then
	copy "$T/nompi"
	build "$T/nompi" --with-mpi=no
	nompi="$T/nompi/iobattery"
else
	nompi=$IOB
fi
"$nompi" --version | grep -q "built without:.* mpi" || fail "the --with-mpi=no build has MPI"
cd "$T/w" || exit 1
expect_exit 2 env OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=0 "$nompi" dd if=/dev/zero \
	of=x bs=4k count=1 --no-store
expect_out "built without MPI, so the 4 copies would each measure alone"
expect_exit 2 env PMI_SIZE=2 PMI_RANK=1 "$nompi" dd if=/dev/zero of=x bs=4k count=1 --no-store
[ ! -s "$T/out" ] || { cat "$T/out"; fail "rank 1 printed the refusal too"; }
expect_exit 2 env PMIX_RANK=3 "$nompi" dd if=/dev/zero of=x bs=4k count=1 --no-store
expect_exit 0 env OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 "$nompi" dd if=/dev/zero \
	of=x bs=4k count=1 --no-store
rm -f x
[ -z "$(ls)" ] || fail "a refused copy wrote: $(ls)"
for l in mpirun.openmpi mpiexec.mpich; do
	command -v $l > /dev/null || continue
	flags=""
	[ $l = mpirun.openmpi ] && flags=--oversubscribe
	expect_exit 2 $l $flags -np 2 "$nompi" dd if=/dev/zero of=y bs=4k count=1 --no-store
	expect_out "cannot run under an MPI launcher"
	[ "$(grep -c 'cannot run under an MPI launcher' "$T/out")" -eq 1 ] ||
		fail "$l: the refusal is not printed once"
	[ -z "$(ls)" ] || fail "$l: a refused copy wrote: $(ls)"
done

# the Open MPI build under MPICH's launcher: one world of one per copy, refused
if have_feature mpi && grep -q '#define IOB_MPI_IMPL "openmpi"' "$top/src/config.h" &&
   command -v mpiexec.mpich > /dev/null; then
	expect_exit 2 mpiexec.mpich -n 2 "$IOB" dd if=/dev/zero of=z bs=4k count=1 --no-store
	expect_out "cannot run under this launcher"
	[ -z "$(ls)" ] || fail "a refused copy wrote: $(ls)"
fi
exit 0
