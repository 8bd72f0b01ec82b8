# bash completion for iobattery(1)                                  -*- shell-script -*-
#
# Nothing is listed here: at each completion the binary being completed is asked, so the
# completion stays right when commands, options or engines are added:
#   iobattery --help          the commands (the lines under "commands:")
#   iobattery CMD --help      CMD's options, which of them take a value (--opt METAVAR),
#                             the values a description lists ("text, json, csv",
#                             "psync (default), io_uring, libaio, mmap or null"), dd's operands (if= of= ...) and
#                             the verbs of a command with several (results list|show|...)
#   iobattery results list    store ids, labels and hosts for compare, report,
#                             results show|export|delete, --label and --host
# Installed as share/bash-completion/completions/iobattery; works without the
# bash-completion package too (. this file). Words that name no completion fall back to
# file names (complete -o default).

# _iobattery_commands BIN: the command names, one a line.
_iobattery_commands()
{
	"$1" --help 2>/dev/null | awk '
		/^commands:/ { on = 1; next }
		on && /^$/ { on = 0 }
		on && /^  [a-z]/ { print $1 }'
}

# _iobattery_options HELP: the long and short options HELP mentions, one a line.
_iobattery_options()
{
	printf '%s\n' "$1" | awk '
	{
		s = $0
		while (match(s, /(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*/)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/^[^-]/, "", t)
			if (!seen[t]++) print t
		}
		s = $0
		while (match(s, /(^|[[ ])-[A-Za-z]([],| ]|$)/)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			gsub(/[^-A-Za-z]/, "", t)
			if (!seen[t]++) print t
		}
	}'
}

# _iobattery_optinfo HELP OPT: "M<tab>METAVAR" when OPT takes a value (nothing for a
# flag), then "V<tab>VALUE" for each value its description lists. A short option named
# with a long one ("-d, --dir DIR") is looked up by the long name.
_iobattery_optinfo()
{
	printf '%s\n' "$1" | awk -v o="$2" '
	{ line[NR] = $0 }
	END {
		if (o ~ /^-[A-Za-z]$/)
			for (i = 1; i <= NR; i++)
				if (match(line[i], "(^|[[ ])" o ", --[a-z][a-z0-9-]*")) {
					o = substr(line[i], RSTART, RLENGTH)
					sub(/.*, /, "", o)
					break
				}
		re = "(^|[[ ,])" o "[ =]([A-Z][A-Za-z0-9_]*|[a-z0-9_]+([|][a-z0-9_]+)+)"
		re = re "([^A-Za-z0-9_|]|$)"
		mv = ""
		for (i = 1; i <= NR && mv == ""; i++)
			if (match(line[i], re)) {
				mv = substr(line[i], RSTART, RLENGTH)
				sub(/^[[ ,]/, "", mv)
				mv = substr(mv, length(o) + 2)
				sub(/[^A-Za-z0-9_|]$/, "", mv)
			}
		if (mv == "")
			exit
		print "M\t" mv
		# the description: the rest of the line that starts with the option
		for (i = 1; i <= NR; i++)
			if (match(line[i], "^ *(-[A-Za-z], +)?" o " [^ ]+ +")) {
				d = substr(line[i], RSTART + RLENGTH)
				break
			}
		# "a (remark), b or c; more: ..." lists a, b and c: every part one word
		while (gsub(/\([^()]*\)/, "", d))
			;
		sub(/;.*/, "", d)
		sub(/.*:/, "", d)
		n = split(d, v, /,| or /)
		if (n < 2)
			exit
		for (k = 1; k <= n; k++) {
			gsub(/^ +| +$/, "", v[k])
			if (v[k] !~ /^[a-z][a-z0-9_]*$/)
				exit
		}
		for (k = 1; k <= n; k++)
			print "V\t" v[k]
	}' 2>/dev/null
}

# _iobattery_operands HELP: the KEY= operands of an "operands" section (dd's if= of= ...).
_iobattery_operands()
{
	printf '%s\n' "$1" | awk '
		/^operands/ { on = 1; next }
		on && /^$/ { on = 0 }
		on && /^  / {
			s = $0
			while (match(s, /(^|[ ;])[a-z]+=/)) {
				t = substr(s, RSTART, RLENGTH)
				s = substr(s, RSTART + RLENGTH)
				sub(/^[ ;]/, "", t)
				if (!seen[t]++) print t
			}
		}'
}

# _iobattery_store BIN KIND: from `results list`, KIND I (ids), L (labels) or H (hosts).
# A row: id, date, host, workload, rows, flags (-, imported, incomplete), label.
_iobattery_store()
{
	"$1" results list 2>/dev/null | awk -v k="$2" '
	NR > 1 && $1 ~ /^[0-9]+$/ {
		if (k == "I") print $1
		if (k == "H" && !seen[$3]++) print $3
		l = $0
		if (k == "L" && sub(/^ *[0-9]+ +[^ ]+ +[^ ]+ +[^ ]+ +[0-9]+  (-|imported incomplete|imported|incomplete) *  /, "", l) && l != "" && !seen[l]++)
			print l
	}'
}

# _iobattery_add CUR [PREFIX]: add the lines of stdin that start with CUR to COMPREPLY,
# PREFIX before each, quoted for the shell (a label may hold spaces).
_iobattery_add()
{
	local c want=$1 pre=${2-}
	want=${want//\\/}
	while IFS= read -r c; do
		[[ -n $c && $c == "$want"* ]] || continue
		c=$pre$c
		[[ $c == *[!A-Za-z0-9_.,:/=+@%-]* ]] && c=$(printf '%q' "$c")
		COMPREPLY+=("$c")
	done
}

# _iobattery_value BIN HELP OPT CUR: complete the value of OPT.
_iobattery_value()
{
	local bin=$1 help=$2 opt=$3 cur=$4 k v mv= vals= pre=
	while IFS=$'\t' read -r k v; do
		case $k in
		M) mv=$v ;;
		V) vals+=$v$'\n' ;;
		esac
	done < <(_iobattery_optinfo "$help" "$opt")
	[[ $mv == *"|"* ]] && vals=${mv//|/$'\n'}
	if [[ -n $vals ]]; then
		# a comma-separated list (--format text,json): complete its last item
		if [[ $mv == LIST && $cur == *,* ]]; then
			pre=${cur%,*},
			cur=${cur##*,}
		fi
		_iobattery_add "$cur" "$pre" <<< "$vals"
		return 0
	fi
	case $opt in
	--label) _iobattery_add "$cur" < <(_iobattery_store "$bin" L) ;;
	--host) _iobattery_add "$cur" < <(_iobattery_store "$bin" H) ;;
	*)
		case $mv in
		DIR) COMPREPLY=($(compgen -d -- "$cur")) ;;
		FILE|SCRIPT|PATH) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	esac
	return 0
}

