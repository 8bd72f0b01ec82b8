# fio's example job files (Debian's fio-examples, not part of this tree): every one fio
# accepts is accepted by iobattery or refused for a reason named in the script
# (an engine it lacks, zonemode=zbd, an option of fio's logs), and a set of them runs
# through both at 4 MiB with the same I/O counts, bytes and mix (job_fio_examples.py).
. tests/cli/lib
ex=/usr/share/doc/fio/examples
command -v fio > /dev/null 2>&1 || skip "fio is not installed"
[ -d "$ex" ] || skip "fio's examples are not installed (Debian package fio-examples)"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
have_feature libaio || skip "this build has no libaio (most examples use it)"
python3 "$(dirname "$0")/job_fio_examples.py" "$IOB" "$ex" "$T" || fail "see above"
exit 0
