# lat_percentiles=1 prints fio's "lat percentiles" block after clat's, and fio JSON's
# lat_ns gets a "percentile" object keyed as clat_ns's; clat_percentiles=0 leaves only
# the lat block; without the option neither appears. A synchronous engine's total
# latency is its completion latency (the same figures); an asynchronous engine's is the
# time from filling the request to its completion, so no percentile of it is below
# clat's at the same rank. fio shows the same blocks and keys for the same options.
. tests/cli/lib
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
cd "$T" || exit 1
job() { "$IOB" job --no-store --quiet --name=p --filename=p.dat --size=256k --bs=4k \
	--rw=randread "$@"; }
blocks() { grep -o '^ *[a-z]* percentiles (' | tr -s ' ' | tr '\n' ';'; }
keys='
import json, sys
r = json.load(sys.stdin)["jobs"][0]["read"]
print(" ".join("%s:%s" % (k, ",".join(r[k].get("percentile", {}))) for k in ("clat_ns", "lat_ns")))'

job > text 2>&1 || { cat text; fail "plain job failed"; }
[ "$(blocks < text)" = " clat percentiles (;" ] || fail "default blocks: $(blocks < text)"
job --lat_percentiles=1 > text 2>&1 || { cat text; fail "lat_percentiles=1 failed"; }
[ "$(blocks < text)" = " clat percentiles (; lat percentiles (;" ] ||
	fail "lat_percentiles=1 blocks: $(blocks < text)"
# psync: the two blocks hold the same figures
[ "$(sed -n '/ clat percentiles/,/99.99th/p' text | tail -n +2)" = \
  "$(sed -n '/ lat percentiles/,/99.99th/p' text | tail -n +2)" ] ||
	{ cat text; fail "psync: lat percentiles differ from clat's"; }
job --lat_percentiles=1 --clat_percentiles=0 > text 2>&1 || fail "clat_percentiles=0 failed"
[ "$(blocks < text)" = " lat percentiles (;" ] || fail "only lat: $(blocks < text)"
job --lat_percentiles=1 --percentile_list=50:99 > text 2>&1 || fail "percentile_list failed"
grep -q '^     | 50.00th=\[ *[0-9]*\], 99.00th=\[ *[0-9]*\]$' text ||
	{ cat text; fail "percentile_list: not two entries"; }

# fio JSON
got=$(job --format fio-json --lat_percentiles=1 --percentile_list=50:99 | python3 -c "$keys")
[ "$got" = "clat_ns:50.000000,99.000000 lat_ns:50.000000,99.000000" ] ||
	fail "fio-json keys: $got"
got=$(job --format fio-json | python3 -c "$keys")
[ "$got" = "clat_ns:1.000000,5.000000,10.000000,20.000000,30.000000,40.000000,50.000000,60.000000,70.000000,80.000000,90.000000,95.000000,99.000000,99.500000,99.900000,99.950000,99.990000 lat_ns:" ] ||
	fail "fio-json without lat_percentiles: $got"

# an asynchronous engine: lat at each rank is at least clat's there
if have_feature libaio; then
	job --format fio-json --lat_percentiles=1 --ioengine=libaio --iodepth=4 > aio.json ||
		fail "libaio failed"
	python3 - aio.json <<'EOF' || fail "libaio: lat percentiles below clat's"
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
c, l = r["clat_ns"]["percentile"], r["lat_ns"]["percentile"]
assert len(l) == 17 and set(c) == set(l), (c, l)
# each value is a histogram bucket's (under 1% error): allow that much
bad = [k for k in c if l[k] < c[k] * 0.99]
assert not bad, [(k, c[k], l[k]) for k in bad]
assert l["99.990000"] >= r["lat_ns"]["min"]
EOF
fi

# fio prints the same blocks and keys
if command -v fio > /dev/null 2>&1; then
	for o in "" "--lat_percentiles=1" "--lat_percentiles=1 --clat_percentiles=0"; do
		# shellcheck disable=SC2086
		fb=$(fio --name=p --filename=p.dat --size=256k --bs=4k --rw=randread $o | blocks)
		# shellcheck disable=SC2086
		ob=$(job $o | blocks)
		[ "$fb" = "$ob" ] || fail "'$o': fio's blocks '$fb', ours '$ob'"
		# shellcheck disable=SC2086
		fk=$(fio --name=p --filename=p.dat --size=256k --bs=4k --rw=randread $o \
			--output-format=json | python3 -c "$keys")
		# shellcheck disable=SC2086
		ok=$(job $o --format fio-json | python3 -c "$keys")
		[ "$fk" = "$ok" ] || fail "'$o': fio's JSON keys '$fk', ours '$ok'"
	done
fi
no_scratch .
exit 0
