#!/bin/bash
# Every option a program's --help lists is in its man page's OPTIONS, and
# every option the man page lists is in --help. Options are read from the
# option lines of --help (lines starting with '-': the words before two
# spaces) and from the .TP items of the man page's OPTIONS section(s). Also:
# each page renders with `man -l` without warnings; btfdump's commands are
# the same in --help, the man page's SYNOPSIS and the completion;
# btfgen-pahole's --help and btfgen(1)'s PAHOLE COMPATIBILITY list the same
# options.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
opt_words() { grep -oE '(^|[ ,|[])--?[A-Za-z][A-Za-z0-9_-]*' | sed 's/^[ ,|[]//' | sort -u; }
help_opts() {
	sed -n 's/^ *\(-.*\)$/\1/p' | sed 's/  .*//' | opt_words
}
# the line after each .TP between ".SH SECTION" (default OPTIONS) and the
# next .SH (.SS kept)
man_opts() {
	awk -v sec="${2:-OPTIONS}" '/^\.SH/ { $1 = ""; in_opts = (substr($0, 2) == sec) }
		in_opts && tp { print; tp = 0 } /^\.TP/ { tp = in_opts }' "$1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/^\.[A-Z]* //' -e 's/"//g' -e 's/=[A-Z]*//g' | opt_words
}
pages=0
for page in man/btfgen.1 man/btfcheck.1 man/btfdump.1 man/flowctl.8; do
	p=$(basename "${page%.*}")
	pages=$((pages + 1))
	[ -x "$B/$p" ] || { bad "$B/$p not built"; continue; }
	"$B/$p" --help | help_opts >"$T/$p.help"
	man_opts "$page" >"$T/$p.man"
	[ -s "$T/$p.help" ] && [ -s "$T/$p.man" ] || { bad "$p: no options found (help or man page)"; continue; }
	only_help=$(comm -23 "$T/$p.help" "$T/$p.man" | tr '\n' ' ')
	only_man=$(comm -13 "$T/$p.help" "$T/$p.man" | tr '\n' ' ')
	[ -z "$only_help" ] || bad "$p: in --help, not in $page: $only_help"
	[ -z "$only_man" ] || bad "$p: in $page, not in --help: $only_man"
	echo "$p: $(wc -l <"$T/$p.help") options in both"
done
# btfgen-pahole: pahole's command line, in btfgen(1)'s PAHOLE COMPATIBILITY
if [ -x "$B/btfgen-pahole" ]; then
	"$B/btfgen-pahole" --help | help_opts | sed 's/=.*//' | sort -u >"$T/pahole.help"
	man_opts man/btfgen.1 "PAHOLE COMPATIBILITY" >"$T/pahole.man"
	[ -s "$T/pahole.help" ] && [ -s "$T/pahole.man" ] || bad "btfgen-pahole: no options found (help or man page)"
	only_help=$(comm -23 "$T/pahole.help" "$T/pahole.man" | tr '\n' ' ')
	only_man=$(comm -13 "$T/pahole.help" "$T/pahole.man" | tr '\n' ' ')
	[ -z "$only_help" ] || bad "btfgen-pahole: in --help, not in btfgen(1) PAHOLE COMPATIBILITY: $only_help"
	[ -z "$only_man" ] || bad "btfgen-pahole: in btfgen(1) PAHOLE COMPATIBILITY, not in --help: $only_man"
	echo "btfgen-pahole: $(wc -l <"$T/pahole.help") options in both"
else
	bad "$B/btfgen-pahole not built"
fi
# btfdump's commands: each word --help lists under "Commands:" is in the
# man page's SYNOPSIS (or named in its DESCRIPTION for help/PATH/btf) and
# offered by the completion as a first word
if [ -x "$B/btfdump" ]; then
	cmds=$("$B/btfdump" --help | sed -n '/^Commands:/,/^Options:/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p; s/^  \([a-z][a-z]*\)$/\1/p' | sort -u)
	[ -n "$cmds" ] || bad "btfdump --help: no commands found"
	synopsis=$(awk '/^\.SH/ { in_s = ($2 == "SYNOPSIS") } in_s' man/btfdump.1)
	firsts=$(grep -A12 '^	"")' completion/btf-tools.bash | sed -n 's/.*compgen -W "\([a-z ]*\)".*/\1/p' | head -1)
	for c in $cmds; do
		case $c in help | btf) ;; *) # (aliases, in DESCRIPTION)
			grep -qx "\.B $c" <<<"$synopsis" || bad "btfdump: command '$c' of --help not in the man page's SYNOPSIS" ;;
		esac
		grep -qw -- "$c" <<<"$firsts" || bad "btfdump: command '$c' of --help not offered by the completion"
	done
	echo "btfdump: commands $(echo $cmds) in --help, man page and completion"
fi
for page in man/*.[0-9]; do
	MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" >/dev/null 2>"$T/warn"
	[ -s "$T/warn" ] && bad "$page: man -l warns: $(head -3 "$T/warn")"
done
[ $fail -eq 0 ] && echo "PASS: --help and man pages list the same options ($pages programs)"
exit $fail
