# Shell completion: the bash script loads and registers itself (complete -p iobattery) and
# its function, driven with COMP_WORDS/COMP_CWORD, completes commands, options, engine
# names, --format values, dd's operands, results' verbs and the store's ids and labels of a
# run made here. The zsh script (where zsh is installed) is driven the same way with
# compadd and _files replaced by functions that print what they are given.
. tests/cli/lib
command -v bash > /dev/null || skip "no bash"
mkdir "$T/bin" "$T/w" || fail "mkdir"
ln -s "$IOB" "$T/bin/iobattery" || fail "ln"
PATH="$T/bin:$PATH"; export PATH
IOBATTERY_DB="$T/db/results.db"; export IOBATTERY_DB
mkdir -p "${IOBATTERY_DB%/*}"	# only the default store's directory is made
(cd "$T/w" && "$IOB" dd if=/dev/zero of=f bs=4k count=16 --quiet --label "ext4 noatime" \
	> /dev/null) || fail "dd into the temp store"
id=$("$IOB" results list | awk 'NR == 2 { print $1 }')
[ -n "$id" ] || fail "no store id from results list"

# bash: a line "WORDS... => REPLY..." per case; the last word is the one completed
cat > "$T/drv.bash" << 'EOF'
. completion/iobattery.bash || exit 1
complete -p iobattery || exit 1
c() {
	COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
	_iobattery
	printf '%s =>' "$*"
	((${#COMPREPLY[@]})) && printf ' %s' "${COMPREPLY[@]}"
	echo
}
c iobattery d
c iobattery res
c iobattery -
c iobattery dd --en
c iobattery su
c iobattery sustained --ho
c iobattery verify --res
c iobattery dd --no-s
c iobattery dd --engine ""
c iobattery dd --engine p
c iobattery dd --format ""
c iobattery dd --format text,j
c iobattery dd --format = j
c iobattery dd o
c iobattery results ""
c iobattery results show ""
c iobattery results show ext
c iobattery results show 1 ""
c iobattery results export --format ""
c iobattery compare ""
c iobattery compare --no-store ""
c iobattery run --label ""
c iobattery cp --method ""
c iobattery bonnie --char-method ""
EOF
bash "$T/drv.bash" > "$T/bash.out" 2> "$T/bash.err" || {
	cat "$T/bash.err" >&2; fail "the bash completion script did not load"; }
grep -q '^complete -o default -F _iobattery iobattery$' "$T/bash.out" ||
	fail "complete -p iobattery: $(head -n 1 "$T/bash.out")"
[ -s "$T/bash.err" ] && { cat "$T/bash.err" >&2; fail "the bash completion wrote errors"; }

# expect FILE 'WORDS =>' 'REPLY': the reply line for WORDS is exactly REPLY
expect() {
	got=$(grep -F -x -- "$2$3" "$1")
	[ -n "$got" ] && return 0
	grep -F -- "$2" "$1" >&2
	fail "completion of '$2' is not '$3'"
}
# has FILE 'WORDS =>' WORD...: the reply for WORDS holds each WORD; lacks: holds none
has() {
	f=$1 w=$2; shift 2
	line=$(grep -F -- "$w " "$f"; grep -F -x -- "$w" "$f")
	for x in "$@"; do
		case " ${line#*=>} " in *" $x "*) ;; *) echo "$line" >&2
			fail "completion of '$w' lacks '$x'" ;; esac
	done
}
lacks() {
	f=$1 w=$2; shift 2
	line=$(grep -F -- "$w " "$f"; grep -F -x -- "$w" "$f")
	for x in "$@"; do
		case " ${line#*=>} " in *" $x "*) echo "$line" >&2
			fail "completion of '$w' offers '$x'" ;; esac
	done
}
B=$T/bash.out
expect "$B" 'iobattery d =>' ' dd db'
expect "$B" 'iobattery res =>' ' results'
expect "$B" 'iobattery - =>' ' --help --version'
expect "$B" 'iobattery dd --en =>' ' --engine'
expect "$B" 'iobattery su =>' ' sustained'
expect "$B" 'iobattery sustained --ho =>' ' --hold'
expect "$B" 'iobattery verify --res =>' ' --result'
expect "$B" 'iobattery dd --no-s =>' ' --no-space-check --no-store --no-sample'
expect "$B" 'iobattery dd --engine  =>' ' psync io_uring libaio mmap null'
expect "$B" 'iobattery dd --engine p =>' ' psync'
expect "$B" 'iobattery dd --format  =>' ' text json csv'
expect "$B" 'iobattery dd --format text,j =>' ' text,json'
expect "$B" 'iobattery dd --format = j =>' ' json'
expect "$B" 'iobattery dd o =>' ' of= obs= oflag='
expect "$B" 'iobattery results  =>' ' list show export delete'
has "$B" 'iobattery results show  =>' "$id" 'ext4\ noatime'
expect "$B" 'iobattery results show ext =>' ' ext4\ noatime'
expect "$B" 'iobattery results show 1  =>' ''
expect "$B" 'iobattery results export --format  =>' ' json csv'
has "$B" 'iobattery compare  =>' "$id" 'ext4\ noatime'
lacks "$B" 'iobattery compare --no-store  =>' "$id"
expect "$B" 'iobattery run --label  =>' ' ext4\ noatime'
expect "$B" 'iobattery cp --method  =>' ' auto rw copy_file_range sendfile'
expect "$B" 'iobattery bonnie --char-method  =>' ' syscall putc'

