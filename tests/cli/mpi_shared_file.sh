# --shared-file: four ranks write one file, each its own segment (IOR's segmented layout,
# one segment): read back, every segment holds exactly the bytes its rank generated
# (random data seeded with --seed + rank), so the segments are disjoint and complete;
# then the four read their segments of it back.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
n=4 count=16 bs=4096
mpi_run $n "$IOB" dd if=/dev/zero of=f bs=4k count=$count --data random --seed 7 \
	--shared-file --no-store --format json --quiet > w.json 2> err ||
	{ cat err; fail "shared-file write exited $?"; }
[ "$(wc -c < f)" -eq $((n * count * bs)) ] || fail "f is $(wc -c < f) bytes, not $((n * count * bs))"
[ ! -e f.0 ] || fail "a rank wrote its own file"
r=0
while [ $r -lt $n ]; do
	"$IOB" dd if=/dev/zero of=ref.$r bs=4k count=$count --data random --seed $((7 + r)) \
		--no-store --quiet > /dev/null 2>&1 || fail "reference $r"
	dd if=f of=seg.$r bs=$bs skip=$((r * count)) count=$count 2> /dev/null || fail "dd"
	cmp -s seg.$r ref.$r || fail "segment $r of the shared file is not rank $r's data"
	r=$((r + 1))
done
cmp -s ref.0 ref.1 && fail "the ranks wrote the same bytes: the check above proves nothing"
jq_true w.json ".rows[0].bytes == $((n * count * bs)) and .options[\"shared-file\"] == \"1\""

mpi_run $n "$IOB" dd if=f of=/dev/null bs=4k --shared-file --no-store --format json \
	--quiet > r.json 2> err || { cat err; fail "shared-file read exited $?"; }
jq_true r.json ".rows[0].bytes == $((n * count * bs)) and
	all(.rows[0].ranks[]; .bytes == $((count * bs)))"

# a workload without a shared file refuses the option
expect_exit 2 "$IOB" postmark --shared-file /dev/null
expect_out "--shared-file is not supported by postmark"
exit 0
