# libpq is loaded with dlopen by db --pg / --pg-local only: the binary does not link it
# (no command pays for loading it at start-up), and when it cannot be loaded at run time
# both options say so and exit 1 (checked as root by hiding the library in a private
# mount namespace).
. tests/cli/lib
cd "$T" || exit 1
"$IOB" db --no-store --pg x 2>&1 | grep -q "without libpq\|built without it" &&
	skip "built without libpq"
if command -v ldd > /dev/null 2>&1; then
	ldd "$IOB" > "$T/ldd" 2>&1 || fail "ldd failed: $(cat "$T/ldd")"
	grep -q libpq "$T/ldd" && fail "iobattery is linked with libpq: $(grep libpq "$T/ldd")"
	grep -q libjansson "$T/ldd" || fail "ldd output unexpected (no libjansson): $(cat "$T/ldd")"
elif command -v readelf > /dev/null 2>&1; then
	readelf -d "$IOB" | grep NEEDED | grep -q libpq && fail "iobattery NEEDs libpq"
else
	skip "neither ldd nor readelf to inspect the binary"
fi
# start-up without libpq mapped: the process maps of a paused `iobattery postmark`
mkfifo "$T/in" || fail "mkfifo"
"$IOB" postmark --no-store < "$T/in" > "$T/pm.out" 2>&1 &
pid=$!
exec 3> "$T/in"
if [ -r "/proc/$pid/maps" ]; then
	# until the loader has mapped the libraries iobattery links (it waits for input then)
	i=0
	until grep -q libjansson "/proc/$pid/maps" 2>/dev/null || [ $i -ge 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	cp "/proc/$pid/maps" "$T/maps" 2>/dev/null
	grep -q libjansson "$T/maps" || fail "no libjansson in the maps of iobattery postmark"
	grep -q libpq "$T/maps" && fail "libpq mapped by a postmark prompt"
fi
echo quit >&3
exec 3>&-
wait $pid || fail "postmark at the prompt: $(cat "$T/pm.out")"

is_root || skip "not root: the run-time failure needs a private mount namespace"
command -v unshare > /dev/null && command -v ldconfig > /dev/null ||
	skip "unshare or ldconfig missing"
lib=$(ldconfig -p | awk '/libpq\.so\.5 / {print $NF; exit}')
[ -n "$lib" ] || skip "libpq.so.5 not in the loader's cache"
real=$(readlink -f "$lib")
unshare -m true 2> /dev/null || skip "cannot make a mount namespace here"
hide() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$real" "$@"; }
expect_exit 1 hide "$IOB" db --no-store --pg "host=$T/nonexistent"
expect_out "iobattery: cannot open the database: 'host=$T/nonexistent': cannot load libpq (for --pg and --pg-local): "
expect_exit 1 hide "$IOB" db --no-store --pg-local "$T"
expect_out "iobattery: cannot start a throwaway postgresql server: cannot load libpq (for --pg and --pg-local): "
no_scratch "$T"
# and the library is back outside the namespace: a real connection attempt
expect_exit 1 "$IOB" db --no-store --pg "host=$T/nonexistent"
grep -q "cannot load libpq" "$T/out" && fail "libpq still hidden outside the namespace"
expect_out "No such file or directory"
exit 0
