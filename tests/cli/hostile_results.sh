# Hostile result files: refused with the key's name (a row without its phase, a run
# without its id, figures out of range, a repeat past 2^32), never stored; an id that is
# a path stays inside -o DIR; a FIFO is refused at once; control characters never reach
# the terminal from compare, results list, results show or import.
. tests/cli/lib
. tests/cli/hostile_lib
cd "$T" || exit 1
mkdir in dst cwd
IOBATTERY_DB="$T/store/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made
a=$OLDPWD/tests/data/cmp-a.json
b=$OLDPWD/tests/data/cmp-b.json

# edit FILE SED-SCRIPT > in/NAME: a variant of a good result
sed '0,/"phase": "write",/{/"phase": "write",/d}' "$a" > in/nophase.json
sed '0,/^   "workload": "dd",/{s/^   "workload": "dd",/   "workload": null,/}' "$a" > in/nowl.json
sed 's/^ "id": .*/ "id": null,/' "$a" > in/noid.json
sed '0,/"rate": [0-9.]*/{s/"rate": [0-9.]*/"rate": 1e300/}' "$a" > in/rate.json
sed '0,/"user_s": [0-9.]*/{s/"user_s": [0-9.]*/"user_s": 1e300/}' "$a" > in/cpu.json
sed '0,/"mean_ns": [0-9.]*/{s/"mean_ns": [0-9.]*/"mean_ns": 1e300/}' "$a" > in/mean.json
sed '0,/"repeat": 0,/{s/"repeat": 0,/"repeat": 4294967296,/}' "$a" > in/repeat.json
sed 's/^ "id": .*/ "id": "x\/..\/..\/escaped",/' "$a" > in/pathid.json
sed 's/^ "label": .*/ "label": "\\u001b]0;pwned\\u0007\\u001b[2J\\nfake: line",/;
     s/"host": "[a-z]*"/"host": "\\u001b[31mred\\u009b"/' "$b" > in/ctrl.json
grep -q '"phase": "write"' in/nophase.json && grep -c '"phase": "write"' in/nophase.json |
	grep -qx 1 && fail "sed did not remove a phase"
tree_snap in "$T/in"

refused() { # FILE MESSAGE: report, compare and import refuse FILE, naming the key
	expect_exit 2 "$IOB" report --no-store -o "$T/dst/r.html" "in/$1"
	expect_out "$2"
	expect_exit 2 "$IOB" compare --no-store "$a" "in/$1"
	expect_out "$2"
	expect_exit 2 "$IOB" import -o "$T/dst" "in/$1"
	expect_out "$2"
}
refused nophase.json "'rows[0].phase': missing (required)"
refused nowl.json "'rows[0].workload': missing (required)"
refused noid.json "'id': missing (required)"
refused rate.json "'rows[0].rate': out of range"
refused cpu.json "'rows[0].cpu.user_s': out of range"
refused mean.json "'rows[0].latency.mean_ns': out of range"
refused repeat.json "'rows[0].repeat': out of range (at most 4294967295)"
[ -z "$(ls dst)" ] || fail "a refused file left output: $(ls dst)"
[ ! -e "$T/store/results.db" ] || {
	expect_exit 0 "$IOB" results list
	grep -q "alpha" "$T/out" && fail "a refused file was stored"
}

# an id that is a path: the file stays in -o DIR under a sanitised name
expect_exit 0 "$IOB" import --no-store -o "$T/dst" in/pathid.json
ls dst | grep -qx 'iobattery-import-x_.._.._escaped.json' || fail "id not sanitised: $(ls dst)"
[ ! -e "$T/escaped.json" ] && [ ! -e "$T/iobattery-import-x" ] || fail "wrote outside -o"
rm -f dst/*

# a FIFO: refused at once, not opened for reading (which would block)
mkdir ff
mkfifo ff/fifo
expect_exit 2 timeout 20 "$IOB" import --no-store -o "$T/dst" ff/fifo
expect_out "not a regular file"
expect_exit 2 timeout 20 "$IOB" report --no-store -o "$T/dst/r.html" ff/fifo
expect_out "not a regular file"

# control characters: escaped on the terminal, whatever prints them
expect_exit 0 "$IOB" import -o "$T/dst" in/ctrl.json
no_ctrl "$T/out"
cp "$T/out" "$T/import.out"
expect_exit 0 "$IOB" compare "$a" in/ctrl.json
no_ctrl "$T/out"
expect_out '\x1b]0;pwned\x07\x1b[2J fake: line'	# a line break in data is a space, never a line
expect_out '\x1b[31mred\u009b'
expect_exit 0 "$IOB" results list
no_ctrl "$T/out"
expect_out '\x1b]0;pwned'
expect_exit 0 "$IOB" results show 1
no_ctrl "$T/out"
tree_same in "$T/in"
[ -z "$(ls cwd)" ] || fail "files in the working directory: $(ls cwd)"
exit 0
