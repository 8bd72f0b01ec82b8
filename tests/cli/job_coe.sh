# continue_on_error: the requests it passes over are counted as fio 3.33 counts them:
# fio JSON's total_err and first_error (and the job's error set to the first, total_ios
# counting them as issued), the summary's "errors" line, a note on iobattery's own row,
# and exit 0 (the job ran as asked); without continue_on_error the job stops at the first
# and fails. The errors come from the fault shim (tests/fault/iobfault.so: every write
# from the 5th on fails with EIO); fio under the same shim gives the same figures.
. tests/cli/lib
shim=$PWD/tests/fault/iobfault.so
[ -f "$shim" ] || skip "the fault shim was not built (needs Linux and glibc)"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
cd "$T" || exit 1
show='
import json, sys
s = sys.stdin.read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(j["error"], j.get("total_err", "-"), j.get("first_error", "-"), j["write"]["total_ios"],
      j["write"]["io_bytes"])'
faulty() { rm -f ce.dat; IOB_FAULT="op=write,err=EIO,nth=5,path=ce.dat" LD_PRELOAD="$shim" "$@"; }
opts="--name=x --filename=ce.dat --size=64k --bs=4k --rw=write"

# shellcheck disable=SC2086
faulty "$IOB" job --no-store --quiet --format fio-json $opts --continue_on_error=all \
	> j.json 2> err || { cat err; fail "continue_on_error=all: not exit 0"; }
[ "$(python3 -c "$show" < j.json)" = "5 12 5 16 16384" ] ||
	fail "fio-json: $(python3 -c "$show" < j.json), fio gives 5 12 5 16 16384"
# shellcheck disable=SC2086
faulty "$IOB" job --no-store $opts --continue_on_error=write > text 2>&1 ||
	{ cat text; fail "continue_on_error=write: not exit 0"; }
for l in "x: (groupid=0, jobs=1): err= 5:" "     issued rwts: total=0,16,0,0 " \
	"     errors    : total=12, first_error=5/<Input/output error>" \
	"continue_on_error: 12 writes failed and were passed over"; do
	grep -qF -- "$l" text || { cat text; fail "the text lacks '$l'"; }
done
# a kind it does not name: the job stops at the first and fails
# shellcheck disable=SC2086
faulty "$IOB" job --no-store --quiet --format fio-json $opts --continue_on_error=read \
	> j.json 2> err && fail "continue_on_error=read passed a write error"
[ "$(python3 -c "$show" < j.json)" = "5 0 0 4 16384" ] ||
	fail "continue_on_error=read: $(python3 -c "$show" < j.json)"
# shellcheck disable=SC2086
faulty "$IOB" job --no-store --quiet --format fio-json $opts > j.json 2> err &&
	fail "a write error without continue_on_error: exit 0"
[ "$(python3 -c "$show" < j.json)" = "5 - - 4 16384" ] ||
	fail "no continue_on_error: $(python3 -c "$show" < j.json)"

if command -v fio > /dev/null 2>&1; then
	# shellcheck disable=SC2086
	faulty fio --output-format=json $opts --continue_on_error=all > f.json 2> /dev/null ||
		fail "fio failed"
	[ "$(python3 -c "$show" < f.json)" = "5 12 5 16 16384" ] ||
		fail "fio now gives $(python3 -c "$show" < f.json)"
fi
no_scratch .
exit 0
