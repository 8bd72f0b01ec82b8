# job --shared-file: two ranks write one file, each its own segment of the job's size=
# (IOR's segmented layout). Read back block by block, segment r holds nothing but rank
# r's write buffer (each rank writes one buffer of its own, seeded with its rank, and
# the layout's random bytes would differ block to block; scramble_buffers=0 keeps that
# buffer as it is, where fio's default changes a few bytes of it per write): the random offsets stayed in
# the segment, the segments are disjoint and complete. The request logs (NAME.RANK)
# say the same by offset; then both ranks read their segments of it back.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
bs=4096 size=65536 nb=16
mpi_run 2 "$IOB" job --name=s --rw=randwrite --bs=4k --size=64k --filename=data \
	--scramble_buffers=0 --write_iolog=log --shared-file --no-store --format json --quiet > w.json 2> err ||
	{ cat err; fail "shared-file job exited $?"; }
[ "$(wc -c < data)" -eq $((2 * size)) ] || fail "data is $(wc -c < data) bytes, not $((2 * size))"
[ ! -e data.0 ] && [ ! -e data.1 ] || fail "a rank wrote a file of its own"
jq_true w.json '.options["shared-file"] == "1"'
for p in aggregate write; do
	r="(.rows[] | select(.phase == \"$p\"))"
	jq_true w.json "$r.bytes == $((2 * size)) and all($r.ranks[]; .bytes == $size)"
done
i=0
while [ $i -lt $((2 * nb)) ]; do
	dd if=data bs=$bs skip=$i count=1 2> /dev/null | cksum
	i=$((i + 1))
done > sums
[ "$(head -n $nb sums | sort -u | wc -l)" -eq 1 ] || fail "segment 0 holds other bytes"
[ "$(tail -n $nb sums | sort -u | wc -l)" -eq 1 ] || fail "segment 1 holds other bytes"
[ "$(sort -u sums | wc -l)" -eq 2 ] || fail "the two ranks' segments hold the same bytes"
# every block of rank r's segment exactly once, no other (the request logs)
for r in 0 1; do
	[ -f log.$r ] || fail "no request log log.$r"
	awk '$3 == "write" { print $4 }' log.$r | sort -n > offs.$r
	i=0
	while [ $i -lt $nb ]; do echo $(((r * nb + i) * bs)); i=$((i + 1)); done > want.$r
	cmp -s offs.$r want.$r || { paste offs.$r want.$r >&2; fail "rank $r wrote outside its segment"; }
done
rm -f log.0 log.1

mpi_run 2 "$IOB" job --name=r --rw=read --bs=4k --filename=data --write_iolog=log \
	--shared-file --no-store --format json --quiet > r.json 2> err ||
	{ cat err; fail "shared-file read exited $?"; }
r='(.rows[] | select(.phase == "read"))'
jq_true r.json "$r.bytes == $((2 * size)) and all($r.ranks[]; .bytes == $size)"
[ "$(awk '$3 == "read" { print $4 }' log.1 | sort -n | head -n 1)" -eq $size ] ||
	fail "rank 1 did not read from its segment's start"
rm -f data log.0 log.1

# scratch files without filename=: one shared scratch directory, removed at the end
mpi_run 2 "$IOB" job --name=t --rw=write --bs=4k --size=64k --shared-file --no-store \
	--format json --quiet > t.json 2> err || { cat err; fail "scratch shared-file exited $?"; }
jq_true t.json '(.rows[] | select(.phase == "write")).bytes == 131072'
expect_exit 2 mpi_run 2 "$IOB" job --name=v --rw=write --bs=4k --size=64k --shared-file \
	--verify --no-store
expect_out "--verify does not check a --shared-file"
[ -z "$(ls | grep -v '\.json$\|^err$\|^out$\|^sums$\|^offs\|^want')" ] || fail "left behind: $(ls)"
exit 0
