# Metadata workloads across ranks: PostMark in one directory shared by three ranks
# (--shared-dir: every rank's files, prefixed by its rank, in rank 0's scratch directory)
# and one each (the default); Bonnie's file tests likewise. Counts are the sums of the
# ranks', nothing is left behind, and a directory the other ranks cannot see is refused.
. tests/cli/lib
. tests/cli/mpi_lib
cd "$T" || exit 1
mkdir loc
printf 'set location %s\nset number 100\nset transactions 300\nset subdirectories 2\nrun\nquit\n' \
	"$T/loc" > pm.txt
for mode in --shared-dir ""; do
	mpi_run 3 "$IOB" postmark pm.txt $mode --no-store --format json --quiet > pm.json \
		2> err || { cat err; fail "postmark $mode exited $?"; }
	t='(.rows[] | select(.phase == "total"))'
	m() { echo "($t.metrics[] | select(.name == \"$1\") | .value)"; }
	jq_true pm.json "$(m files_created) >= 300 and $(m files_created) == $(m files_deleted)
		and ($t.ranks | length) == 3"
	jq_true pm.json "([(.rows[] | select(.phase == \"create_alone\")).ranks[].ops] |
		add) == 300 and (.rows[] | select(.phase == \"create_alone\")).ops == 300"
	[ -z "$(ls loc)" ] || fail "postmark $mode left: $(ls loc)"
done
jq_true pm.json '.options["shared-dir"] == null'

mkdir bd
mpi_run 2 "$IOB" bonnie -d bd -s 0 -n 1 -r 0 --shared-dir --no-store --format json \
	--quiet > b.json 2> err || { cat err; fail "bonnie --shared-dir exited $?"; }
jq_true b.json '(.rows[] | select(.phase == "seq_create")).ops == 2048 and
	.options["shared-dir"] == "1"'
[ -z "$(ls bd)" ] || fail "bonnie left: $(ls bd)"
exit 0
