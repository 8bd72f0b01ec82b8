# SQLite is opened with dlopen by the first command that opens a database (the results
# store, db --engine sqlite), never at start-up: ldd lists no libsqlite3; a --no-store run
# never maps it (its /proc/PID/maps read while it waits on a FIFO), a stored one still
# lands in the store; and where it cannot be loaded (hidden as root in a private mount
# namespace) a --no-store run goes on, a stored run prints its figures and says it cannot
# save them, as for any store that cannot be opened (the store left as it was), and the
# db workload on SQLite says so and exits 1.
. tests/cli/lib
cd "$T" || exit 1
command -v ldd > /dev/null 2>&1 || skip "no ldd"
ldd "$IOB" > "$T/ldd" 2>&1 || skip "ldd cannot read the binary"
grep -q libsqlite3 "$T/ldd" && fail "the binary links SQLite: $(grep libsqlite3 "$T/ldd")"
# maps_of ARGS...: the maps of `iobattery ARGS` while it reads its input from a FIFO that
# is held open, then closed (dd reads if= until EOF), into $T/maps
maps_of() {
	rm -f "$T/in"
	mkfifo "$T/in" || fail "mkfifo"
	"$IOB" "$@" > "$T/run.out" 2>&1 &
	pid=$!
	exec 3> "$T/in"
	i=0
	until grep -q libjansson "/proc/$pid/maps" 2>/dev/null || [ $i -ge 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	cp "/proc/$pid/maps" "$T/maps" 2>/dev/null
	exec 3>&-
	wait $pid || fail "iobattery $*: $(cat "$T/run.out")"
}
[ -r /proc/self/maps ] || skip "no /proc/PID/maps"
maps_of dd if="$T/in" of="$T/o1" bs=4k --no-store
grep -q libsqlite3 "$T/maps" && fail "a --no-store dd mapped SQLite"
i0=$(sqlite3 "$IOBATTERY_DB" 'SELECT count(*) FROM runs' 2> /dev/null || echo 0)
expect_exit 0 "$IOB" dd if=/dev/zero of="$T/o2" bs=4k count=4
n=$(sqlite3 "$IOBATTERY_DB" 'SELECT count(*) FROM runs' 2> /dev/null) ||
	skip "no sqlite3 shell to read the store (parts 1 and 2 passed)"
[ "$n" -gt "$i0" ] || fail "the stored run is not in the store ($i0 -> $n)"

is_root || skip "not root: hiding the library needs a private mount namespace"
command -v unshare > /dev/null && command -v ldconfig > /dev/null ||
	skip "unshare or ldconfig missing"
lib=$(ldconfig -p | awk '/libsqlite3\.so\.0 / {print $NF; exit}')
[ -n "$lib" ] || skip "libsqlite3.so.0 not in the loader's cache"
real=$(readlink -f "$lib")
unshare -m true 2> /dev/null || skip "cannot make a mount namespace here"
hide() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$real" "$@"; }
expect_exit 0 hide "$IOB" dd if=/dev/zero of="$T/o3" bs=4k count=4 --no-store
expect_exit 0 hide "$IOB" dd if=/dev/zero of="$T/o4" bs=4k count=4
expect_out "iobattery: cannot save in the results store: cannot load SQLite (for the results store and db --engine sqlite): "
[ "$(sqlite3 "$IOBATTERY_DB" 'SELECT count(*) FROM runs')" = "$n" ] ||
	fail "the store changed although SQLite could not be loaded"
expect_exit 1 hide "$IOB" db --no-store --rows 100 "$T"
expect_out "cannot load SQLite (for the results store and db --engine sqlite): "
no_scratch "$T"
exit 0
