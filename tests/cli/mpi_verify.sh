# job --verify on two ranks with the fault shim corrupting a write: the merged verify row
# counts the bad blocks of both ranks and gives the first bad offset as the lowest any
# rank found, not their sum (both ranks corrupt the block at 256 KiB: a sum would say
# 512 KiB); when only rank 1 finds one, the row still holds it (rank 0's row has no
# such metric) and names that rank.
. tests/cli/lib
. tests/cli/mpi_lib
shim=$PWD/tests/fault/iobfault.so
[ -f "$shim" ] || skip "no fault shim (make fault-shim)"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"; export ASAN_OPTIONS
cd "$T" || exit 1
v='(.rows[] | select(.phase == "verify"))'
m() { echo "($v.metrics[] | select(.name == \"$1\") | .value)"; }
# the 6th write is the step's 5th block of 64 KiB (the layout is the first), at 256 KiB
for p in data. data.1; do
	IOB_FAULT="op=corrupt,nth=6,path=$p" LD_PRELOAD="$shim" mpi_run 2 "$IOB" job --name=w \
		--rw=write --bs=64k --size=1m --filename=data --verify --no-store --format json \
		> v.json 2> err
	rc=$?
	[ $rc -eq 1 ] || { cat err; fail "path=$p: exit $rc, not 1"; }
	grep -q '^iobfault: write corrupted' err || { cat err; fail "path=$p: the shim never struck"; }
	n=2
	[ $p = data.1 ] && n=1
	jq_true v.json "($v.flags | index(\"failed\")) != null and $(m verify_corrupted) == $n and
		$(m verify_bad_blocks) == $n and $(m verify_first_corrupted) == 262144"
	rm -f data.0 data.1
done
jq_true v.json "$v.error | startswith(\"rank 1 on \")"
exit 0
