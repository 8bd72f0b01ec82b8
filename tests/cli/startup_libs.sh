# Start-up loads only what every command needs: MPI (a plugin opened under a launcher),
# libxlsxwriter (iozone -b), ncurses (--watch), libbpf (the block-layer latency, when a
# run loads its program) and SQLite (when a database is opened: the store, db) are opened
# when used, so ldd lists none of them, nor what they
# pull in (libcrypto, minizip, Open MPI's runtime, libelf); --version
# still lists each as built in; the plugin's absence under a launcher is refused with
# the package to install; and a run under mpirun still merges its ranks.
. tests/cli/lib
command -v ldd > /dev/null || skip "no ldd"
ldd "$IOB" > "$T/ldd" 2>&1 || skip "ldd cannot read the binary"
for lib in libmpi libopen-pal libopen-rte libxlsxwriter libminizip libcrypto libncurses \
	libtinfo libpq libhwloc libevent libbpf libelf libsqlite3; do
	grep -q "$lib" "$T/ldd" && fail "the binary loads $lib at start: $(grep "$lib" "$T/ldd")"
done
"$IOB" --help > "$T/out" 2>&1 || fail "--help failed"
expect_out "commands:"

grep -q '^#define HAVE_MPI 1' src/config.h || skip "built without MPI: the rest is the plugin's"
have_feature mpi || fail "--version does not list mpi"
[ -f "$(dirname "$IOB")/iobattery-mpi.so" ] || fail "no iobattery-mpi.so beside the binary"
# a copy of the binary without its plugin, started as a launcher's rank: refused, exit 2
mkdir "$T/bin" && cp "$IOB" "$T/bin/iobattery" || fail "cannot copy the binary"
OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$T/bin/iobattery" dd if=/dev/zero \
	of="$T/x" bs=4k count=4 --no-store > "$T/out" 2>&1
rc=$?
[ "$rc" = 2 ] || { cat "$T/out"; fail "without its plugin under a launcher: exit $rc, not 2"; }
expect_out "iobattery-mpi"
[ -e "$T/x" ] && fail "it wrote the file before refusing"

. tests/cli/mpi_lib
mpi_run 2 "$IOB" dd if=/dev/zero of="$T/y" bs=64k count=16 --no-store --format json \
	> "$T/json" 2> "$T/err" || { cat "$T/err"; fail "mpirun -np 2 iobattery dd failed"; }
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["ranks"]))' \
	"$T/json" 2> /dev/null)
[ "$n" = 2 ] || fail "the result does not hold two ranks (ranks: '$n')"
exit 0