# _iobattery_takes_value HELP WORD: WORD is an option that takes a value.
_iobattery_takes_value()
{
	[[ $2 == -* ]] && _iobattery_optinfo "$1" "$2" | grep -q '^M'
}

_iobattery()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev= opt=
	local cmd= ci=0 help verbs verb= i w nops=0
	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	[[ $bin == "~/"* ]] && bin=$HOME/${bin#"~/"}
	type -P -- "$bin" > /dev/null 2>&1 || return 0

	# the command: the first word after the program that is not an option
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		[[ $w == -* ]] && continue
		cmd=$w
		ci=$i
		break
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_iobattery_add "$cur" < <(printf '%s\n' --help --version)
		else
			_iobattery_add "$cur" < <(_iobattery_commands "$bin")
		fi
		return 0
	fi
	help=$("$bin" "$cmd" --help 2> /dev/null)
	[[ -n $help ]] || return 0

	# --opt=VALUE: '=' is a word of its own in COMP_WORDS
	if [[ $cur == "=" ]]; then
		opt=$prev
		cur=
	elif [[ $prev == "=" ]] && ((COMP_CWORD >= 2)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $prev == -* ]] && _iobattery_takes_value "$help" "$prev"; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		[[ $opt == -* ]] && _iobattery_value "$bin" "$help" "$opt" "$cur"
		return 0 # an operand's value (dd's of=FILE): file names
	fi
	if [[ $cur == -* ]]; then
		_iobattery_add "$cur" < <(_iobattery_options "$help")
		return 0
	fi

	# a command with verbs (results list|show|export|delete) and the operands so far
	verbs=$(printf '%s\n' "$help" |
		sed -n "s/^\(usage:\)\{0,1\} *iobattery $cmd \([a-z][a-z]*\).*/\2/p")
	for ((i = ci + 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -* || $w == "=" || ${COMP_WORDS[i + 1]-} == "=" ]]; then
			continue
		fi
		_iobattery_takes_value "$help" "${COMP_WORDS[i - 1]}" && continue
		if [[ -n $verbs && -z $verb ]] && grep -qx -- "$w" <<< "$verbs"; then
			verb=$w
			continue
		fi
		nops=$((nops + 1))
	done
	if [[ -n $verbs && -z $verb ]]; then
		_iobattery_add "$cur" <<< "$verbs"
		return 0
	fi
	case $cmd in
	compare|report)
		if [[ " ${COMP_WORDS[*]} " != *" --no-store "* ]]; then
			_iobattery_add "$cur" < <(_iobattery_store "$bin" I)
			_iobattery_add "$cur" < <(_iobattery_store "$bin" L)
		fi
		COMPREPLY+=($(compgen -f -- "$cur")) ;;
	results)
		case $verb in
		show|export|delete)
			if ((nops == 0)); then
				_iobattery_add "$cur" < <(_iobattery_store "$bin" I)
				_iobattery_add "$cur" < <(_iobattery_store "$bin" L)
			fi ;;
		esac ;;
	*)
		_iobattery_add "$cur" < <(_iobattery_operands "$help")
		# if= of= ...: no space after the '='
		for w in "${COMPREPLY[@]}"; do
			[[ $w == *= ]] || return 0
		done
		((${#COMPREPLY[@]})) && compopt -o nospace 2> /dev/null ;;
	esac
	return 0
}

complete -o default -F _iobattery iobattery
