#!/bin/sh
# bench/iozone_reportpl.sh - does iozone's own report.pl read `iobattery iozone`'s main
# table? report.pl (iozone's tree, src/current/report.pl; public domain, not shipped by
# Debian's main archive and not kept here) keeps every line made only of blanks and digits
# with at least 8 fields, one per cell of the matrix, and plots each test's column with
# gnuplot. This runs a small automatic matrix (-a -g 2m), counts the cells iobattery
# printed, runs the given report.pl on the output and compares its data file's rows with
# that count; it prints both counts and the graphs gnuplot made.
#   bench/iozone_reportpl.sh PATH/TO/report.pl
# Needs perl and gnuplot. Exit 0 when report.pl read every cell, 1 otherwise.
set -u
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: $0 PATH/TO/report.pl" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
IOB=${IOB:-$top/iobattery}
pl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
for t in perl gnuplot; do
	command -v $t > /dev/null 2>&1 || { echo "$t is not installed" >&2; exit 2; }
done
w=$(mktemp -d "${TMPDIR:-/tmp}/iozone_reportpl.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
"$IOB" iozone -a -g 2m --no-store -f "$w/iozone.tmp" > iob.out 2> iob.err ||
	{ cat iob.err >&2; exit 1; }
# the cells: the table's rows of kB and reclen followed by the tests' figures
cells=$(awk '/kB +reclen/ {t = 1; next} t && NF == 0 {t = 0} t && $1 ~ /^[0-9]+$/' iob.out |
	wc -l)
perl "$pl" iob.out > pl.log 2>&1 || { cat pl.log >&2; exit 1; }
read_rows=$(wc -l < report_iob/iob.dat)
graphs=$(ls report_iob/*.png 2> /dev/null | wc -l)
echo "iobattery printed $cells cells; report.pl read $read_rows rows, gnuplot made $graphs graphs"
tail -n 1 pl.log
[ "$cells" -gt 0 ] && [ "$read_rows" -eq "$cells" ]
