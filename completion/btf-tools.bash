# bash completion for btfgen, btfcheck, btfdump and flowctl (installed once per
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
		COMPREPLY=($(compgen -W "-o --output --in-place -j --jobs --base --distilled-base --layout --sort-types --features --style --progress --no-progress --min-core --target-btf -v --verbose -h --help -V --version" -- "$cur"))
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
	--libbpf) COMPREPLY=($(compgen -W "1.8 1.1" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "--log-level --log-size --base --strict --raw --min-kernel --target-kernel --target-btf --libbpf --json --quiet --kernel -h --help -V --version -" -- "$cur"))
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
		COMPREPLY=($(compgen -W "dump lookup key id pinned name --lookup --net --valid-json -h --help" -- "$cur")) ;;
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

_flowctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--netns | --pin | --vector | --obj | --id | --continue-from | --repeat | --rounds | \
		--tx | --rx | --to | --cpu | --packets) ((i++)) ;;
		-*) ;;
		*) [[ -z $cmd ]] && cmd=${COMP_WORDS[i]} ;;
		esac
	done
	case $prev in
	--netns | --tx | --rx)
		COMPREPLY=($(compgen -W "$(ls /run/netns 2>/dev/null)" -- "$cur") $(compgen -f -- "$cur"))
		return ;;
	--pin) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--obj) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--continue-from) COMPREPLY=($(compgen -W "none" -- "$cur")); return ;;
	--vector | --id | --repeat | --rounds | --to | --cpu | --packets) return ;;
	esac
	if [[ -z $cmd && $cur != -* ]]; then
		COMPREPLY=($(compgen -W "attach detach show test send dump bench bench-e2e help" -- "$cur"))
		return
	fi
	# each command's options (flowctl --help), then the general ones
	local o
	case $cmd in
	attach) o="--netns --pin --prog-attach --record --obj --continue-from" ;;
	detach) o="--netns --pin" ;;
	show) o="--netns" ;;
	test) o="--vector --json --record --obj" ;;
	send) o="--netns --vector" ;;
	dump) o="--netns --pin --id --net --hex" ;;
	bench) o="--repeat --rounds --obj" ;;
	bench-e2e) o="--tx --rx --to --cpu --packets --rounds" ;;
	*) o="--netns --pin --prog-attach --record --obj --continue-from --vector --json --id --net --hex --repeat --rounds --tx --rx --to --cpu --packets" ;;
	esac
	COMPREPLY=($(compgen -W "$o -h --help -V --version" -- "$cur"))
}

complete -F _btfgen btfgen
complete -F _btfcheck btfcheck
complete -F _btfdump btfdump
complete -F _flowctl flowctl