# every command of --help is offered, and every option of dd --help
cmds=$("$IOB" --help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
printf '. completion/iobattery.bash\nCOMP_WORDS=(iobattery ""); COMP_CWORD=1; _iobattery\n%s\n' \
	'printf "%s\n" "${COMPREPLY[@]}"' > "$T/all.bash"
bash "$T/all.bash" > "$T/all.out" || fail "completing commands"
[ "$(printf '%s\n' $cmds)" = "$(cat "$T/all.out")" ] ||
	fail "commands offered: $(tr '\n' ' ' < "$T/all.out") but --help lists: $cmds"
printf '. completion/iobattery.bash\nCOMP_WORDS=(iobattery dd -); COMP_CWORD=2; _iobattery\n%s\n' \
	'printf "%s\n" "${COMPREPLY[@]}"' > "$T/opts.bash"
bash "$T/opts.bash" > "$T/opts.out" || fail "completing dd options"
for o in $("$IOB" dd --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -x -- "$o" "$T/opts.out" || fail "dd option $o not offered"
done

# zsh: the same function logic under stand-ins for compadd, compset and _files
if ! command -v zsh > /dev/null; then
	echo "note: zsh is not installed; the zsh completion was not exercised"
	exit 0
fi
cat > "$T/drv.zsh" << 'EOF'
compadd() {
	local -a out
	local a
	while (( $# )); do
		case $1 in
		--) shift; out+=("$@"); break ;;
		-a) out+=(${(P)2}); shift 2 ;;
		-[XdSJVPpiIrRFWME]) shift 2 ;;
		*) shift ;;
		esac
	done
	for a in $out; do [[ $a == ${PREFIX}* ]] && print -rn -- " $IPREFIX${a// /+}"; done
	return 0
}
_files() { print -n ' <files>' }
_directories() { print -n ' <dirs>' }
compset() {
	[[ $1 == -P ]] || return 1
	local m=${(M)PREFIX##$~2}
	[[ -n $m ]] || return 1
	IPREFIX+=$m
	PREFIX=${PREFIX#$m}
}
source completion/_iobattery
c() {
	words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}; IPREFIX=
	print -n -- "$* =>"; _iobattery; print
}
c iobattery d
c iobattery dd --en
c iobattery sustained --ho
c iobattery dd --engine ''
c iobattery dd --format text,j
c iobattery dd --format=j
c iobattery dd o
c iobattery results ''
c iobattery results show ''
c iobattery run -d ''
EOF
zsh -f "$T/drv.zsh" > "$T/zsh.out" 2> "$T/zsh.err" || {
	cat "$T/zsh.err" >&2; fail "the zsh completion failed"; }
[ -s "$T/zsh.err" ] && { cat "$T/zsh.err" >&2; fail "the zsh completion wrote errors"; }
Z=$T/zsh.out
expect "$Z" 'iobattery d =>' ' dd db'
expect "$Z" 'iobattery dd --en =>' ' --engine'
expect "$Z" 'iobattery sustained --ho =>' ' --hold'
expect "$Z" 'iobattery dd --engine  =>' ' psync io_uring libaio mmap null'
expect "$Z" 'iobattery dd --format text,j =>' ' text,json'
expect "$Z" 'iobattery dd --format=j =>' ' --format=json'
expect "$Z" 'iobattery dd o =>' ' of= obs= oflag='
expect "$Z" 'iobattery results  =>' ' list show export delete'
expect "$Z" 'iobattery results show  =>' " $id ext4+noatime"
expect "$Z" 'iobattery run -d  =>' ' <dirs>'
exit 0
