#!/bin/bash
# The bash completion (completion/btf-tools.bash): every option each
# program's --help lists is offered somewhere, and the subcommands complete
# their own words (btfdump map options, format c options, btfgen features,
# flowctl's commands and each command's options).
. "$(dirname "$0")/../lib.sh"
source completion/btf-tools.bash
# complete FUNC WORD...: the candidates for the last word
complete_words() {
	local fn=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	$fn
	printf '%s\n' "${COMPREPLY[@]}" | sort -u
}
# expect FUNC "WORDS" CANDIDATE...: each candidate offered
expect() {
	local fn=$1 words=$2 c got
	shift 2
	local -a w
	read -ra w <<<"$words"
	[[ $words == *" " ]] && w+=("") # completing a new, empty word
	got=$(complete_words $fn "${w[@]}")
	for c in "$@"; do
		grep -qxF -- "$c" <<<"$got" || bad "$fn '$words': '$c' not offered (got: $(echo $got))"
	done
}
expect _btfdump "btfdump map -" --lookup --net --valid-json --help
expect _btfdump "btfdump file x.btf format c -" --compat --sort --unsorted --types --kfuncs -o --output
expect _btfdump "btfdump -c x.btf -" --compat --sort --unsorted --types --kfuncs -o
expect _btfdump "btfdump file x.btf format c --compat " 7.1 newest
expect _btfdump "btfdump file x.btf format " raw c
expect _btfdump "btfdump file x.btf " format --base
expect _btfdump "btfdump " file id map ext btf help
expect _btfdump "btfdump ext Makef" Makefile
expect _btfdump "btfdump map " id pinned name dump lookup
expect _btfgen "btfgen --features -fl" -float
expect _btfgen "btfgen --features float,en" float,enum64
expect _btfcheck "btfcheck --log-level " 0 1
expect _flowctl "flowctl " attach detach show test send dump bench bench-e2e help
expect _flowctl "flowctl bench -" --repeat --rounds --obj --help
expect _flowctl "flowctl --json test -" --vector --record
expect _flowctl "flowctl attach --obj Makef" Makefile
expect _flowctl "flowctl dump --netns x -" --pin --id --net --hex
# every option of --help is offered by the program's completion
opts_of() { sed -n 's/^ *\(-.*\)$/\1/p' | sed 's/  .*//' | grep -oE '(^|[ ,|[])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,|[]//' | sort -u; }
for p in btfgen btfcheck btfdump flowctl; do
	offered=$(grep -A200 "^_$p()" completion/btf-tools.bash | sed '/^}/q' | grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u)
	for o in $("$B/$p" --help | opts_of); do
		grep -qxF -- "$o" <<<"$offered" || bad "$p: --help lists $o, the completion does not offer it"
	done
done
[ $fail -eq 0 ] && echo "PASS: bash completion offers every --help option and the subcommands' words"
exit $fail
