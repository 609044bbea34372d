# bash completion for btfgen, btfcheck and btfdump (installed once per
# command name under share/bash-completion/completions, loaded on demand).
# The options are the ones each program's --help lists.

_btfgen()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-o | --output | --base | --target-btf) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-j | --jobs) COMPREPLY=($(compgen -W "1 2 4 8" -- "$cur")); return ;;
	--style) COMPREPLY=($(compgen -W "clang pahole" -- "$cur")); return ;;
	--features)
		local names="float enum64 type_tag decl_tag func var percpu_var dedup reuse default all none"
		local head=${cur%"${cur##*,}"} last=${cur##*,} n words=
		for n in $names; do words+=" $head$n $head-$n"; done
		COMPREPLY=($(compgen -W "$words" -- "$cur")); compopt -o nospace 2>/dev/null
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "-o --output --in-place -j --jobs --base --distilled-base --layout --features --style --progress --no-progress --min-core --target-btf -v --verbose -h --help -V --version" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

_btfcheck()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	--base|--target-btf) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--log-level) COMPREPLY=($(compgen -W "0 1 2 3" -- "$cur")); return ;;
	--log-size|--target-kernel) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "--log-level --log-size --base --strict --raw --min-kernel --target-kernel --target-btf --json --quiet --kernel -h --help -V --version -" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

_btfdump()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local i cmd= cmdpos=0 fmt= c_flag=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-B | --base-btf | --base | -o | --output | --types | --compat) ((i++)) ;;
		-c) c_flag=1 ;;
		-*) ;;
		format) fmt=format ;;
		c) [[ $fmt == format ]] && fmt=c ;;
		*) [[ -z $cmd ]] && cmd=${COMP_WORDS[i]} cmdpos=$i ;;
		esac
	done
	case $prev in
	-B | --base-btf | --base | -o | --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	format) COMPREPLY=($(compgen -W "raw c" -- "$cur")); return ;;
	--compat) COMPREPLY=($(compgen -W "7.1 newest" -- "$cur")); return ;;
	pinned) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--types | --lookup | id | name) return ;;
	esac
	case $cmd in
	"")
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-j --json -p --pretty -c -B --base-btf -h --help -V --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "file id map ext btf help" -- "$cur") $(compgen -f -- "$cur"))
		fi ;;
	map)
		COMPREPLY=($(compgen -W "dump id pinned name --lookup --net --valid-json -h --help" -- "$cur")) ;;
	btf)
		COMPREPLY=($(compgen -W "dump file id" -- "$cur")) ;;
	ext)
		# one PATH: the BPF object
		((COMP_CWORD == cmdpos + 1)) && COMPREPLY=($(compgen -f -- "$cur")) ;;
	help) ;;
	*)
		if [[ $fmt == c || -n $c_flag ]]; then
			COMPREPLY=($(compgen -W "--compat --sort --unsorted --types --kfuncs -o --output" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "format --base" -- "$cur"))
		fi
		# the PATH after `file`
		((COMP_CWORD == cmdpos + 1)) && [[ $cmd == file ]] && COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}

complete -F _btfgen btfgen
complete -F _btfcheck btfcheck
complete -F _btfdump btfdump
